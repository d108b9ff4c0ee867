// Package site is the read-only "site knowledge" a static deployment ships:
// knowledge bundles named in the site config, opened beside the visitor's
// own knowledge base and searched together with it, never written into it.
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
	"sync"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/tool"
)

// Source is one bundle the site publishes: where it is and the SHA-256 of
// its content (bundle.Digest), which changes when the site rebuilds it.
// A bundle with SHA256 "" is still checked against its own checksum.
type Source struct {
	URL    string `json:"url"`
	SHA256 string `json:"sha256"`
}

// Fetch reads a bundle's bytes from its URL.
type Fetch func(ctx context.Context, url string) ([]byte, error)

// Bundle is one opened bundle.
type Bundle struct {
	Source Source
	Info   bundle.Info
	KB     *knowledge.KB
}

// Knowledge is the site's bundles. Safe for concurrent use.
type Knowledge struct {
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

// Documents lists the documents of every bundle.
func (k *Knowledge) Documents() []knowledge.Document {
	var out []knowledge.Document
	for _, b := range k.Bundles() {
		out = append(out, b.KB.Documents()...)
	}
	return out
}

// Sync makes the opened bundles match srcs: a bundle whose hash is
// unchanged is kept as it is, a new or changed one is fetched, checked
// against its hash and opened, one no longer named is closed. A bundle
// that cannot be fetched or opened is reported in the returned errors and
// the others still load; an older version of it stays in use until a new
// one opens, so a failed update loses nothing.
func (k *Knowledge) Sync(ctx context.Context, srcs []Source, fetch Fetch) []error {
	k.mu.RLock()
	old := map[string]*Bundle{}
	for _, b := range k.bundles {
		old[b.Source.URL] = b
	}
	k.mu.RUnlock()

	var errs []error
	next := make([]*Bundle, 0, len(srcs))
	keep := map[*Bundle]bool{}
	for _, s := range srcs {
		if b := old[s.URL]; b != nil && b.Source.SHA256 == s.SHA256 {
			next, keep[b] = append(next, b), true
			continue
		}
		b, err := open(ctx, s, fetch)
		if err != nil {
			errs = append(errs, err)
			if ob := old[s.URL]; ob != nil {
				next, keep[ob] = append(next, ob), true
			}
			continue
		}
		next = append(next, b)
	}
	k.mu.Lock()
	k.bundles = next
	k.mu.Unlock()
	for _, b := range old {
		if !keep[b] {
			b.KB.Close()
		}
	}
	return errs
}

// Error is a bundle that could not be loaded.
type Error struct {
	URL string
	Err error
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("site knowledge %s: %v", e.URL, e.Err) }

// Unwrap lets errors.Is see bundle.ErrDamaged and the rest.
func (e *Error) Unwrap() error { return e.Err }

// ErrHashMismatch means the fetched bundle is not the one the config names
// (a stale cache, or a config published before its bundle).
var ErrHashMismatch = errors.New("the file's SHA-256 differs from the one in the site config")

func open(ctx context.Context, s Source, fetch Fetch) (*Bundle, error) {
	data, err := fetch(ctx, s.URL)
	if err != nil {
		return nil, &Error{URL: s.URL, Err: err}
	}
	// Open checks the file's CRC; the config names the bundle by the
	// SHA-256 the file ends with, so comparing needs no hashing.
	kb, info, err := bundle.Open(ctx, data)
	if err != nil {
		return nil, &Error{URL: s.URL, Err: err}
	}
	if s.SHA256 != "" && bundle.Digest(data) != s.SHA256 {
		kb.Close()
		return nil, &Error{URL: s.URL, Err: ErrHashMismatch}
	}
	return &Bundle{Source: s, Info: info, KB: kb}, nil
}

// Close closes every bundle.
func (k *Knowledge) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, b := range k.bundles {
		b.KB.Close()
	}
	k.bundles = nil
}

// Searcher is what both the visitor's knowledge base and a bundle offer.
type Searcher interface {
	Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error)
}

// Union searches the visitor's knowledge base (nil: none) and the site's
// bundles together. It implements tool.Retriever, so the rag_knowledge
// tool and the answer's retrieval see one knowledge base.
type Union struct {
	Visitor Searcher
	Site    *Knowledge
}

// Search runs the query in every index and fuses the results (see fuse).
// An empty query is knowledge.ErrEmptyQuery, as for one knowledge base.
func (u Union) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	if opt.K <= 0 {
		opt.K = 5
	}
	var searchers []Searcher
	if u.Visitor != nil {
		searchers = append(searchers, u.Visitor)
	}
	for _, b := range u.Site.Bundles() {
		searchers = append(searchers, b.KB)
	}
	if len(searchers) == 0 {
		if q == "" {
			return nil, knowledge.ErrEmptyQuery
		}
		return nil, nil
	}
	lists := make([][]knowledge.Hit, 0, len(searchers))
	for _, s := range searchers {
		hits, err := s.Search(ctx, q, opt)
		if err != nil {
			return nil, err
		}
		lists = append(lists, hits)
	}
	if len(lists) == 1 {
		return lists[0], nil
	}
	return fuse(lists, func(h knowledge.Hit) string { return h.ChunkID }, opt.K), nil
}

// Retrieve implements tool.Retriever.
func (u Union) Retrieve(ctx context.Context, q string, k int) ([]tool.Passage, error) {
	hits, err := u.Search(ctx, q, knowledge.SearchOptions{K: k})
	if err != nil {
		return nil, err
	}
	return knowledge.Passages(hits), nil
}

// IsSite reports whether a document id belongs to site knowledge.
func (k *Knowledge) IsSite(docID string) bool {
	for _, b := range k.Bundles() {
		if _, ok := b.KB.Document(docID); ok {
			return true
		}
	}
	return false
}
