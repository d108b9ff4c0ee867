//go:build !(js && wasm)

package chats

import (
	"context"
	"errors"
)

// IDBStore is the browser's IndexedDB chat store; outside the browser it
// cannot be opened.
type IDBStore struct{ MemStore }

// OpenIDB fails outside the browser: there is no IndexedDB. Callers fall
// back to a MemStore.
func OpenIDB(ctx context.Context) (*IDBStore, error) {
	return nil, errors.New("chats: IndexedDB exists only in the browser")
}
