//go:build js && wasm

package knowledge

import "time"

// defaultYield sleeps a millisecond: in Go's js runtime that returns control
// to the browser's event loop (runtime.Gosched does not), so it can paint.
func defaultYield() { time.Sleep(time.Millisecond) }
