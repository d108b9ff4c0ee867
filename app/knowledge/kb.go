package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"

	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/chunk"
	"tinyrag/app/knowledge/memindex"
	"tinyrag/app/knowledge/rank"
)

// Config configures a knowledge base. Zero values mean the defaults.
type Config struct {
	// Language selects the analyzer: "en" (default) or "de".
	Language string
	// ChunkSize is the target chunk length in bytes (default 800).
	ChunkSize int
	// ChunkOverlap is how much of a chunk's end starts the next chunk
	// (default 300; negative means none).
	ChunkOverlap int
	// TitleBoost is the weight of an extra score for query words in a
	// document's title, scored as a field of its own; 0 or less (the
	// default) means none. The title is part of every chunk's indexed
	// body, so its words already count like the text's: one field of
	// title and text, as BEIR's flat BM25 baseline indexes them. A bonus
	// weighs title words above the text's, and no weight for it carries
	// across collections (BM25F's field weights are tuned per collection;
	// 1 is BEIR's multifield baseline, title and text as equal fields).
	TitleBoost float64
	// BatchSize is how many chunks are indexed per batch (default 2048).
	// Each batch becomes one index segment, and the event loop gets a turn
	// between batches. In-memory scorch never merges segments, and every
	// query visits each one, so bigger batches search faster (SciFact in
	// WASM: query p50 1.5 ms at 1024, 1.0 at 2048, 0.85 at 4096) but keep
	// the page busy longer (about 0.25 s per 2048 chunks in WASM).
	BatchSize int
	// Feedback configures pseudo-relevance feedback (RM3, see package
	// rank); on by default.
	Feedback rank.Feedback
	// Proximity configures term-proximity re-ranking (sequential
	// dependence, see package rank); off by default.
	Proximity rank.Proximity
	// Scoring configures how term matches in chunks add up to a
	// document's score (see package rank).
	Scoring rank.Scoring
	// Store persists documents, chunks and the index; nil keeps the
	// knowledge base in memory only.
	Store Store
	// Now stamps Document.Added (default time.Now).
	Now func() time.Time
	// Yield is called between batches so a browser can paint and handle
	// input (default: a 1 ms sleep under js/wasm, nothing natively).
	Yield func()
}

// Ranking is c's ranking switches as the ranker takes them, its analyzer
// left for the index to set: a site's bundle opened with the same
// switches ranks as a knowledge base made with c.
func (c Config) Ranking() rank.Config {
	return rank.Config{TitleBoost: c.TitleBoost, Feedback: c.Feedback, Proximity: c.Proximity, Scoring: c.Scoring}
}

// gcPercentIndexing is GOGC while an import runs. SciFact in WASM, with
// the heap reserved up front: 200 indexes fastest (400 grows the heap
// past the reservation, 100 collects too often).
const gcPercentIndexing = 200

// heapPerTextByte is about how many bytes of heap indexing needs per byte
// of text at gcPercentIndexing (SciFact in WASM: 7.5 MB of text, a heap of
// 115 MB without a reservation; reserving 15× indexes as fast as 24× and
// leaves the page 135 MB of WASM memory instead of 198), and minHeapReserve
// the size below which reserving is not worth it.
const (
	heapPerTextByte = 15
	minHeapReserve  = 16 << 20
)

// Progress reports how far a long import has come.
type Progress struct {
	Done, Total int
	// Rate is items done per second so far.
	Rate    float64
	Elapsed time.Duration
}

// KB is a knowledge base: the visitor's documents, cut into chunks,
// indexed, stored and searched. Its methods are safe for concurrent use;
// writes are serialised, searches run alongside them.
type KB struct {
	cfg      Config
	analyzer analysis.Analyzer
	ranker   *rank.Ranker
	docs     *catalog

	writeMu sync.Mutex // serialises Add, Delete, Import, Load

	// mu guards the fields below. Load swaps idx holding writeMu too, so
	// writers, who hold writeMu, read idx without mu.
	mu     sync.RWMutex
	idx    memindex.Index
	closed bool
}

