//go:build !js

package idb_test

import (
	"testing"
	"time"

	"tinyrag/app/internal/wasmtest"
)

// TestIndexedDBPackagesInChromium runs the wasm tests of every package that
// stores data in IndexedDB in a real Chromium, where they cannot skip: Node
// has no IndexedDB.
func TestIndexedDBPackagesInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wasm test binaries and starts Chromium")
	}
	for _, tc := range []wasmtest.Tests{
		{Pkg: "./app/idb"},
		// The file store's tests need a file system, which the browser
		// has not; they run natively and in Node.
		{Pkg: "./app/storage", Run: "^TestIndexedDB"},
		{Pkg: "./app/storage", Run: "^TestQuotaIDB", QuotaBytes: 4 << 20},
		{Pkg: "./app/chats", Run: "IDB"},
	} {
		tc.Timeout = 3 * time.Minute
		t.Run(tc.Pkg+" "+tc.Run, func(t *testing.T) { wasmtest.RunTests(t, tc) })
	}
}
