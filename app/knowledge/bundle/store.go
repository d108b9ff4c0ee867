package bundle

import (
	"context"
	"errors"
	"sort"
	"sync"

	"tinyrag/app/knowledge"
)

// ErrReadOnly is what writing to site knowledge returns.
var ErrReadOnly = errors.New("site knowledge is read-only: it comes with the site and is replaced when the site publishes a new bundle")

// store is the knowledge.Store behind an opened bundle: its records and
// snapshot in memory, documents and chunks read-only. PutIndex is
// accepted (in memory) so that Load may repair a snapshot written by an
// older tinyRAG.
type store struct {
	recs map[string]knowledge.Record
	mu   sync.Mutex
	snap []byte
	// rewrites counts PutIndex calls: Load saves a snapshot only when it
	// had to index text again.
	rewrites int
}

func newStore(recs []knowledge.Record, snap []byte) *store {
	s := &store{recs: make(map[string]knowledge.Record, len(recs)), snap: snap}
	for _, r := range recs {
		s.recs[r.Document.ID] = r
	}
	return s
}

// Put implements knowledge.Store: refused.
func (s *store) Put(context.Context, []knowledge.Record) error { return ErrReadOnly }

// Delete implements knowledge.Store: refused.
func (s *store) Delete(context.Context, ...string) error { return ErrReadOnly }

// Documents implements knowledge.Store.
func (s *store) Documents(context.Context) ([]knowledge.Document, error) {
	out := make([]knowledge.Document, 0, len(s.recs))
	for _, r := range s.recs {
		out = append(out, r.Document)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Chunks implements knowledge.Store.
func (s *store) Chunks(_ context.Context, id string) ([]knowledge.Chunk, error) {
	r, ok := s.recs[id]
	if !ok {
		return nil, &knowledge.NotFoundError{ID: id}
	}
	return r.Chunks, nil
}

// PutIndex implements knowledge.Store.
func (s *store) PutIndex(_ context.Context, snap []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap = snap
	s.rewrites++
	return nil
}

// Index implements knowledge.Store.
func (s *store) Index(context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap, nil
}
