// Package site is the read-only "site knowledge" a static deployment ships:
// knowledge bundles named in the site config, opened beside the visitor's
// own knowledge base and searched together with it, never written into it.
// A bundle is read by the query (package bundle): opening one reads only
// its manifest.
//
// Retrieval keeps the two apart and merges their results by reciprocal
// rank fusion (fuse.go): each bundle keeps the index it was built with, so
// a new bundle replaces the old one whole, and the visitor's store never
// holds a byte of site content.
package site

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/tool"
)

// Source is one bundle the site publishes: where its manifest is and the
// manifest's SHA-256, which changes whenever the site rebuilds the bundle
// with any change. A bundle with SHA256 "" is checked against its
// manifest's name only.
type Source struct {
	URL    string `json:"url"`
	SHA256 string `json:"sha256"`
}

// Bundle is one opened bundle.
type Bundle struct {
	Source Source
	Index  *bundle.Index
}

// Knowledge is the site's bundles. Safe for concurrent use.
type Knowledge struct {
	// Start, if set, is given to every bundle opened (bundle.Index.SetStart).
	Start bundle.Start

	mu      sync.RWMutex
	bundles []*Bundle
}

// Bundles lists the opened bundles in config order.
func (k *Knowledge) Bundles() []*Bundle {
	if k == nil {
		return nil
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return append([]*Bundle(nil), k.bundles...)
}

// Docs is how many documents the bundles hold.
func (k *Knowledge) Docs() int {
	n := 0
	for _, b := range k.Bundles() {
		n += b.Index.Manifest().Docs
	}
	return n
}

// Sync makes the opened bundles match srcs: a bundle whose hash is
// unchanged is kept as it is (with what it has fetched), a new or changed
// one is opened (its manifest read and checked), one no longer named is
// dropped. A bundle that cannot be opened is reported in the returned
// errors and the others still open; an older version of it stays in use
// until a new one opens, so a failed update loses nothing. A query runs
// against the bundles as they were when it began: a bundle swapped during
// it is not mixed with its successor.
func (k *Knowledge) Sync(ctx context.Context, srcs []Source, fetch bundle.Fetch) []error {
	k.mu.RLock()
	old := map[string]*Bundle{}
	for _, b := range k.bundles {
		old[b.Source.URL] = b
		old[b.Source.SHA256] = b
	}
	k.mu.RUnlock()

	var errs []error
	next := make([]*Bundle, 0, len(srcs))
	for _, s := range srcs {
		if b := old[s.URL]; b != nil && b.Source.SHA256 == s.SHA256 {
			next = append(next, b)
			continue
		}
		ix, err := bundle.Open(ctx, s.URL, s.SHA256, fetch)
		if err != nil {
			errs = append(errs, &Error{URL: s.URL, Err: err})
			if ob := old[s.URL]; ob != nil {
				next = append(next, ob)
			}
			continue
		}
		ix.SetStart(k.Start)
		next = append(next, &Bundle{Source: s, Index: ix})
	}
	k.mu.Lock()
	k.bundles = next
	k.mu.Unlock()
	return errs
}

// Error is a bundle that could not be opened or searched.
type Error struct {
	URL string
	Err error
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("site knowledge %s: %v", e.URL, e.Err) }

// Unwrap lets errors.Is see bundle.ErrDamaged and the rest.
func (e *Error) Unwrap() error { return e.Err }

// Searcher is what both the visitor's knowledge base and a bundle offer.
type Searcher interface {
	Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error)
}

// Union searches the visitor's knowledge base (nil: none) and the site's
// bundles together. It implements tool.Retriever, so the rag_knowledge
// tool and the answer's retrieval see one knowledge base.
//
// A bundle that cannot answer (a shard missing or damaged, the network
// gone) does not fail the search: the others answer, and the error is a
// *Partial that carries their hits.
type Union struct {
	Visitor Searcher
	Site    *Knowledge
	// Opened, when set, is closed once the site's bundles are open (or
	// known to be absent): a search waits for it, up to OpenWait, so
	// that a question asked while the site's knowledge is still opening
	// is not answered without it. The app itself does not wait.
	Opened <-chan struct{}
}

// OpenWait is how long a search waits for the site's bundles to open; a
// site slower than that is searched by later queries.
const OpenWait = 5 * time.Second

