//go:build js && wasm

// Command markdown is the Markdown renderer as a program of its own,
// compiled to markdown.wasm and run on the page beside app.wasm by
// app/markdown/mdmodule, which loads it on first use: goldmark and
// bluemonday are about a tenth of what app.wasm would be with them, and
// the app's first screen does not need them (docs/startup.md).
//
// Once running, it calls the page's tinyragMarkdownReady(api) with
//
//	api.render(request) → [html, error]  request: mdmodule.Request.JS();
//	                                     html: markdown.RenderAnswer's
//	api.text(markdown) → [text, error]   markdown.ToText's
//
// Both answer synchronously: app.wasm's call into them runs this program
// until it returns. A panic is answered as the error, not a crash.
package main

import (
	"fmt"
	"syscall/js"

	"tinyrag/app/markdown"
	"tinyrag/app/markdown/mdmodule"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("render", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(args, js.TypeObject, func(v js.Value) string {
			req := mdmodule.RequestFrom(v)
			return markdown.RenderAnswer(req.Text, req.Cards, req.Options)
		})
	}))
	api.Set("text", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(args, js.TypeString, func(v js.Value) string { return markdown.ToText(v.String()) })
	}))
	// Build what rendering needs once (the sanitizer's policy) before
	// the page is told it can render.
	markdown.Warm()
	if ready := js.Global().Get("tinyragMarkdownReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(api)
	}
	select {}
}

// answer runs f on the call's one argument, of type want, and returns
// [result, error] as the page expects it.
func answer(args []js.Value, want js.Type, f func(js.Value) string) (res any) {
	defer func() {
		if r := recover(); r != nil {
			res = []any{"", fmt.Sprintf("markdown.wasm: %v", r)}
		}
	}()
	if len(args) != 1 || args[0].Type() != want {
		return []any{"", "markdown.wasm: want one " + want.String()}
	}
	return []any{f(args[0]), ""}
}
