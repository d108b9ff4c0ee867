//go:build js && wasm

package reach

import (
	"context"
	"syscall/js"
)

// probe sends a no-cors GET: the browser does not let the page read the
// answer (it is opaque), but the promise resolves whenever a server
// answered at all, and rejects only when nothing did (or a policy of this
// page forbade the request).
func probe(ctx context.Context, u string) bool {
	done := make(chan bool, 1)
	opts := js.Global().Get("Object").New()
	opts.Set("mode", "no-cors")
	opts.Set("cache", "no-store")
	opts.Set("credentials", "omit")
	var onOK, onErr js.Func
	onOK = js.FuncOf(func(js.Value, []js.Value) any { done <- true; return nil })
	onErr = js.FuncOf(func(js.Value, []js.Value) any { done <- false; return nil })
	defer onOK.Release()
	defer onErr.Release()
	js.Global().Call("fetch", u, opts).Call("then", onOK, onErr)
	select {
	case ok := <-done:
		return ok
	case <-ctx.Done():
		return false
	}
}
