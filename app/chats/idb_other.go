//go:build !(js && wasm)

package chats

import (
	"context"
	"fmt"

	"tinyrag/app/idb"
)

// IDBStore is the browser's IndexedDB chat store; outside the browser it
// cannot be opened.
type IDBStore struct{ MemStore }

// OpenIDB fails outside the browser: there is no IndexedDB. Callers fall
// back to a MemStore.
func OpenIDB(ctx context.Context) (*IDBStore, error) {
	return nil, fmt.Errorf("chats: %w; chats will not survive a reload", idb.ErrUnavailable)
}

// OpenIDBNamed fails outside the browser, as OpenIDB does.
func OpenIDBNamed(ctx context.Context, name string) (*IDBStore, error) { return OpenIDB(ctx) }

// Close is a no-op: nothing was opened.
func (s *IDBStore) Close() {}
