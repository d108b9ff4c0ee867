package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

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

// FetchTerms implements rank.Fetcher: it fetches, at once, the shards of
// the terms not loaded yet and takes them into the segment.
func (ix *Index) FetchTerms(ctx context.Context, terms []string) error {
	names, err := ix.locateAll(ctx, ix.man.Terms, terms)
	if err != nil {
		return err
	}
	var need []string
	ix.mu.RLock()
	for _, n := range names {
		if n != "" && !ix.terms[n] && !slices.Contains(need, n) {
			need = append(need, n)
		}
	}
	ix.mu.RUnlock()
	ix.begin(need)
	// The segment's tables and the ranker's (megabytes on a large site,
	// made once: Preload makes them unless a query comes first) are made
	// while the shards download, not before they are asked for.
	segc := make(chan *segment, 1)
	go func() {
		seg, _ := ix.makeTables() // ranking reports what fails here
		segc <- seg
	}()
	// So is the group table, which names the hits' fragments: read after
	// the ranking, it held their requests back by a turn of the page's
	// thread, which the ranker's clearing took first (15 ms on the 50k
	// bench site). It is waited for below, so that no fetch outlives the
	// search; the hits' fragments report a failure. Once it is read (every
	// query after a visit's first) no goroutine is started: waiting on one,
	// even one that returns at once, lets the app's queued work run first.
	groups := make(chan struct{})
	if ix.groupsRead() {
		close(groups)
	} else {
		go func() {
			defer close(groups)
			_ = ix.loadGroups(ctx)
		}()
	}
	decoded := make([][]termPostings, len(need))
	err = parallel(len(need), func(k int) error {
		data, err := ix.file(ctx, need[k])
		if err != nil {
			return err
		}
		if decoded[k], err = decodeTermShard(data, ix.man.Chunks, ix.man.Docs); err != nil {
			return fmt.Errorf("%s: %w", need[k], err)
		}
		return nil
	})
	seg := <-segc
	<-groups
	if err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for k, n := range need {
		if ix.terms[n] {
			continue // another query took it in meanwhile
		}
		for j := range decoded[k] {
			seg.add(&decoded[k][j])
		}
		ix.terms[n] = true
	}
	return nil
}

// smallPages is how many map pages (of 256 term shards each by default)
// a small bundle has at most (Small).
const smallPages = 8

// preloadPages is how many map pages a term map may have for Preload to
// read them all: every query reads a few of them, a round of requests
// before its term shards, and up to this many are some 120 KB as brotli
// (3.7 KB a page on the 50k bench site). Write cuts a large site's term
// shards larger until its map has no more pages; a larger map's pages
// (a bundle cut with a size given) are left to the queries. The page's
// site-prefetch.js fetches as many.
const preloadPages = 32

// Small reports whether the bundle's term map is small enough for the
// app to read whole while it starts (Preload): unpaged, or a few pages,
// some tens of kilobytes. The page's site-prefetch.js fetches a small
// bundle's map pages at once, with its group table, and a larger one's
// once app.wasm has arrived, so that they do not share the line with it.
func (ix *Index) Small() bool {
	return !ix.man.Terms.Paged || len(ix.man.Terms.Files) <= smallPages
}

// Preload reads what queries would otherwise wait for, before one asks:
// the group table, which names every fragment (fragments.go), every page
// of the term map when there are at most preloadPages of them, and the
// segment's tables (the ranker prepared, rank.Prepare). The app calls it
// once it has opened the bundle; it waits for the searches under way to
// end before it starts.
func (ix *Index) Preload(ctx context.Context) error {
	// A search under way reads what it needs itself; reading the rest
	// beside it would hold the page's thread while its files arrive.
	if err := ix.quiet(ctx); err != nil {
		return err
	}
	var pages []string
	if sm := ix.man.Terms; sm.Paged && len(sm.Files) <= preloadPages {
		pages = sm.Files
	}
	start := ix.unread(pages)
	if !ix.groupsRead() {
		start = append([]string{ix.man.Fragments.Table}, start...)
	}
	ix.begin(start)
	// The files, all asked for at once (begin), are taken as each
	// arrives: each is a short piece of work (a page decodes in well
	// under a millisecond). Read one at a time with a pause between
	// them, the 50k bench site's 22 pages took 250–450 ms. The long
	// pieces, the segment's tables and the ranker, then come one at a
	// time with the page's thread let go between them (knowledge.Yield):
	// together they would hold it for about a tenth of a second, input
	// and painting waiting.
	errs := make([]error, len(pages)+1)
	var wg sync.WaitGroup
	for k := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k == 0 {
				errs[k] = ix.loadGroups(ctx)
			} else {
				_, errs[k] = ix.page(ctx, pages[k-1])
			}
		}()
	}
	wg.Wait()
	knowledge.Yield()
	_, err := ix.makeTables()
	return errors.Join(append(errs, err)...)
}

