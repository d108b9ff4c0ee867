//go:build js && wasm

// Package idbtest serves the wasm tests of the packages that keep data in
// IndexedDB (app/idb, app/storage, app/chats).
package idbtest

import (
	"fmt"
	"syscall/js"
	"testing"
	"time"
)

// Need skips the test where the JavaScript runtime has no IndexedDB (Node,
// under make test-wasm). app/idb's TestIndexedDBPackagesInChromium runs
// these tests in Chromium, where a skip fails the run, so none can only skip.
func Need(t *testing.T) {
	t.Helper()
	if v := js.Global().Get("indexedDB"); v.IsUndefined() || v.IsNull() {
		t.Skip("no IndexedDB in this JavaScript runtime; app/idb's TestIndexedDBPackagesInChromium runs this in Chromium")
	}
}

// Name is a database name of the test's own, so tests never share data.
func Name(t *testing.T) string {
	return fmt.Sprintf("tinyrag-test-%s-%d", t.Name(), time.Now().UnixNano())
}
