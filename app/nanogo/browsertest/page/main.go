//go:build js && wasm

// Command page is the test page for the nanoGo browser test: it exposes the
// nanogo tool, backed by a real WorkerRunner, to JavaScript as
// nanogoRun(source) → Promise<{content, error, timeout}>. The run time
// limit comes from the page URL (?timeout=4s).
package main

import (
	"context"
	"errors"
	"syscall/js"
	"time"

	"tinyrag/app/nanogo"
)

func main() {
	timeout := nanogo.DefaultTimeout
	q := js.Global().Get("URLSearchParams").New(js.Global().Get("location").Get("search"))
	if v := q.Call("get", "timeout"); v.Type() == js.TypeString {
		if d, err := time.ParseDuration(v.String()); err == nil {
			timeout = d
		}
	}
	tl := nanogo.Tool(&nanogo.WorkerRunner{Script: "/web/go-worker.js?wasm=nanogo.wasm", Timeout: timeout})
	js.Global().Set("nanogoRun", js.FuncOf(func(this js.Value, args []js.Value) any {
		src := args[0].String()
		return js.Global().Get("Promise").New(js.FuncOf(func(this js.Value, pa []js.Value) any {
			resolve := pa[0]
			go func() {
				res, err := tl.Run(context.Background(), src)
				out := js.Global().Get("Object").New()
				out.Set("content", res.Content)
				out.Set("error", "")
				if err != nil {
					out.Set("error", err.Error())
				}
				out.Set("timeout", errors.Is(err, nanogo.ErrTimeout))
				resolve.Invoke(out)
			}()
			return nil
		}))
	}))
	js.Global().Set("pageReady", true)
	select {}
}