// makeTables makes the segment's tables and the ranker's (rank.Prepare)
// unless they are made, and returns the segment and what Prepare says.
// Both are as large as the bundle (six numbers and about eight more a
// chunk, some 11 MB for the 50k bench site) and live as long as the
// page, so collection is held off while they are made (knowledge.AskGC):
// from the small heap the app starts with, each doubling of it began a
// collection cycle that found nothing to free, three of them for that
// site, together some 50 ms of the browser's one thread. The page's
// thread is let go between the two (knowledge.Yield), so that arriving
// files are taken in between.
//
// Collection comes back only once no search is under way and the page is
// idle (gcAfterSearches): with the tables made, the heap is past the
// collector's first goal at once, and that first cycle (about 65 ms of
// the thread on the 50k bench site, half of it the browser compiling
// the collector's code) came in the middle of the query that made them.
func (ix *Index) makeTables() (*segment, error) {
	if ix.prepared() {
		return ix.segment(), ix.ranker.Prepare(ix)
	}
	defer ix.gcAfterSearches(knowledge.AskGC(-1))
	seg := ix.segment()
	knowledge.Yield()
	return seg, ix.ranker.Prepare(ix)
}

// gcAfterSearches calls done, which lets the collector back in, once no
// search is under way and the browser is idle (knowledge.Idle): after
// the search's results are drawn. A search on the 50k bench site
// allocates 5–12 MB, much of it postings the segment keeps, so holding
// collection off for its length costs little memory.
func (ix *Index) gcAfterSearches(done func()) {
	go func() {
		defer done()
		_ = ix.quiet(context.Background()) // no ctx: it cannot fail
		knowledge.Idle()
	}()
}

// locateAll returns the shard file of each term in sm ("" for a term
// before the first shard, which no shard holds), reading the map pages
// it needs at once.
func (ix *Index) locateAll(ctx context.Context, sm ShardMap, terms []string) ([]string, error) {
	if sm.Paged {
		var pages []string
		for _, t := range terms {
			if i := sm.find(t); i >= 0 && !slices.Contains(pages, sm.Files[i]) {
				pages = append(pages, sm.Files[i])
			}
		}
		// Only the pages not read yet are waited for: waiting, even on
		// goroutines that return at once, lets the page's thread run the
		// rest of the app first (in the browser, the panel drawn anew
		// after the input that asked: the term shards were asked for
		// some 35 ms later).
		pages = ix.unread(pages)
		ix.begin(pages)
		if err := parallel(len(pages), func(k int) error { _, err := ix.page(ctx, pages[k]); return err }); err != nil {
			return nil, err
		}
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		m, err := ix.level(ctx, sm, t)
		if err != nil {
			return nil, err
		}
		if j := m.find(t); j >= 0 {
			out[i] = m.Files[j]
		}
	}
	return out, nil
}

// level returns the map that lists term's shard itself: sm, or the page
// of a paged sm that covers term.
func (ix *Index) level(ctx context.Context, sm ShardMap, term string) (ShardMap, error) {
	if !sm.Paged {
		return sm, nil
	}
	i := sm.find(term)
	if i < 0 {
		return ShardMap{}, nil
	}
	return ix.page(ctx, sm.Files[i])
}

// span returns the shard files of sm that may hold terms from lo up to hi
// ("" no bound), at most max of them.
func (ix *Index) span(ctx context.Context, sm ShardMap, lo, hi string, max int) ([]string, error) {
	var out []string
	if !sm.Paged {
		for _, i := range sm.span(lo, hi) {
			out = append(out, sm.Files[i])
		}
		return out[:min(len(out), max)], nil
	}
	for _, i := range sm.span(lo, hi) {
		page, err := ix.page(ctx, sm.Files[i])
		if err != nil {
			return nil, err
		}
		for _, j := range page.span(lo, hi) {
			if len(out) == max {
				return out, nil
			}
			out = append(out, page.Files[j])
		}
	}
	return out, nil
}

