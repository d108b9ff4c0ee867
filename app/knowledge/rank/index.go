package rank

import (
	"context"
	"errors"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/analysis"
)

// The fields an index holds for each chunk: its body (title, heading path
// and text) and, on a document's first chunk only, its title.
const (
	FieldTitle = "title"
	FieldBody  = "body"
)

// Segment is what ranking reads of one index segment: the chunks it holds
// (numbered from 0), a term's postings in a field and the field's lengths.
// *flatseg.Segment is one.
type Segment interface {
	// Count is how many chunks the segment holds, deleted ones included.
	Count() uint64
	// Postings returns term's postings in field: chunk numbers, ascending,
	// the term's frequency in each, and the field's length by chunk
	// number. The slices belong to the segment: read, never write.
	Postings(field, term string) (docs, freqs, lens []uint32)
	// Lengths is the field's length by chunk number (nil: no chunk has
	// the field).
	Lengths(field string) []uint32
	// DocID is the id of chunk num: "documentID#n".
	DocID(num uint64) ([]byte, error)
}

// ChunkTable is implemented by a Segment that knows each chunk's document
// and number without ids to parse, as a site bundle's does: chunk i
// belongs to the document with id docs[ord[i]] and is its number n[i],
// which is what DocID(i) says as "docs[ord[i]]#n[i]". Ranking a segment of
// some 100,000 chunks then reads these tables instead of formatting,
// parsing and looking up every chunk's id (Prepare).
type ChunkTable interface {
	ChunkTable() (docs []string, ord, n []int32)
}

// Sparse is implemented by a Segment whose chunks' places and documents'
// figures arrive with its postings, as a site bundle's do: a query should
// not download what ranking needs of every chunk when it reads the
// postings of a few terms. Its chunk table and document figures are as
// long as the segment and hold, for every chunk of the postings loaded so
// far, its document, its number, its document's length and how many of
// the document's chunks repeat its title (the numbers a ranking of the
// whole segment would derive from every chunk's lengths); other entries
// are zero and never read, since ranking reads these only for the chunks
// of postings. The segment fills them in place as postings arrive, so
// ranking keeps the slices, not copies. Its documents are listed in the
// order of their first chunks, as ChunkTable's fast path requires, and
// totals come from the segment.
type Sparse interface {
	ChunkTable
	// DocumentFigures returns, by chunk number, the length of the chunk's
	// document and how many of its chunks repeat its title beyond the
	// first; and how many documents the segment holds and their lengths
	// added up.
	DocumentFigures() (length []uint32, repeats []int32, docs int, tokens int64)
	// FieldTotals is the field's lengths added up over the segment's
	// chunks, and how many chunks have the field.
	FieldTotals(field string) FieldTotals
}

// Description is what ranking knows of an index's chunks (Describe).
type Description struct {
	// Ord is each chunk's document ordinal (0 to Docs-1; ties between
	// equal scores go to the lower ordinal), N its number within the
	// document.
	Ord, N []int32
	// DocLength is the length in terms of the document each chunk belongs
	// to, Repeats how many of that document's chunks repeat its title
	// beyond the first (see docscore.go).
	DocLength []uint32
	Repeats   []int32
	// Docs is how many documents the index holds, Tokens their lengths
	// added up.
	Docs   int
	Tokens int64
	// Totals are each field's lengths added up over the chunks.
	Totals map[string]FieldTotals
}

// FieldTotals are a field's length in tokens summed over a segment's
// chunks and how many chunks have the field.
type FieldTotals struct {
	Tokens int64
	Chunks int
}

// View is a consistent view of an index's segments for one ranking pass.
type View struct {
	Segments []ViewSegment
	// Chunks is how many live (not deleted) chunks the segments hold.
	Chunks uint64
	// Cardinality is a field's number of distinct terms summed over the
	// segments; only bleve's formula reads it.
	Cardinality func(field string) (uint64, error)
	// Release ends the view; ranking calls it when done.
	Release func()
}

// ViewSegment is one segment of a view and its deleted chunks (nil: none).
type ViewSegment struct {
	Segment Segment
	Deleted *roaring.Bitmap
}

// Doc names a ranked document: its ordinal and its id.
type Doc struct {
	Ord int32
	ID  string
}

// Index is what a ranking reads.
type Index interface {
	// View opens a view of the index's segments as they are now.
	View() (*View, error)
	// ChunkText returns chunk n of document d as it was indexed (title,
	// heading path and text), for feedback and proximity; "" for a
	// document deleted since it was ranked.
	ChunkText(ctx context.Context, d Doc, n int) (string, error)
	// Common reports whether term is in too many chunks to expand a query
	// with (CommonTerm).
	Common(term string) (bool, error)
}

// Fetcher is an Index whose postings and text arrive over a network: a
// ranking asks for all it is about to read at once, so that it waits for
// one round of requests instead of one request after another.
type Fetcher interface {
	// FetchTerms loads the postings of terms; a view opened after it
	// returns has them.
	FetchTerms(ctx context.Context, terms []string) error
	// FetchText loads the text of chunks for ChunkText.
	FetchText(ctx context.Context, chunks []ChunkRef) error
}

// ChunkRef names chunk N of document Doc.
type ChunkRef struct {
	Doc Doc
	N   int
}

