//go:build js && wasm

package chats

import (
	"context"
	"fmt"
	"syscall/js"

	"tinyrag/app/idb"
)

// IDBStore keeps chats in the browser's IndexedDB, one record per chat in
// the object store "chats" of database "tinyrag-chats". Put and Delete
// return once their transaction has committed.
type IDBStore struct {
	db *idb.DB
}

const (
	idbName    = "tinyrag-chats"
	idbVersion = 1
	idbStore   = "chats"
)

// OpenIDB opens (creating on first use) the chat database. It must not be
// called from the browser's event loop goroutine: it waits for callbacks.
func OpenIDB(ctx context.Context) (*IDBStore, error) { return openIDB(ctx, idbName) }

// OpenIDBNamed opens the chat database called name instead: a view that
// must keep its chats apart from the full app's (the embedded one) has
// its own.
func OpenIDBNamed(ctx context.Context, name string) (*IDBStore, error) { return openIDB(ctx, name) }

func openIDB(ctx context.Context, name string) (*IDBStore, error) {
	db, err := idb.Open(ctx, name, idbVersion, idbStore)
	if err != nil {
		return nil, fmt.Errorf("chats: %w; chats will not survive a reload", err)
	}
	return &IDBStore{db: db}, nil
}

// Close closes the database connection.
func (s *IDBStore) Close() { s.db.Close() }

// All implements Store.
func (s *IDBStore) All(ctx context.Context) ([]*Chat, error) {
	var req js.Value
	err := s.db.Do(ctx, idb.ReadOnly, func(tx js.Value) {
		req = tx.Call("objectStore", idbStore).Call("getAll")
	}, idbStore)
	if err != nil {
		return nil, fmt.Errorf("chats: reading IndexedDB: %w", err)
	}
	v := req.Get("result")
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
	err = s.db.Do(ctx, idb.ReadWrite, func(tx js.Value) {
		tx.Call("objectStore", idbStore).Call("put", string(b), c.ID)
	}, idbStore)
	if err != nil {
		return fmt.Errorf("chats: writing chat to IndexedDB: %w", err)
	}
	return nil
}

// Delete implements Store.
func (s *IDBStore) Delete(ctx context.Context, id string) error {
	err := s.db.Do(ctx, idb.ReadWrite, func(tx js.Value) {
		tx.Call("objectStore", idbStore).Call("delete", id)
	}, idbStore)
	if err != nil {
		return fmt.Errorf("chats: deleting chat from IndexedDB: %w", err)
	}
	return nil
}