// unread returns the map pages of names not read yet.
func (ix *Index) unread(names []string) []string {
	var out []string
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, n := range names {
		if _, ok := ix.pages[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// page returns a map page, fetching it on first use.
func (ix *Index) page(ctx context.Context, name string) (ShardMap, error) {
	ix.mu.RLock()
	m, ok := ix.pages[name]
	ix.mu.RUnlock()
	if ok {
		return m, nil
	}
	data, err := ix.file(ctx, name)
	if err != nil {
		return ShardMap{}, err
	}
	if m, err = decodePage(data); err != nil {
		return ShardMap{}, fmt.Errorf("%s: %w", name, err)
	}
	ix.mu.Lock()
	ix.pages[name] = m
	ix.mu.Unlock()
	return m, nil
}

// groupsRead reports whether the group table is read.
func (ix *Index) groupsRead() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.groups != nil
}

// loadGroups reads the group table, unless it is read.
func (ix *Index) loadGroups(ctx context.Context) error {
	if ix.groupsRead() {
		return nil
	}
	data, err := ix.file(ctx, ix.man.Fragments.Table)
	if err != nil {
		return err
	}
	groups, err := decodeGroupTable(ix.man, data)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	ix.groups = groups
	ix.mu.Unlock()
	return nil
}

// fragmentFile returns the file of document ord's fragment, or "" while
// the group table is not read.
func (ix *Index) fragmentFile(ord uint32) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.groups == nil {
		return ""
	}
	per := uint32(ix.man.Fragments.Group)
	return fragmentFile(ix.groups[ord/per], int(ord%per))
}

// FetchText implements rank.Fetcher: it fetches, at once, the fragments
// of the chunks' documents (each reads the group table first, should a
// query come before Preload has read it).
func (ix *Index) FetchText(ctx context.Context, chunks []rank.ChunkRef) error {
	ords := ix.startText(chunks)
	return parallel(len(ords), func(k int) error { _, err := ix.fragment(ctx, ords[k]); return err })
}

// startText asks at once for the fragments of chunks' documents not read
// yet, and returns their ordinals.
func (ix *Index) startText(chunks []rank.ChunkRef) []uint32 {
	var ords []uint32
	var files []string
	ix.mu.RLock()
	for _, c := range chunks {
		o := uint32(c.Doc.Ord)
		if _, ok := ix.frags[o]; ok || slices.Contains(ords, o) || int(o) >= ix.man.Docs {
			continue
		}
		ords = append(ords, o)
	}
	ix.mu.RUnlock()
	for _, o := range ords {
		if f := ix.fragmentFile(o); f != "" {
			files = append(files, f)
		}
	}
	ix.begin(files)
	return ords
}

// fragment returns document ord and its chunks, fetching them (and the
// group table) on first use.
func (ix *Index) fragment(ctx context.Context, ord uint32) (*fragment, error) {
	ix.mu.RLock()
	f := ix.frags[ord]
	ix.mu.RUnlock()
	if f != nil {
		return f, nil
	}
	if int(ord) >= ix.man.Docs {
		return nil, fmt.Errorf("%w: no document %d", ErrDamaged, ord)
	}
	if err := ix.loadGroups(ctx); err != nil {
		return nil, err
	}
	name := ix.fragmentFile(ord)
	data, err := ix.file(ctx, name)
	if err != nil {
		return nil, err
	}
	if f, err = decodeFragment(name, data); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	ix.frags[ord] = f
	ix.known[f.Document.ID] = true
	ix.mu.Unlock()
	return f, nil
}

// lexiconShard returns a lexicon or suffix shard, fetching it on first
// use.
func (ix *Index) lexiconShard(ctx context.Context, name string) ([]lexEntry, error) {
	ix.mu.RLock()
	es, ok := ix.lex[name]
	ix.mu.RUnlock()
	if ok {
		return es, nil
	}
	data, err := ix.file(ctx, name)
	if err != nil {
		return nil, err
	}
	if es, err = decodeLexicon(data, ix.man.Chunks); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ix.mu.Lock()
	ix.lex[name] = es
	ix.mu.Unlock()
	return es, nil
}

// maxLookupShards bounds the lexicon shards one prefix lookup reads: a
// short prefix of a large site spans many, and the first few hold enough
// of its terms for a keystroke's suggestions.
const maxLookupShards = 3

// withPrefix returns the lexicon (or suffix) entries that start with
// prefix, from at most maxLookupShards shards.
func (ix *Index) withPrefix(ctx context.Context, prefix string, suffix bool) ([]lexEntry, error) {
	sm := ix.man.Lexicon
	if suffix {
		sm = ix.man.Suffixes
	}
	names, err := ix.span(ctx, sm, prefix, prefixEnd(prefix), maxLookupShards)
	if err != nil {
		return nil, err
	}
	got := make([][]lexEntry, len(names))
	if err := parallel(len(names), func(k int) error {
		es, err := ix.lexiconShard(ctx, names[k])
		got[k] = es
		return err
	}); err != nil {
		return nil, err
	}
	var out []lexEntry
	for _, es := range got {
		i := sort.Search(len(es), func(i int) bool { return es[i].term >= prefix })
		for ; i < len(es) && strings.HasPrefix(es[i].term, prefix); i++ {
			out = append(out, es[i])
		}
	}
	return out, nil
}

// prefixEnd is the least string greater than every string that starts
// with p ("" when there is none).
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return ""
}