// New returns an empty knowledge base. Call Load to restore what
// cfg.Store holds.
func New(cfg Config) (*KB, error) {
	if cfg.Language == "" {
		cfg.Language = "en"
	}
	name, ok := analyze.Languages[cfg.Language]
	if !ok {
		return nil, fmt.Errorf("knowledge: unsupported language %q (supported: en, de)", cfg.Language)
	}
	if cfg.ChunkSize <= 0 {
		cfg.ChunkSize = chunk.DefaultSize
	}
	if cfg.ChunkOverlap == 0 {
		cfg.ChunkOverlap = chunk.DefaultOverlap
	}
	if cfg.ChunkOverlap < 0 {
		cfg.ChunkOverlap = 0
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 2048
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Yield == nil {
		cfg.Yield = Yield
	}
	an := newLazyAnalyzer(name)
	idx, err := memindex.Open()
	if err != nil {
		return nil, err
	}
	rc := cfg.Ranking()
	rc.Analyzer = an
	ranker := rank.New(rc)
	rc = ranker.Config()
	cfg.Feedback, cfg.Proximity = rc.Feedback, rc.Proximity
	return &KB{
		cfg:      cfg,
		analyzer: an,
		ranker:   ranker,
		idx:      idx,
		docs:     newCatalog(),
	}, nil
}

// Open is New followed by Load.
func Open(ctx context.Context, cfg Config) (*KB, error) {
	kb, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := kb.Load(ctx); err != nil {
		kb.Close()
		return nil, err
	}
	return kb, nil
}

// Close releases the index. Closing twice is harmless.
func (kb *KB) Close() error {
	kb.mu.Lock()
	defer kb.mu.Unlock()
	if kb.closed {
		return nil
	}
	kb.closed = true
	return kb.idx.Close()
}

// Language is the knowledge base's analyzer language.
func (kb *KB) Language() string { return kb.cfg.Language }

// Documents lists the documents, oldest first.
func (kb *KB) Documents() []Document { return kb.docs.list() }

// Document returns one document by id.
func (kb *KB) Document(id string) (Document, bool) { return kb.docs.get(id) }

// Add chunks, indexes and (with a Store) persists one input. Re-adding a
// Source replaces its old version once the new one is fully indexed and
// stored; re-adding it unchanged changes nothing.
func (kb *KB) Add(ctx context.Context, in Input) (Document, error) {
	docs, err := kb.AddBatch(ctx, []Input{in}, nil)
	if err != nil {
		return Document{}, err
	}
	return docs[0], nil
}

// AddBatch adds many inputs, indexing them in batches of about
// Config.BatchSize chunks. After each batch the documents in it are
// searchable and stored, progress is reported and the event loop gets a
// turn. On error, the documents returned so far stay imported; invalid
// inputs are refused before anything is written.
func (kb *KB) AddBatch(ctx context.Context, ins []Input, progress func(Progress)) ([]Document, error) {
	now := kb.cfg.Now()
	textBytes := 0
	for i, in := range ins {
		textBytes += len(in.Text)
		if strings.TrimSpace(in.Text) == "" {
			return nil, fmt.Errorf("knowledge: input %d (%q) has no text to index", i, firstNonEmpty(in.Source, in.Title))
		}
	}
	// Before chunking, which already allocates a good part of it.
	reserveHeap(textBytes)
	recs := make([]Record, 0, len(ins))
	for _, in := range ins {
		recs = append(recs, newRecord(in, kb.cfg, now))
	}
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	// Indexing allocates heavily and briefly; collecting less often during
	// an import cuts GC time, most of all in WASM's single thread.
	defer AskGC(gcPercentIndexing)()
	return kb.importRecords(ctx, recs, progress)
}

// importRecords indexes and stores records, then saves the snapshot. The
// caller holds writeMu.
func (kb *KB) importRecords(ctx context.Context, recs []Record, progress func(Progress)) ([]Document, error) {
	done, err := kb.indexRecords(ctx, recs, true, progress)
	if err == nil && kb.cfg.Store != nil && len(done) > 0 {
		// Its failure loses no document, only reload speed.
		if serr := kb.saveIndexLocked(ctx); serr != nil {
			err = fmt.Errorf("knowledge: documents imported and stored, but the index snapshot was not saved (the next load indexes them again): %w", serr)
		}
	}
	docs := make([]Document, len(done))
	for i, r := range done {
		docs[i] = r.Document
	}
	return docs, err
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// newRecord chunks an input as cfg says into a document record. Its id
// depends on the content only, so chunking the same input twice gives the
// same record.
func newRecord(in Input, cfg Config, now time.Time) Record {
	if in.Source == "" {
		in.Source = firstNonEmpty(in.Title, "text")
	}
	if in.Title == "" {
		in.Title = in.Source
	}
	if in.Language == "" {
		in.Language = cfg.Language
	}
	id := in.ID
	if id == "" {
		id = docID(in)
	}
	pieces := chunk.Split(in.Text, cfg.ChunkSize, cfg.ChunkOverlap)
	chunks := make([]Chunk, len(pieces))
	for n, p := range pieces {
		chunks[n] = Chunk{ID: chunkID(id, n), DocID: id, N: n, Heading: p.Heading, Text: p.Text, Overlap: p.Overlap}
	}
	return Record{
		Document: Document{ID: id, Title: in.Title, Source: in.Source, Type: in.Type,
			Language: in.Language, Added: now, Size: len(in.Text), Chunks: len(chunks)},
		Chunks: chunks,
	}
}

// indexRecords indexes, (optionally) stores and publishes records batch by
// batch, and then retires the older versions of their sources. The caller
// holds writeMu.
func (kb *KB) indexRecords(ctx context.Context, recs []Record, store bool, progress func(Progress)) ([]Record, error) {
	start := time.Now()
	var done []Record
	report := func() {
		if progress == nil {
			return
		}
		el := time.Since(start)
		p := Progress{Done: len(done), Total: len(recs), Elapsed: el}
		if el > 0 {
			p.Rate = float64(len(done)) / el.Seconds()
		}
		progress(p)
	}
	report()
	for i := 0; i < len(recs); {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		b := kb.idx.NewBatch()
		var batch []Record
		n := 0
		for ; i < len(recs) && (n == 0 || n+len(recs[i].Chunks) <= kb.cfg.BatchSize); i++ {
			r := recs[i]
			if kb.docs.has(r.Document.ID) || inRecords(batch, r.Document.ID) {
				continue // unchanged re-import
			}
			for j := range r.Chunks {
				b.Update(chunkDocument(kb.analyzer, r.Document.Title, &r.Chunks[j]))
			}
			n += len(r.Chunks)
			batch = append(batch, r)
		}
		if len(batch) > 0 {
			if err := kb.idx.Batch(b); err != nil {
				return done, fmt.Errorf("knowledge: index batch: %w", err)
			}
			if store && kb.cfg.Store != nil {
				if err := kb.cfg.Store.Put(ctx, batch); err != nil {
					unindex(kb.idx, batch)
					return done, fmt.Errorf("knowledge: store %d documents: %w", len(batch), err)
				}
			}
			replaced := kb.docs.publish(batch)
			if err := kb.remove(ctx, replaced); err != nil {
				return done, err
			}
		}
		done = append(done, batch...)
		report()
		if i < len(recs) {
			kb.cfg.Yield()
		}
	}
	// Inputs skipped as unchanged still count as imported.
	if len(done) < len(recs) {
		seen := map[string]bool{}
		for _, r := range done {
			seen[r.Document.ID] = true
		}
		for _, r := range recs {
			if !seen[r.Document.ID] {
				if d, ok := kb.docs.get(r.Document.ID); ok {
					seen[r.Document.ID] = true
					done = append(done, Record{Document: d})
				}
			}
		}
	}
	return done, nil
}

func inRecords(rs []Record, id string) bool {
	for _, r := range rs {
		if r.Document.ID == id {
			return true
		}
	}
	return false
}

// unindex takes records out of the index again after their store write
// failed, so index and store keep agreeing.
func unindex(idx memindex.Index, batch []Record) {
	b := idx.NewBatch()
	for _, r := range batch {
		for _, c := range r.Chunks {
			b.Delete(c.ID)
		}
	}
	_ = idx.Batch(b) // deleting from memory cannot meaningfully fail
}

// Delete removes a document from the index and the store.
func (kb *KB) Delete(ctx context.Context, id string) error {
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	if !kb.docs.has(id) {
		return &NotFoundError{ID: id}
	}
	if err := kb.remove(ctx, []string{id}); err != nil {
		return err
	}
	// A snapshot that still lists the document would make the next load
	// read every document record to find out (see Versioned).
	if kb.cfg.Store != nil {
		if err := kb.saveIndexLocked(ctx); err != nil {
			return fmt.Errorf("knowledge: document deleted, but the index snapshot was not saved (the next load repairs it): %w", err)
		}
	}
	return nil
}

// DeleteSource removes the document imported from source.
func (kb *KB) DeleteSource(ctx context.Context, source string) error {
	id, ok := kb.docs.source(source)
	if !ok {
		return fmt.Errorf("knowledge: no document from source %q", source)
	}
	return kb.Delete(ctx, id)
}

// remove deletes documents from store first, then from index and memory: if
// the store refuses, the knowledge base is left as it was.
func (kb *KB) remove(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if kb.cfg.Store != nil {
		if err := kb.cfg.Store.Delete(ctx, ids...); err != nil {
			return fmt.Errorf("knowledge: delete %d documents from store: %w", len(ids), err)
		}
	}
	b := kb.idx.NewBatch()
	for _, d := range kb.docs.drop(ids) {
		for n := 0; n < d.Chunks; n++ {
			b.Delete(chunkID(d.ID, n))
		}
	}
	if err := kb.idx.Batch(b); err != nil {
		return fmt.Errorf("knowledge: remove %d documents from index: %w", len(ids), err)
	}
	return nil
}

// chunksOf returns a document's chunks, reading them from the store if they
// were not loaded (after a reload only the index and document list are).
func (kb *KB) chunksOf(ctx context.Context, id string) ([]Chunk, error) {
	cs, known := kb.docs.cached(id)
	if cs != nil {
		return cs, nil
	}
	if !known {
		return nil, &NotFoundError{ID: id}
	}
	if kb.cfg.Store == nil {
		return nil, errors.New("knowledge: chunks of " + id + " are missing and there is no store")
	}
	cs, err := kb.cfg.Store.Chunks(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("knowledge: read chunks of %s: %w", id, err)
	}
	kb.docs.keep(id, cs)
	return cs, nil
}

// lazyAnalyzer is bleve's analyzer for a language, built when it first
// analyzes text: building it (an index mapping, the stop-word list) is
// work the app's start need not do before it is ready, as a first visit's
// empty knowledge base analyzes nothing until a document or a query comes.
type lazyAnalyzer struct{ get func() analysis.Analyzer }

// newLazyAnalyzer returns the analyzer bleve registers under name, one of
// analyze.Languages' (TestAnalyzers_EveryLanguageIsRegistered).
func newLazyAnalyzer(name string) lazyAnalyzer {
	return lazyAnalyzer{get: sync.OnceValue(func() analysis.Analyzer {
		an, err := memindex.Analyzer(name)
		if err != nil {
			panic(err) // analyze.Languages names an analyzer bleve lacks
		}
		return an
	})}
}

// Analyze implements analysis.Analyzer.
func (l lazyAnalyzer) Analyze(text []byte) analysis.TokenStream { return l.get().Analyze(text) }