// Config configures a Ranker. Zero values mean the defaults.
type Config struct {
	// Analyzer analyses queries (and chunk text, for feedback and
	// proximity) as the index's text was analysed.
	Analyzer analysis.Analyzer
	// TitleBoost is the weight of an extra score for query words in a
	// document's title, scored as a field of its own; 0 or less (the
	// default) means none (see knowledge.Config).
	TitleBoost float64
	// Feedback configures pseudo-relevance feedback (RM3, feedback.go);
	// on by default.
	Feedback Feedback
	// Proximity configures term-proximity re-ranking (proximity.go); off
	// by default.
	Proximity Proximity
	// Scoring configures how term matches in chunks add up to a
	// document's score (docscore.go).
	Scoring Scoring
}

// Ranker ranks the documents of one index. It keeps what it learns of
// the index's segments (which document each chunk belongs to, a dense
// ordinal per document, whole-document figures) across queries: segments
// are immutable, so this never goes stale. Safe for concurrent use.
type Ranker struct {
	cfg Config

	mu       sync.Mutex // guards the bookkeeping below
	ordinals map[string]int32
	ordDocs  []string
	infos    map[Segment]*segInfo
	// spare holds a ranking's arrays, sized by Prepare or kept from the
	// last ranking, for the next one. Not a sync.Pool: a pool is emptied
	// by garbage collection, which in the browser runs often while a
	// bundle's files arrive, and the arrays (about 7 MB for a site of
	// 50,000 pages) would then be made again within a first query.
	spare   *accum
	ranking int // rankings under way (holding arrays of their own)
}

// New returns a Ranker.
func New(cfg Config) *Ranker {
	cfg.Feedback = cfg.Feedback.withDefaults()
	cfg.Proximity = cfg.Proximity.withDefaults()
	return &Ranker{cfg: cfg, ordinals: map[string]int32{}, infos: map[Segment]*segInfo{}}
}

// Config is the ranker's configuration, defaults filled in.
func (r *Ranker) Config() Config { return r.cfg }

// Result is a ranked document and its best chunk.
type Result struct {
	Doc Doc
	// Chunk is the number of the document's best chunk.
	Chunk int
	Score float64
	// Neighbour is the number of the document's runner-up chunk when it
	// sits right beside the best one, else -1.
	Neighbour int
}

// Prepare learns what a first ranking of ix would learn of its segments
// before it ranks (each chunk's document and, when the scoring reads
// them, the documents' figures), so that the first query does not pay
// for it. Rankings are the same with or without it: they fill the same
// caches in the same order.
func (r *Ranker) Prepare(ix Index) error {
	view, err := ix.View()
	if err != nil {
		return err
	}
	defer view.Release()
	perDoc := r.cfg.Scoring.documentScore() || r.cfg.Scoring.documentIDF()
	var chunks uint64
	for _, ss := range view.Segments {
		chunks += ss.Segment.Count()
		info, err := r.segmentInfo(ss.Segment)
		if err != nil {
			return err
		}
		if perDoc {
			if _, err := r.documentParts(ss.Segment, info); err != nil {
				return err
			}
		}
	}
	docs := len(r.ordinalDocs())
	r.mu.Lock()
	defer r.mu.Unlock()
	// Sized here unless a ranking holds them: then they are sized when
	// it is done, and another ranking meanwhile makes its own.
	if r.spare == nil && r.ranking == 0 {
		r.spare = new(accum)
	}
	if r.spare != nil {
		r.spare.reset(int(chunks), docs)
	}
	return nil
}

// takeAccum returns the spare ranking arrays, or others.
func (r *Ranker) takeAccum() *accum {
	r.mu.Lock()
	a := r.spare
	r.spare = nil
	r.ranking++
	r.mu.Unlock()
	if a == nil {
		a = accumPool.Get().(*accum)
	}
	return a
}

// putAccum keeps a, cleared, as the spare arrays, or pools it when
// another ranking kept its own.
func (r *Ranker) putAccum(a *accum) {
	r.mu.Lock()
	r.ranking--
	if r.spare == nil {
		r.spare, a = a, nil
	}
	r.mu.Unlock()
	if a != nil {
		accumPool.Put(a)
	}
}

// Describe states what ranking knows of ix: its segments' chunks numbered
// one after the other, as a ranking numbers them, with each chunk's
// document ordinal, number and document figures, and the totals. A site
// bundle is written from it. Deleted chunks are refused: a bundle is
// written from an index without any.
func (r *Ranker) Describe(ix Index) (*Description, error) {
	view, err := ix.View()
	if err != nil {
		return nil, err
	}
	defer view.Release()
	var total uint64
	for _, ss := range view.Segments {
		if ss.Deleted != nil && !ss.Deleted.IsEmpty() {
			return nil, errors.New("rank: the index has deleted chunks")
		}
		total += ss.Segment.Count()
	}
	d := &Description{Ord: make([]int32, 0, total), N: make([]int32, 0, total),
		DocLength: make([]uint32, 0, total), Repeats: make([]int32, 0, total), Totals: map[string]FieldTotals{}}
	for _, ss := range view.Segments {
		info, err := r.segmentInfo(ss.Segment)
		if err != nil {
			return nil, err
		}
		parts, err := r.documentParts(ss.Segment, info)
		if err != nil {
			return nil, err
		}
		d.Ord = append(d.Ord, info.ord...)
		d.N = append(d.N, info.n...)
		d.DocLength = append(d.DocLength, parts.length...)
		d.Repeats = append(d.Repeats, parts.repeats...)
		d.Tokens += parts.tokens
		for _, f := range []string{FieldBody, FieldTitle} {
			t, err := r.liveFieldTotals(ss.Segment, info, f, nil)
			if err != nil {
				return nil, err
			}
			sum := d.Totals[f]
			sum.Tokens += t.Tokens
			sum.Chunks += t.Chunks
			d.Totals[f] = sum
		}
	}
	d.Docs = len(r.ordinalDocs())
	return d, nil
}
