//go:build js && wasm

package knowledge

import "time"

// Yield sleeps a millisecond: in Go's js runtime that returns control to
// the browser's event loop (runtime.Gosched does not), so it can paint and
// handle input between two pieces of long work.
func Yield() { time.Sleep(time.Millisecond) }
