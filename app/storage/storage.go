// Package storage persists the knowledge base: Dir keeps it in files
// (native builds), IndexedDB in the browser's IndexedDB (js/wasm). Both
// implement knowledge.Store.
package storage

import "tinyrag/app/idb"

// ErrQuota reports that the browser (or disk) refused a write for lack of
// space. Nothing of the refused write is kept and earlier data is intact;
// the UI shows it and suggests deleting sources or exporting. It is the
// IndexedDB binding's error, so one errors.Is test covers chats as well.
var ErrQuota = idb.ErrQuota
