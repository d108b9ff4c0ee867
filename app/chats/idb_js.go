//go:build js && wasm

package chats

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
)

// IDBStore keeps chats in the browser's IndexedDB, one record per chat in
// the object store "chats" of database "tinyrag-chats".
type IDBStore struct {
	db js.Value
}

const (
	idbName  = "tinyrag-chats"
	idbStore = "chats"
)

// OpenIDB opens (creating on first use) the chat database. It must not be
// called from the browser's event loop goroutine: it waits for callbacks.
func OpenIDB(ctx context.Context) (*IDBStore, error) {
	idb := js.Global().Get("indexedDB")
	if idb.IsUndefined() || idb.IsNull() {
		return nil, errors.New("chats: this browser has no IndexedDB (private mode?); chats will not survive a reload")
	}
	req := idb.Call("open", idbName, 1)
	upgrade := js.FuncOf(func(this js.Value, args []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", idbStore).Bool() {
			db.Call("createObjectStore", idbStore)
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	v, err := await(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("chats: opening IndexedDB %s: %w", idbName, err)
	}
	return &IDBStore{db: v}, nil
}

// await waits for an IDBRequest (or transaction) to succeed or fail.
func await(ctx context.Context, req js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(this js.Value, args []js.Value) any {
		ch <- result{v: req.Get("result")}
		return nil
	})
	fail := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "unknown error"
		if e := req.Get("error"); !e.IsNull() && !e.IsUndefined() {
			msg = e.Get("name").String() + ": " + e.Get("message").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	req.Set("onsuccess", ok)
	req.Set("onerror", fail)
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

func (s *IDBStore) objects(mode string) js.Value {
	return s.db.Call("transaction", idbStore, mode).Call("objectStore", idbStore)
}

// All implements Store.
func (s *IDBStore) All(ctx context.Context) ([]*Chat, error) {
	v, err := await(ctx, s.objects("readonly").Call("getAll"))
	if err != nil {
		return nil, fmt.Errorf("chats: reading IndexedDB: %w", err)
	}
	n := v.Length()
	out := make([]*Chat, 0, n)
	for i := 0; i < n; i++ {
		c, err := Decode([]byte(v.Index(i).String()))
		if err != nil {
			// One damaged record must not hide all other chats.
			js.Global().Get("console").Call("warn", "tinyRAG: skipping a damaged stored chat:", err.Error())
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// Put implements Store.
func (s *IDBStore) Put(ctx context.Context, c *Chat) error {
	if c.ID == "" {
		return ErrNoID
	}
	b, err := Encode(c)
	if err != nil {
		return err
	}
	if _, err := await(ctx, s.objects("readwrite").Call("put", string(b), c.ID)); err != nil {
		return fmt.Errorf("chats: writing chat to IndexedDB: %w", err)
	}
	return nil
}

// Delete implements Store.
func (s *IDBStore) Delete(ctx context.Context, id string) error {
	if _, err := await(ctx, s.objects("readwrite").Call("delete", id)); err != nil {
		return fmt.Errorf("chats: deleting chat from IndexedDB: %w", err)
	}
	return nil
}
