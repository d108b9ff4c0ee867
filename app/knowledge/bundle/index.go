package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/highlight"
	"tinyrag/app/knowledge/rank"
)

// Fetch reads one file of a bundle by its URL. A browser decompresses
// what the host sent compressed; the Index checks the bytes against the
// file's name.
type Fetch func(ctx context.Context, url string) ([]byte, error)

// Start begins reading the file at url, which a Fetch of it will take
// soon. An Index fetches a round of files (a query's term shards, its
// hits' fragments) from goroutines of its own; in a browser a goroutine
// runs only once those queued before it have run (the app's rendering),
// so the Index starts the round's requests first, in order, from the
// goroutine that asks (SetStart).
type Start func(url string)

// Index is an opened bundle: its manifest, and whatever of its shards and
// fragments the queries so far have fetched. It searches like a knowledge
// base (Search) and ranks exactly as the in-memory index it was written
// from. Safe for concurrent use.
type Index struct {
	url    string // the manifest's
	base   string // the bundle folder's URL, ending in "/"
	man    *Manifest
	fetch  Fetch
	an     analysis.Analyzer
	ranker *rank.Ranker

	// mu guards seg and the maps below: postings are added under the
	// write lock, rankings read the segment under the read lock.
	mu     sync.RWMutex
	seg    *segment        // made on first use (segment)
	groups []string        // the fragments' group names; nil until read
	terms  map[string]bool // term shards taken into seg, by file
	lex    map[string][]lexEntry
	pages  map[string]ShardMap
	frags  map[uint32]*fragment
	known  map[string]bool // ids of the documents fetched

	files flight
	start Start // nil: each Fetch starts its own request

	// searching counts the searches under way; idle is closed while
	// there are none (Preload waits for it).
	searchMu  sync.Mutex
	searching int
	idle      chan struct{}
}

// searchStarts counts a search under way until the returned func is
// called.
func (ix *Index) searchStarts() (done func()) {
	ix.searchMu.Lock()
	if ix.searching == 0 {
		ix.idle = make(chan struct{})
	}
	ix.searching++
	ix.searchMu.Unlock()
	return func() {
		ix.searchMu.Lock()
		if ix.searching--; ix.searching == 0 {
			close(ix.idle)
		}
		ix.searchMu.Unlock()
	}
}

