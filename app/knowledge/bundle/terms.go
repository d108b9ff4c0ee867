package bundle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/highlight"
	"tinyrag/app/knowledge/rank"
)

// Reading the terms a query needs: the term map's pages that locate
// their shards, the shards themselves, and what Preload reads early.

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
//
// The code the rest of a first query runs is warmed here too (warm).
func (ix *Index) makeTables() (*segment, error) {
	if ix.prepared() {
		return ix.segment(), ix.ranker.Prepare(ix)
	}
	defer ix.gcAfterSearches(knowledge.AskGC(-1))
	seg := ix.segment()
	knowledge.Yield()
	err := ix.ranker.Prepare(ix)
	ix.warm()
	return seg, err
}

// warm has the code that runs between a first query's last term shard
// and its first hit (the ranking's scoring loops, the highlighter)
// compiled where the app waits anyway: makeTables runs while the query's
// shards download, or in Preload. In the browser each function of the
// app's WebAssembly is compiled when it is first called (rank.Warm).
func (ix *Index) warm() {
	rank.Warm(ix.ranker.Config())
	warmHighlight.Do(func() {
		highlight.Fragments(ix.an, "Warming the highlighter's code.", map[string]bool{"warm": true})
	})
}

var warmHighlight sync.Once

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
		// Only the pages not read yet are waited for, one after another
		// once all are asked for (begin): waiting, even on goroutines
		// that return at once, lets the page's thread run the rest of
		// the app first (in the browser, the panel drawn anew after the
		// input that asked: the term shards were asked for some 35 ms
		// later), and a page the page's script has already (as it has a
		// large site's map pages, read while the app starts) is taken
		// without a wait.
		pages = ix.unread(pages)
		ix.begin(pages)
		for _, p := range pages {
			if _, err := ix.page(ctx, p); err != nil {
				return nil, err
			}
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
	return decoded(ctx, ix, ix.pages, name, decodePage)
}