// Search runs the query in every index at once and fuses the results (see
// fuse).
// An empty query is knowledge.ErrEmptyQuery, as for one knowledge base.
func (u Union) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	if opt.K <= 0 {
		opt.K = 5
	}
	if u.Opened != nil {
		wait := time.NewTimer(OpenWait)
		select {
		case <-u.Opened:
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return nil, ctx.Err()
		}
		wait.Stop()
	}
	var searchers []Searcher
	if u.Visitor != nil {
		searchers = append(searchers, u.Visitor)
	}
	for _, b := range u.Site.Bundles() {
		searchers = append(searchers, &bundleSearcher{b})
	}
	if len(searchers) == 0 {
		if q == "" {
			return nil, knowledge.ErrEmptyQuery
		}
		return nil, nil
	}
	// Each searcher at once: a bundle's requests go out while the
	// visitor's knowledge (or another bundle) is searched. The last (a
	// bundle, when there is one) runs on this goroutine: in the browser,
	// waiting for goroutines lets the page's thread draw the app first,
	// and its term shards were asked for 10–20 ms later. The lists are
	// taken in the searchers' order, so the fused ranking is the same.
	type result struct {
		hits []knowledge.Hit
		err  error
	}
	results := make([]result, len(searchers))
	progress := u.progress(len(searchers), opt)
	var wg sync.WaitGroup
	search := func(i int, s Searcher) {
		sopt := opt
		if progress != nil {
			sopt.Progress = func(hits []knowledge.Hit) { progress(i, hits) }
		}
		hits, err := s.Search(ctx, q, sopt)
		results[i] = result{hits, err}
		if progress != nil {
			progress(i, hits) // nil for a failure: its list is left out
		}
	}
	last := len(searchers) - 1
	for i, s := range searchers[:last] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			search(i, s)
		}()
	}
	search(last, searchers[last])
	wg.Wait()
	lists := make([][]knowledge.Hit, 0, len(searchers))
	var failed []error
	for i, r := range results {
		hits, err := r.hits, r.err
		if err != nil {
			if i == 0 && u.Visitor != nil || errors.Is(err, knowledge.ErrEmptyQuery) || ctx.Err() != nil {
				return nil, err
			}
			failed = append(failed, err)
			continue
		}
		lists = append(lists, hits)
	}
	hits := fuseHits(lists, opt.K)
	if len(failed) > 0 {
		return hits, &Partial{Hits: hits, Failed: failed}
	}
	return hits, nil
}

// fuseHits fuses the searchers' lists: one list is the answer as it is.
// Fusion reads ranks, and chunk IDs to merge a hit two lists share. A
// pending hit's ID is not known yet (knowledge.SearchOptions.Progress),
// so it is keyed by its list and rank, fused as a hit of its list
// alone: its place is final unless another list holds the same chunk,
// which a site's bundle and the visitor's own knowledge (their IDs made
// apart) do not.
func fuseHits(lists [][]knowledge.Hit, k int) []knowledge.Hit {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	return fuse(lists, func(list, rank int, h knowledge.Hit) string {
		if h.Pending {
			return fmt.Sprintf("\x00pending %d %d", list, rank)
		}
		return h.ChunkID
	}, k)
}

// progress returns, when opt asks for progress, what each of n searchers
// reports with: searcher i's list so far (its last report, or its final
// list once it returned). Once every searcher has reported, each report
// hands opt.Progress the lists fused as Search will fuse them (fuseHits),
// while a hit in them is still pending, so the first hits can be shown
// before the last one's text has arrived.
func (u Union) progress(n int, opt knowledge.SearchOptions) func(i int, hits []knowledge.Hit) {
	if opt.Progress == nil {
		return nil
	}
	var mu sync.Mutex
	lists := make([][]knowledge.Hit, n)
	reported := make([]bool, n)
	return func(i int, hits []knowledge.Hit) {
		mu.Lock()
		defer mu.Unlock()
		lists[i], reported[i] = hits, true
		if slices.Contains(reported, false) {
			return
		}
		fused := fuseHits(lists, opt.K)
		if slices.ContainsFunc(fused, func(h knowledge.Hit) bool { return h.Pending }) {
			opt.Progress(fused)
		}
	}
}

// Partial is a search some bundles could not answer: Hits are the
// others' results.
type Partial struct {
	Hits   []knowledge.Hit
	Failed []error
}

// Error implements error.
func (p *Partial) Error() string {
	msgs := make([]string, len(p.Failed))
	for i, e := range p.Failed {
		msgs[i] = e.Error()
	}
	return "Part of the site's knowledge could not be searched — " + strings.Join(msgs, "; ")
}

// Retrieve implements tool.Retriever.
func (u Union) Retrieve(ctx context.Context, q string, k int) ([]tool.Passage, error) {
	hits, err := u.Search(ctx, q, knowledge.SearchOptions{K: k})
	if err != nil {
		return knowledge.Passages(hits), err
	}
	return knowledge.Passages(hits), nil
}

// IsSite reports whether a document id belongs to site knowledge, as far
// as the documents fetched in this visit tell.
func (k *Knowledge) IsSite(docID string) bool {
	for _, b := range k.Bundles() {
		if b.Index.Knows(docID) {
			return true
		}
	}
	return false
}

// bundleSearcher searches one bundle.
type bundleSearcher struct{ b *Bundle }

func (s *bundleSearcher) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	// The bundle's errors name it by its title already.
	return s.b.Index.Search(ctx, q, opt)
}