// Complete implements rank.Dictionary from the lexicon shards.
func (ix *Index) Complete(ctx context.Context, prefix string, max int) ([]string, error) {
	es, err := ix.withPrefix(ctx, prefix, false)
	if err != nil {
		return nil, err
	}
	return mostFrequent(es, max), nil
}

// Near implements rank.Dictionary. A term one edit from a word keeps
// either the word's first ⌊(n−1)/2⌋ runes or its last n−1−⌊(n−1)/2⌋
// (n: the word's length): an edit touches at most two neighbouring
// runes, which cannot reach into both. So the candidates are the terms
// with that prefix (lexicon shards) and those with that suffix (suffix
// shards, which spell terms backwards).
func (ix *Index) Near(ctx context.Context, term string) ([]string, error) {
	n := utf8.RuneCountInString(term)
	if n < 2 {
		return nil, nil
	}
	r := []rune(term)
	p := (n - 1) / 2
	head, tail := string(r[:p]), string(r[p+1:])
	if p == 0 {
		head = ""
	}
	var cands []lexEntry
	for _, part := range []struct {
		prefix string
		suffix bool
	}{{head, false}, {reverse(tail), true}} {
		es, err := ix.withPrefix(ctx, part.prefix, part.suffix)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			t := e.term
			if part.suffix {
				t = reverse(t)
			}
			if rank.OneEdit(term, t) {
				cands = append(cands, lexEntry{t, e.df})
			}
		}
	}
	return mostFrequent(cands, len(cands)), nil
}

// Has implements rank.Dictionary from the lexicon shards.
func (ix *Index) Has(ctx context.Context, term string) (bool, error) {
	names, err := ix.locateAll(ctx, ix.man.Lexicon, []string{term})
	if err != nil || names[0] == "" {
		return false, err
	}
	es, err := ix.lexiconShard(ctx, names[0])
	if err != nil {
		return false, err
	}
	k := sort.Search(len(es), func(k int) bool { return es[k].term >= term })
	return k < len(es) && es[k].term == term, nil
}

// mostFrequent returns up to max distinct terms of es, those in most
// chunks first, ties in byte order.
func mostFrequent(es []lexEntry, max int) []string {
	sort.Slice(es, func(i, j int) bool {
		if es[i].df != es[j].df {
			return es[i].df > es[j].df
		}
		return es[i].term < es[j].term
	})
	var out []string
	for i, e := range es {
		if len(out) == max {
			break
		}
		if i > 0 && e.term == es[i-1].term {
			continue
		}
		out = append(out, e.term)
	}
	return out
}

// file fetches one of the bundle's files and checks it against its name
// (verify). Requests for one file at once share one fetch.
func (ix *Index) file(ctx context.Context, name string) ([]byte, error) {
	return ix.files.do(name, func() ([]byte, error) {
		data, err := ix.fetch(ctx, ix.base+name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := verify(name, data); err != nil {
			return nil, err
		}
		return data, nil
	})
}

// parallel runs fn(0) … fn(n-1) at once and returns the first error.
func parallel(n int, fn func(k int) error) error {
	if n == 1 {
		return fn(0)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = fn(k)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// flight shares one fetch among the callers asking for one file at once.
type flight struct {
	mu    sync.Mutex
	calls map[string]*call
}

type call struct {
	done chan struct{}
	data []byte
	err  error
}

// busy reports whether key is being fetched.
func (f *flight) busy(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.calls[key]
	return ok
}

func (f *flight) do(key string, fn func() ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]*call{}
	}
	if c, ok := f.calls[key]; ok {
		f.mu.Unlock()
		<-c.done
		return c.data, c.err
	}
	c := &call{done: make(chan struct{})}
	f.calls[key] = c
	f.mu.Unlock()
	c.data, c.err = fn()
	close(c.done)
	f.mu.Lock()
	delete(f.calls, key)
	f.mu.Unlock()
	return c.data, c.err
}
