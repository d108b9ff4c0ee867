//go:build js && wasm

package knowledge

import (
	"syscall/js"
	"time"
)

// Yield sleeps a millisecond: in Go's js runtime that returns control to
// the browser's event loop (runtime.Gosched does not), so it can paint and
// handle input between two pieces of long work.
func Yield() { time.Sleep(time.Millisecond) }

// idleWait bounds how long Idle waits for the browser to be idle: a page
// that is never idle (or a browser without requestIdleCallback) still
// gets the work done.
const idleWait = 1000 // milliseconds

// Idle returns once the browser is idle (requestIdleCallback: after it
// has painted and handled the input waiting), or after idleWait.
func Idle() {
	done := make(chan struct{})
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		close(done)
		return nil
	})
	if ric := js.Global().Get("requestIdleCallback"); ric.Type() == js.TypeFunction {
		opts := js.Global().Get("Object").New()
		opts.Set("timeout", idleWait)
		ric.Invoke(cb, opts)
	} else {
		js.Global().Call("setTimeout", cb, idleWait)
	}
	<-done
}
