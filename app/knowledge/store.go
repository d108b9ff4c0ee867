package knowledge

import (
	"context"
	"sort"
	"strconv"
	"sync"
)

// Record is a document together with its chunks: the unit a Store writes.
type Record struct {
	Document Document `json:"document"`
	Chunks   []Chunk  `json:"chunks"`
}

// Store persists a knowledge base. Writes are transactional: after Put or
// Delete returns nil, a reload sees all of the change, and after an error it
// sees none of it. Implementations: MemStore here, storage.Dir (files) and
// storage.IndexedDB (browser) in package app/storage.
type Store interface {
	// Put writes documents with their chunks in one transaction.
	Put(ctx context.Context, recs []Record) error
	// Delete removes documents and their chunks in one transaction;
	// unknown ids are ignored.
	Delete(ctx context.Context, docIDs ...string) error
	// Documents lists the stored documents (without chunks).
	Documents(ctx context.Context) ([]Document, error)
	// Chunks returns the chunks of one document in order.
	Chunks(ctx context.Context, docID string) ([]Chunk, error)
	// PutIndex replaces the saved index snapshot.
	PutIndex(ctx context.Context, snapshot []byte) error
	// Index returns the saved index snapshot, or nil if there is none.
	Index(ctx context.Context) ([]byte, error)
}

// Versioned is a Store that gives every Put and Delete a new version,
// written in the same transaction. A snapshot saved at version v lists
// exactly the documents stored at v, so Load can take the document list
// from the snapshot instead of reading every document record — in the
// browser that was most of a reload.
type Versioned interface {
	Store
	// Version identifies the stored documents' state: it changes with every
	// Put and Delete, and only then. "" means not known yet.
	Version(ctx context.Context) (string, error)
}

// MemStore is a Store in memory, for tests and for throwaway knowledge bases.
// It copies what it is given, so callers cannot change stored data behind
// its back.
type MemStore struct {
	mu      sync.Mutex
	docs    map[string]Record
	index   []byte
	hook    func(op string) error
	version int
}

// Version implements Versioned: a count of the writes.
func (s *MemStore) Version(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strconv.Itoa(s.version), nil
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{docs: map[string]Record{}} }

// FailWith makes every later write fail with the error fn returns for its
// operation ("put", "delete", "index"), or succeed when fn returns nil. It
// lets tests play a full disk or a crash between two writes.
func (s *MemStore) FailWith(fn func(op string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = fn
}

func (s *MemStore) check(op string) error {
	if s.hook != nil {
		return s.hook(op)
	}
	return nil
}

// Put implements Store.
func (s *MemStore) Put(ctx context.Context, recs []Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check("put"); err != nil {
		return err
	}
	for _, r := range recs {
		s.docs[r.Document.ID] = Record{Document: r.Document, Chunks: append([]Chunk(nil), r.Chunks...)}
	}
	s.version++
	return nil
}

// Delete implements Store.
func (s *MemStore) Delete(ctx context.Context, ids ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check("delete"); err != nil {
		return err
	}
	for _, id := range ids {
		delete(s.docs, id)
	}
	s.version++
	return nil
}

// Documents implements Store.
func (s *MemStore) Documents(ctx context.Context) ([]Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Document, 0, len(s.docs))
	for _, r := range s.docs {
		out = append(out, r.Document)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Chunks implements Store.
func (s *MemStore) Chunks(ctx context.Context, id string) ([]Chunk, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.docs[id]
	if !ok {
		return nil, &NotFoundError{ID: id}
	}
	return append([]Chunk(nil), r.Chunks...), nil
}

// PutIndex implements Store.
func (s *MemStore) PutIndex(ctx context.Context, snap []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check("index"); err != nil {
		return err
	}
	s.index = append([]byte(nil), snap...)
	return nil
}

// Index implements Store.
func (s *MemStore) Index(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil {
		return nil, nil
	}
	return append([]byte(nil), s.index...), nil
}

// NotFoundError reports a document id that is not in the knowledge base or
// store.
type NotFoundError struct{ ID string }

// Error implements error.
func (e *NotFoundError) Error() string { return "knowledge: no document with id " + e.ID }