// quiet returns once no search is under way (or ctx is done).
func (ix *Index) quiet(ctx context.Context) error {
	for {
		ix.searchMu.Lock()
		idle := ix.idle
		busy := ix.searching > 0
		ix.searchMu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SetStart makes the Index start each round of requests with start before
// fetching its files (Start). Call it before the Index is used.
func (ix *Index) SetStart(start Start) { ix.start = start }

// begin starts reading the named files, in order, unless one is being
// fetched already. A single file needs no start: parallel fetches it from
// the asking goroutine.
func (ix *Index) begin(names []string) {
	if ix.start == nil || len(names) < 2 {
		return
	}
	for _, n := range names {
		if !ix.files.busy(n) {
			ix.start(ix.base + n)
		}
	}
}

// Open reads a bundle's manifest from manifestURL, checks it against
// sha256 (its whole SHA-256 in hex, as a site config names it; "" checks
// it against its name only) and returns the opened bundle, which ranks
// with the default ranking, as the app does. It fetches nothing else:
// queries fetch what they need.
func Open(ctx context.Context, manifestURL, sha string, fetch Fetch) (*Index, error) {
	return OpenRanked(ctx, manifestURL, sha, fetch, rank.Config{})
}

// OpenRanked opens a bundle as Open does, ranking with cfg's switches
// (feedback, proximity, scoring, title boost) instead of the defaults, as
// an in-memory index made with the same switches ranks: for measuring
// what a ranking costs a query in files, and checking that it stays
// exact. cfg.Analyzer is ignored: the bundle's language decides it.
func OpenRanked(ctx context.Context, manifestURL, sha string, fetch Fetch, cfg rank.Config) (*Index, error) {
	data, err := fetch(ctx, manifestURL)
	if err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	if strings.HasPrefix(string(data[:min(len(data), 16)]), "tinyrag-bundle\n") {
		return nil, fmt.Errorf("%w: %s is a single-file bundle of an earlier tinyRAG; rebuild it with this tinyRAG's 'tinyrag bundle', which writes a folder", ErrVersion, manifestURL)
	}
	if sha != "" {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != sha {
			return nil, fmt.Errorf("%w: the manifest %s has SHA-256 %s, the site config names %s (a stale cache, or a config published before its bundle)", ErrDamaged, manifestURL, got, sha)
		}
	} else if err := verify(manifestURL, data); err != nil {
		return nil, err
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, err
	}
	an, err := analyze.New(m.Language)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	base := manifestURL[:strings.LastIndex(manifestURL, "/")+1]
	cfg.Analyzer = an
	return &Index{url: manifestURL, base: base, man: m, fetch: fetch, an: an,
		ranker: rank.New(cfg),
		terms:  map[string]bool{}, lex: map[string][]lexEntry{}, pages: map[string]ShardMap{},
		frags: map[uint32]*fragment{}, known: map[string]bool{}}, nil
}

// Manifest returns the bundle's manifest.
func (ix *Index) Manifest() *Manifest { return ix.man }

// URL is the manifest's URL.
func (ix *Index) URL() string { return ix.url }

// Knows reports whether a document of this bundle with the id was fetched
// in this visit.
func (ix *Index) Knows(docID string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.known[docID]
}

// Search runs a query as a knowledge base does (knowledge.KB.Search):
// the best documents, each with its best chunk. It fetches the shards of
// the query's terms and the fragments of the documents it returns.
func (ix *Index) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	typed := q
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, knowledge.ErrEmptyQuery
	}
	if opt.K <= 0 {
		opt.K = 5
	}
	defer ix.searchStarts()()
	var ranked []rank.Result
	var err error
	var terms map[string]bool
	if opt.AsYouType {
		ranked, err = ix.ranker.RankAsYouType(ctx, ix, ix, typed, opt.K)
		if err == nil && opt.Highlight {
			terms, err = highlight.AsYouTypeTerms(ctx, ix.ranker, ix, typed)
		}
	} else {
		ranked, err = ix.ranker.Rank(ctx, ix, q, opt.K)
		terms = highlight.QueryTerms(ix.an, q)
	}
	if err != nil {
		return nil, fmt.Errorf("site knowledge %q: %w", ix.man.Title, err)
	}
	refs := make([]rank.ChunkRef, len(ranked))
	for i, r := range ranked {
		refs[i] = rank.ChunkRef{Doc: r.Doc, N: r.Chunk}
	}
	waiting := ix.startText(refs)
	hit := func(k int) (knowledge.Hit, error) {
		r := ranked[k]
		f, err := ix.fragment(ctx, uint32(r.Doc.Ord))
		if err != nil {
			return knowledge.Hit{}, err
		}
		h, err := knowledge.NewHit(f.Document, f.Chunks, r)
		if err != nil {
			return knowledge.Hit{}, err
		}
		h.Site = true
		if opt.Highlight {
			h.Fragments = highlight.Fragments(ix.an, h.Text, terms)
		}
		return h, nil
	}
	// The hits whose texts are here are made at once; the others as their
	// fragments arrive, so the first of them are ready, and shown
	// (opt.Progress), while the last are still on their way (8 hits are
	// two waves of requests on HTTP/1.1's six connections). Progress hears
	// the hits once the ones here are made, then as each text arrives;
	// a search whose texts are all here reports nothing.
	hits := make([]knowledge.Hit, len(ranked))
	var later []int
	for k, r := range ranked {
		if slices.Contains(waiting, uint32(r.Doc.Ord)) {
			later = append(later, k)
			hits[k] = knowledge.Hit{Chunk: r.Chunk, Score: r.Score, Site: true, Pending: true}
			continue
		}
		h, err := hit(k)
		if err != nil {
			return nil, fmt.Errorf("site knowledge %q: %w", ix.man.Title, err)
		}
		hits[k] = h
	}
	if len(later) == 0 {
		return hits, nil
	}
	var mu sync.Mutex
	report := func() {}
	if opt.Progress != nil {
		report = func() { opt.Progress(slices.Clone(hits)) }
		if len(later) < len(ranked) {
			report()
		}
	}
	err = parallel(len(later), func(i int) error {
		h, err := hit(later[i])
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		hits[later[i]] = h
		report()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("site knowledge %q: %w", ix.man.Title, err)
	}
	return hits, nil
}

// prepared reports whether the segment's tables are made.
func (ix *Index) prepared() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.seg != nil
}

// segment returns the bundle's segment, making its tables on first use.
func (ix *Index) segment() *segment {
	ix.mu.RLock()
	seg := ix.seg
	ix.mu.RUnlock()
	if seg != nil {
		return seg
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.seg == nil {
		ix.seg = newSegment(ix.man)
	}
	return ix.seg
}

// View implements rank.Index. The view holds the read lock until released.
func (ix *Index) View() (*rank.View, error) {
	seg := ix.segment()
	ix.mu.RLock()
	st := ix.man.Stats
	return &rank.View{
		Segments: []rank.ViewSegment{{Segment: seg}},
		Chunks:   uint64(ix.man.Chunks),
		Cardinality: func(field string) (uint64, error) {
			if field == rank.FieldTitle {
				return st.Title.Cardinality, nil
			}
			return st.Body.Cardinality, nil
		},
		Release: ix.mu.RUnlock,
	}, nil
}

// ChunkText implements rank.Index.
func (ix *Index) ChunkText(ctx context.Context, d rank.Doc, n int) (string, error) {
	f, err := ix.fragment(ctx, uint32(d.Ord))
	if err != nil {
		return "", err
	}
	if n < 0 || n >= len(f.Chunks) {
		return "", fmt.Errorf("%w: %s has %d chunks, not %d", ErrDamaged, f.Document.Source, len(f.Chunks), n+1)
	}
	return knowledge.ChunkBody(f.Document.Title, &f.Chunks[n]), nil
}

// Common implements rank.Index from the manifest's list.
func (ix *Index) Common(term string) (bool, error) {
	i := sort.SearchStrings(ix.man.Common, term)
	return i < len(ix.man.Common) && ix.man.Common[i] == term, nil
}
