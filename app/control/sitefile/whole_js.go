//go:build js && wasm

package sitefile

import (
	"context"
	"fmt"
	"syscall/js"
)

// getWhole is get without a client: it reads a whole response as one
// ArrayBuffer and copies it into Go once. Go's fetch transport streams a
// body in small pieces through the JS boundary, which for a bundle of many
// megabytes cost more than the download itself.
func getWhole(ctx context.Context, u string, limit int64) ([]byte, int, error) {
	type result struct {
		status int
		data   []byte
		err    error
	}
	done := make(chan result, 1)
	var onResp, onBody, onErr js.Func
	status := 0
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "fetch failed"
		if len(args) > 0 {
			msg = args[0].Get("message").String()
		}
		done <- result{status: status, err: fmt.Errorf("GET %s: %s", u, msg)}
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
		buf := js.Global().Get("Uint8Array").New(args[0])
		n := buf.Get("length").Int()
		if int64(n) > limit {
			done <- result{status: status, err: fmt.Errorf("GET %s: larger than %d MB", u, limit>>20)}
			return nil
		}
		b := make([]byte, n)
		js.CopyBytesToGo(b, buf)
		done <- result{status: status, data: b}
		return nil
	})
	onResp = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resp := args[0]
		status = resp.Get("status").Int()
		if !resp.Get("ok").Bool() {
			done <- result{status: status, err: fmt.Errorf("GET %s: HTTP %d", u, status)}
			return nil
		}
		resp.Call("arrayBuffer").Call("then", onBody, onErr)
		return nil
	})
	defer onResp.Release()
	defer onBody.Release()
	defer onErr.Release()
	request(u).Call("then", onResp, onErr)
	select {
	case r := <-done:
		return r.data, r.status, r.err
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// request returns a promise of the response for u: the one the page's
// site-prefetch.js started while app.wasm loaded, if it asked for u, or a
// new fetch.
func request(u string) js.Value {
	if pf := js.Global().Get("tinyragPrefetch"); pf.Type() == js.TypeObject {
		if p := pf.Call("take", u); p.Type() == js.TypeObject {
			return p
		}
	}
	return js.Global().Call("fetch", u)
}
