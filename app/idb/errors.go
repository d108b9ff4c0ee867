// Package idb is tinyRAG's one binding to the browser's IndexedDB, shared
// by the knowledge store (app/storage) and the chat history (app/chats):
// opening with upgrades, transactions that report only once they have
// committed, and IndexedDB's failures turned into Go errors that say what
// happened (a full quota, another tab blocking an upgrade).
//
// The binding itself exists only in js/wasm builds; the errors below exist
// everywhere so callers can test for them in portable code.
package idb

import "errors"

// ErrQuota reports that the browser refused a write for lack of space.
// Nothing of the refused transaction is kept and earlier data is intact.
var ErrQuota = errors.New("storage quota exceeded: the browser refused to store more; what was stored before is unchanged")

// ErrBlocked reports that a database could not be opened because another
// tab of this site holds an older version of it open.
var ErrBlocked = errors.New("blocked by another tab of this site holding an older version open; close that tab and reload")

// ErrUnavailable reports a browser without IndexedDB (some private modes,
// or a JavaScript runtime without it).
var ErrUnavailable = errors.New("this browser offers no IndexedDB (private mode?)")
