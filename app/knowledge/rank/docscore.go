package rank

import (
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Why a whole-document score: chunks are what the model reads, but
// documents are what a search ranks, and a document whose matches are
// spread over its chunks loses them when it is ranked by its best chunk
// alone (MaxP). Combining the best passage's score with the whole
// document's beats either alone (Callan, SIGIR 1994; Wilkinson, SIGIR
// 1994); the two are added with equal weights (CombSUM, Fox and Shaw,
// TREC-2), so there is no weight to tune. The document score is the
// chunks' BM25 formula (bm25.go) over the document as one unit, computed at
// query time from the chunks' postings: a term's frequency summed over the
// chunks, the document's length likewise, the title (which every chunk's
// body starts with) counted once. What it cannot see is the overlap
// between neighbouring chunks, which counts twice in both the frequency
// and the length. Nothing is indexed for it.
//
// Why idf from documents: a term's idf says how rare it is among the
// units that are ranked. Counted over chunks, a long document's terms
// count once per chunk that has them and overlapping text twice, so a
// topic that a few long documents discuss looks common. Counting
// documents also gives the chunk scores and the document score, which are
// added, the same weight for each term.

// Scoring configures how term matches in chunks add up to a document's
// score. The zero value is the default: best chunk plus whole document,
// scores added, idf from documents, Robertson's BM25 at Lucene's
// defaults without δ.
type Scoring struct {
	// ChunkOnly ranks a document by its best chunk alone (MaxP), without
	// the whole-document score.
	ChunkOnly bool
	// ChunkIDF takes the body's idf from chunks, as bleve does, instead of
	// documents. A title bonus (Config.TitleBoost) takes its idf from
	// the title field either way: with bleve's formula its document
	// frequency counts documents and its total chunks, as bleve does;
	// with Robertson's both count the chunks that have a title, which are
	// the documents.
	ChunkIDF bool
	// Delta is BM25+'s lower bound on a matching term's tf part (Lv and
	// Zhai, CIKM 2011, propose 1; default 0, plain BM25). It is made for
	// Robertson's formula; bleve's length normalisation (bm25.go) makes a
	// chunk's tf part small, around a twentieth of its maximum, so there
	// δ = 1 outweighs term frequency and ranks by matched idf alone.
	Delta float64
	// Fusion combines the best chunk and the whole document by adding
	// their scores (the zero value) or by reciprocal rank (fusion.go).
	Fusion Fusion
	// Formula is the BM25 formula every score uses (bm25.go); the zero
	// value is Robertson's at Lucene's defaults.
	Formula Formula
}

// documentScore and documentIDF say which whole-document statistics
// a ranking needs.
func (s Scoring) documentScore() bool { return !s.ChunkOnly }
func (s Scoring) documentIDF() bool   { return !s.ChunkIDF }

// docParts are a segment's per-chunk facts about the document each chunk
// belongs to, for scoring documents as a whole from their chunks' postings:
// a document's chunks are always indexed in one batch, so in one segment.
type docParts struct {
	// length is the length in terms of the document the chunk belongs to:
	// its chunks' bodies added up, the title (which every chunk's body
	// starts with) counted once.
	length []uint32
	// repeats is how many of the document's chunks repeat its title beyond
	// the first: a title term's frequency, added up over the chunks, is
	// too high by repeats times its frequency in the title.
	repeats []int32
	// docs is how many documents the segment holds, deleted ones included,
	// and tokens their lengths added up.
	docs   int
	tokens int64
}

// documentParts computes (once per segment, then cached in info) the
// whole-document facts of seg's chunks.
func (r *Ranker) documentParts(seg Segment, info *segInfo) (*docParts, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if info.parts != nil {
		return info.parts, nil
	}
	body, title := seg.Lengths(FieldBody), seg.Lengths(FieldTitle)
	type sum struct {
		length int64
		chunks int32
		title  int64
	}
	sums := newDocSums[sum](info.ord)
	for local, o := range info.ord {
		s := sums.get(o)
		if local < len(body) {
			s.length += int64(body[local])
		}
		s.chunks++
		if local < len(title) && title[local] > 0 {
			s.title = int64(title[local])
		}
	}
	p := &docParts{length: make([]uint32, len(info.ord)), repeats: make([]int32, len(info.ord)), docs: sums.len()}
	sums.each(func(s *sum) {
		p.tokens += max(1, s.length-int64(s.chunks-1)*s.title)
	})
	for local, o := range info.ord {
		s := sums.get(o)
		p.length[local] = uint32(max(1, s.length-int64(s.chunks-1)*s.title))
		if s.title > 0 {
			p.repeats[local] = s.chunks - 1
		}
	}
	info.parts = p
	return p, nil
}

// liveDocuments is how many documents the segment holds that are not
// deleted, and their lengths added up: a document is deleted with all its
// chunks, so its first chunk stands for it.
func liveDocuments(p *docParts, info *segInfo, deleted *roaring.Bitmap) (int, int64) {
	n, tokens := p.docs, p.tokens
	if deleted == nil {
		return n, tokens
	}
	it := deleted.Iterator()
	for it.HasNext() {
		if d := it.Next(); int(d) < len(info.n) && info.n[d] == 0 {
			n--
			tokens -= int64(p.length[d])
		}
	}
	return n, tokens
}

// docSums holds one T per document ordinal of a segment. A segment's
// ordinals usually form a dense range (a bundle's: all of them; a
// segment of the in-memory index: the documents it was written with), so
// they index a slice; a segment whose ordinals are spread thin, after
// merges of old and new documents, falls back to a map.
type docSums[T any] struct {
	lo    int32
	dense []T
	seen  []bool
	n     int
	byOrd map[int32]*T
}

func newDocSums[T any](ord []int32) *docSums[T] {
	if len(ord) == 0 {
		return &docSums[T]{}
	}
	lo, hi := slices.Min(ord), slices.Max(ord)
	if span := int64(hi) - int64(lo) + 1; span <= 2*int64(len(ord))+64 {
		return &docSums[T]{lo: lo, dense: make([]T, span), seen: make([]bool, span)}
	}
	return &docSums[T]{byOrd: map[int32]*T{}}
}

// get returns ordinal o's T, making it on first use.
func (d *docSums[T]) get(o int32) *T {
	if d.byOrd != nil {
		t := d.byOrd[o]
		if t == nil {
			t = new(T)
			d.byOrd[o] = t
			d.n++
		}
		return t
	}
	i := o - d.lo
	if !d.seen[i] {
		d.seen[i] = true
		d.n++
	}
	return &d.dense[i]
}

// len is how many ordinals have a T.
func (d *docSums[T]) len() int { return d.n }

// each calls f with every ordinal's T, in no particular order.
func (d *docSums[T]) each(f func(*T)) {
	if d.byOrd != nil {
		for _, t := range d.byOrd {
			f(t)
		}
		return
	}
	for i := range d.dense {
		if d.seen[i] {
			f(&d.dense[i])
		}
	}
}
