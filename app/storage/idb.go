//go:build js && wasm

package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"syscall/js"

	"tinyrag/app/idb"
	"tinyrag/app/knowledge"
)

// IndexedDB is a knowledge.Store in the browser's IndexedDB. Each Put or
// Delete is one readwrite transaction over the documents and chunks object
// stores, and returns only once the transaction has committed, so what was
// reported as imported survives a reload or a crash.
//
// Its methods block the calling goroutine until IndexedDB answers: call them
// from a goroutine, never synchronously inside a js.FuncOf callback (that
// would deadlock Go's js runtime).
type IndexedDB struct {
	db *idb.DB
}

var _ knowledge.Store = (*IndexedDB)(nil)

const (
	idbVersion  = 1
	storeDocs   = "documents"
	storeChunks = "chunks"
	storeMeta   = "meta"
	keyIndex    = "index"
	keyVersion  = "version"
)

// OpenIndexedDB opens (creating or upgrading) the database name.
func OpenIndexedDB(ctx context.Context, name string) (*IndexedDB, error) {
	db, err := idb.Open(ctx, name, idbVersion, storeDocs, storeChunks, storeMeta)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return &IndexedDB{db: db}, nil
}

// Close closes the database connection.
func (s *IndexedDB) Close() { s.db.Close() }

func (s *IndexedDB) do(ctx context.Context, mode idb.Mode, fn func(tx js.Value), stores ...string) error {
	return s.db.Do(ctx, mode, fn, stores...)
}

// Put implements knowledge.Store: all records in one transaction.
func (s *IndexedDB) Put(ctx context.Context, recs []knowledge.Record) error {
	type enc struct{ id, doc, chunks string }
	encoded := make([]enc, len(recs))
	for i, r := range recs {
		doc, err := json.Marshal(r.Document)
		if err != nil {
			return fmt.Errorf("storage: encode %q: %w", r.Document.Source, err)
		}
		chunks, err := json.Marshal(r.Chunks)
		if err != nil {
			return fmt.Errorf("storage: encode chunks of %q: %w", r.Document.Source, err)
		}
		encoded[i] = enc{r.Document.ID, string(doc), string(chunks)}
	}
	err := s.do(ctx, idb.ReadWrite, func(tx js.Value) {
		docs, chunks := tx.Call("objectStore", storeDocs), tx.Call("objectStore", storeChunks)
		for _, e := range encoded {
			chunks.Call("put", e.chunks, e.id)
			docs.Call("put", e.doc, e.id)
		}
		newVersion(tx)
	}, storeDocs, storeChunks, storeMeta)
	if err != nil {
		return fmt.Errorf("storage: store %d documents: %w", len(recs), err)
	}
	return nil
}

// Delete implements knowledge.Store.
func (s *IndexedDB) Delete(ctx context.Context, ids ...string) error {
	err := s.do(ctx, idb.ReadWrite, func(tx js.Value) {
		docs, chunks := tx.Call("objectStore", storeDocs), tx.Call("objectStore", storeChunks)
		for _, id := range ids {
			docs.Call("delete", id)
			chunks.Call("delete", id)
		}
		newVersion(tx)
	}, storeDocs, storeChunks, storeMeta)
	if err != nil {
		return fmt.Errorf("storage: delete %d documents: %w", len(ids), err)
	}
	return nil
}

// newVersion stamps the documents' state in a write transaction: a random
// token, so no read is needed inside the transaction (see Version).
func newVersion(tx js.Value) {
	tx.Call("objectStore", storeMeta).Call("put", strconv.FormatUint(rand.Uint64(), 36), keyVersion)
}

// Version implements knowledge.Versioned: the token the last Put or Delete
// wrote, "" for a database written before versions existed.
func (s *IndexedDB) Version(ctx context.Context) (string, error) {
	var req js.Value
	err := s.do(ctx, idb.ReadOnly, func(tx js.Value) {
		req = tx.Call("objectStore", storeMeta).Call("get", keyVersion)
	}, storeMeta)
	if err != nil {
		return "", fmt.Errorf("storage: read the documents' version: %w", err)
	}
	if v := req.Get("result"); v.Type() == js.TypeString {
		return v.String(), nil
	}
	return "", nil
}

// Documents implements knowledge.Store.
func (s *IndexedDB) Documents(ctx context.Context) ([]knowledge.Document, error) {
	var req js.Value
	err := s.do(ctx, idb.ReadOnly, func(tx js.Value) {
		req = tx.Call("objectStore", storeDocs).Call("getAll")
	}, storeDocs)
	if err != nil {
		return nil, fmt.Errorf("storage: list documents: %w", err)
	}
	// One crossing from JavaScript for all records, not one per record:
	// each js.Value call costs more than decoding a small record.
	all := req.Get("result")
	joined := "[" + all.Call("join", ",").String() + "]"
	var out []knowledge.Document
	if err := json.Unmarshal([]byte(joined), &out); err != nil {
		// Find the damaged one so the message can say which.
		for i := 0; i < all.Length(); i++ {
			var d knowledge.Document
			if err := json.Unmarshal([]byte(all.Index(i).String()), &d); err != nil {
				return nil, fmt.Errorf("storage: stored document %d is damaged: %w", i, err)
			}
		}
		return nil, fmt.Errorf("storage: stored documents are damaged: %w", err)
	}
	return out, nil
}

// Chunks implements knowledge.Store.
func (s *IndexedDB) Chunks(ctx context.Context, id string) ([]knowledge.Chunk, error) {
	var req js.Value
	err := s.do(ctx, idb.ReadOnly, func(tx js.Value) {
		req = tx.Call("objectStore", storeChunks).Call("get", id)
	}, storeChunks)
	if err != nil {
		return nil, fmt.Errorf("storage: read chunks of %s: %w", id, err)
	}
	v := req.Get("result")
	if v.IsUndefined() {
		return nil, &knowledge.NotFoundError{ID: id}
	}
	var cs []knowledge.Chunk
	if err := json.Unmarshal([]byte(v.String()), &cs); err != nil {
		return nil, fmt.Errorf("storage: chunks of %s are damaged: %w", id, err)
	}
	return cs, nil
}

// PutIndex implements knowledge.Store.
func (s *IndexedDB) PutIndex(ctx context.Context, snap []byte) error {
	arr := js.Global().Get("Uint8Array").New(len(snap))
	js.CopyBytesToJS(arr, snap)
	err := s.do(ctx, idb.ReadWrite, func(tx js.Value) {
		tx.Call("objectStore", storeMeta).Call("put", arr, keyIndex)
	}, storeMeta)
	if err != nil {
		return fmt.Errorf("storage: save index (%d bytes): %w", len(snap), err)
	}
	return nil
}

// Index implements knowledge.Store.
func (s *IndexedDB) Index(ctx context.Context) ([]byte, error) {
	var req js.Value
	err := s.do(ctx, idb.ReadOnly, func(tx js.Value) {
		req = tx.Call("objectStore", storeMeta).Call("get", keyIndex)
	}, storeMeta)
	if err != nil {
		return nil, fmt.Errorf("storage: read index: %w", err)
	}
	v := req.Get("result")
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	out := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(out, v)
	return out, nil
}
