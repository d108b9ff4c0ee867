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
//
// The page's site-prefetch.js reads the file (window.tinyragPrefetch.body),
// so Go is called back once per file, with the whole of it; Go takes a
// callback only when the page's thread is idle, and a large site's first
// query waits on some fifty files. Without that script (a page that does
// not load it, the tests under Node) the response and then its body come
// in two callbacks. A file the script has read already is taken at once,
// with no callback (window.tinyragPrefetch.now).
func getWhole(ctx context.Context, u string, limit int64) ([]byte, int, error) {
	type result struct {
		status int
		data   []byte
		err    error
	}
	done := make(chan result, 1)
	var onResp, onBody, onWhole, onErr js.Func
	status := 0
	body := func(b js.Value) result {
		buf := js.Global().Get("Uint8Array").New(b)
		n := buf.Get("length").Int()
		if int64(n) > limit {
			return result{status: status, err: fmt.Errorf("GET %s: larger than %d MB", u, limit>>20)}
		}
		data := make([]byte, n)
		js.CopyBytesToGo(data, buf)
		return result{status: status, data: data}
	}
	failed := func() result {
		return result{status: status, err: fmt.Errorf("GET %s: HTTP %d", u, status)}
	}
	whole := func(sb js.Value) result {
		status = sb.Index(0).Int()
		if b := sb.Index(1); status == 200 && b.Truthy() {
			return body(b)
		}
		return failed()
	}
	pf := js.Global().Get("tinyragPrefetch")
	page := pf.Type() == js.TypeObject && pf.Get("body").Type() == js.TypeFunction
	// A file the page has read already is taken now: waiting for the
	// promise costs a turn of the page's thread, which rendering may hold.
	if page && pf.Get("now").Type() == js.TypeFunction {
		if sb := pf.Call("now", u); sb.Truthy() {
			r := whole(sb)
			return r.data, r.status, r.err
		}
	}
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "fetch failed"
		if len(args) > 0 {
			msg = args[0].Get("message").String()
		}
		done <- result{status: status, err: fmt.Errorf("GET %s: %s", u, msg)}
		return nil
	})
	onWhole = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- whole(args[0])
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- body(args[0])
		return nil
	})
	onResp = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resp := args[0]
		status = resp.Get("status").Int()
		if status != 200 {
			done <- failed()
			return nil
		}
		resp.Call("arrayBuffer").Call("then", onBody, onErr)
		return nil
	})
	defer onResp.Release()
	defer onBody.Release()
	defer onWhole.Release()
	defer onErr.Release()
	if page {
		pf.Call("body", u).Call("then", onWhole, onErr)
	} else {
		js.Global().Call("fetch", u).Call("then", onResp, onErr)
	}
	select {
	case r := <-done:
		return r.data, r.status, r.err
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// Start asks the page's site-prefetch.js to begin fetching u for a
// BundleFile soon (window.tinyragPrefetch.start): called from the
// goroutine that needs a round of files, it starts them all in order
// before the goroutines that read them run. Without that script it does
// nothing, and each read starts its own request.
func Start(u string) {
	if pf := js.Global().Get("tinyragPrefetch"); pf.Type() == js.TypeObject && pf.Get("start").Type() == js.TypeFunction {
		pf.Call("start", u)
	}
}
