//go:build js && wasm

package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"syscall/js"

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
	db js.Value
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
	factory := js.Global().Get("indexedDB")
	if factory.IsUndefined() || factory.IsNull() {
		return nil, errors.New("storage: this browser has no IndexedDB (private mode?); knowledge will not persist")
	}
	req := factory.Call("open", name, idbVersion)
	upgrade := js.FuncOf(func(this js.Value, args []js.Value) any {
		db := req.Get("result")
		names := db.Get("objectStoreNames")
		for _, s := range []string{storeDocs, storeChunks, storeMeta} {
			if !names.Call("contains", s).Bool() {
				db.Call("createObjectStore", s)
			}
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	v, err := await(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("storage: open IndexedDB %q: %w", name, err)
	}
	return &IndexedDB{db: v}, nil
}

// Close closes the database connection.
func (s *IndexedDB) Close() { s.db.Call("close") }

// domError converts an IndexedDB error (a DOMException) to a Go error;
// QuotaExceededError becomes ErrQuota.
func domError(v js.Value) error {
	if v.IsUndefined() || v.IsNull() {
		return errors.New("unknown IndexedDB error")
	}
	name, msg := v.Get("name").String(), v.Get("message").String()
	if name == "QuotaExceededError" {
		return fmt.Errorf("%w (%s)", ErrQuota, msg)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// wait blocks until an event handler reports on ch; it runs cancel if ctx
// ends first.
func wait(ctx context.Context, ch <-chan error, cancel func()) error {
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		if cancel != nil {
			cancel()
		}
		return ctx.Err()
	}
}

// listen sets event handlers on target that report into ch; release frees
// them.
func listen(target js.Value, ch chan error, handlers map[string]func() error) (release func()) {
	var funcs []js.Func
	for event, fn := range handlers {
		fn := fn
		f := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case ch <- fn():
			default:
			}
			return nil
		})
		funcs = append(funcs, f)
		target.Set(event, f)
	}
	return func() {
		for _, f := range funcs {
			f.Release()
		}
	}
}

// await waits for a request outside a transaction (opening the database).
func await(ctx context.Context, req js.Value) (js.Value, error) {
	ch := make(chan error, 1)
	release := listen(req, ch, map[string]func() error{
		"onsuccess": func() error { return nil },
		"onerror":   func() error { return domError(req.Get("error")) },
		"onblocked": func() error {
			return errors.New("blocked by another tab holding an older version open; close it and reload")
		},
	})
	defer release()
	if err := wait(ctx, ch, nil); err != nil {
		return js.Undefined(), err
	}
	return req.Get("result"), nil
}

// awaitTx waits until tx commits. A request that fails aborts its
// transaction, so the abort event carries every failure, quota included.
func awaitTx(ctx context.Context, tx js.Value) error {
	ch := make(chan error, 1)
	release := listen(tx, ch, map[string]func() error{
		"oncomplete": func() error { return nil },
		"onabort":    func() error { return domError(tx.Get("error")) },
	})
	defer release()
	return wait(ctx, ch, func() {
		defer func() { recover() }() // abort throws once the transaction finished
		tx.Call("abort")
	})
}

// transaction starts a transaction, turning a synchronous exception (a
// closed connection, a missing store) into an error.
func (s *IndexedDB) transaction(mode string, stores ...string) (tx js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("storage: start IndexedDB transaction: %v", r)
		}
	}()
	names := make([]any, len(stores))
	for i, n := range stores {
		names[i] = n
	}
	return s.db.Call("transaction", js.ValueOf(names), mode), nil
}

// do runs fn inside a transaction and waits for the commit; a JavaScript
// exception thrown by fn (DataCloneError, …) aborts the transaction.
func (s *IndexedDB) do(ctx context.Context, mode string, fn func(tx js.Value), stores ...string) (err error) {
	tx, err := s.transaction(mode, stores...)
	if err != nil {
		return err
	}
	thrown := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
				func() {
					defer func() { recover() }()
					tx.Call("abort")
				}()
			}
		}()
		fn(tx)
		return nil
	}()
	if thrown != nil {
		return thrown
	}
	return awaitTx(ctx, tx)
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
	err := s.do(ctx, "readwrite", func(tx js.Value) {
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
	err := s.do(ctx, "readwrite", func(tx js.Value) {
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
	err := s.do(ctx, "readonly", func(tx js.Value) {
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
	err := s.do(ctx, "readonly", func(tx js.Value) {
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
	err := s.do(ctx, "readonly", func(tx js.Value) {
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
	err := s.do(ctx, "readwrite", func(tx js.Value) {
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
	err := s.do(ctx, "readonly", func(tx js.Value) {
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
