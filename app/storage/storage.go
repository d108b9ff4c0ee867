// Package storage persists the knowledge base: Dir keeps it in files
// (native builds), IndexedDB in the browser's IndexedDB (js/wasm). Both
// implement knowledge.Store.
package storage

import "errors"

// ErrQuota reports that the browser (or disk) refused a write for lack of
// space. Nothing of the refused write is kept and earlier data is intact;
// the UI shows it and suggests deleting sources or exporting.
var ErrQuota = errors.New("storage: quota exceeded — the browser refused to store more; existing knowledge is unchanged")
