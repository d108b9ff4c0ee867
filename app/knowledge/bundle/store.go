package bundle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	docs map[string]recordsDoc
	blob []byte // the chunks, decoded on demand
	mu   sync.Mutex
	snap []byte
	// rewrites counts PutIndex calls: Load saves a snapshot only when it
	// had to index text again.
	rewrites int
}

func newStore(docs []recordsDoc, blob, snap []byte) *store {
	s := &store{docs: make(map[string]recordsDoc, len(docs)), blob: blob, snap: snap}
	for _, d := range docs {
		s.docs[d.Document.ID] = d
	}
	return s
}

// Put implements knowledge.Store: refused.
func (s *store) Put(context.Context, []knowledge.Record) error { return ErrReadOnly }

// Delete implements knowledge.Store: refused.
func (s *store) Delete(context.Context, ...string) error { return ErrReadOnly }

// Documents implements knowledge.Store.
func (s *store) Documents(context.Context) ([]knowledge.Document, error) {
	out := make([]knowledge.Document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d.Document)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Chunks implements knowledge.Store.
// The knowledge base keeps what it read, so each document is decoded once.
func (s *store) Chunks(_ context.Context, id string) ([]knowledge.Chunk, error) {
	d, ok := s.docs[id]
	if !ok {
		return nil, &knowledge.NotFoundError{ID: id}
	}
	var cs []knowledge.Chunk
	if err := json.Unmarshal(s.blob[d.Off:d.Off+d.Len], &cs); err != nil {
		return nil, fmt.Errorf("%w: chunks of %s: %v", ErrDamaged, d.Document.Source, err)
	}
	if len(cs) != d.Document.Chunks {
		return nil, fmt.Errorf("%w: %s has %d chunks, its entry says %d", ErrDamaged, d.Document.Source, len(cs), d.Document.Chunks)
	}
	return cs, nil
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
