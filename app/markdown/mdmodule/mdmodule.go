// Package mdmodule renders answers through markdown.wasm (wasm/markdown),
// a second Go program on the page that holds the Markdown renderer
// (app/markdown: goldmark and bluemonday). app.wasm does not carry the
// renderer: it is about a tenth of app.wasm's bytes, and the first screen
// never needs it (docs/startup.md). The module is fetched on first use —
// the first keystroke in the composer, or the first answer shown — and
// until it is there, or if it cannot be loaded, an answer is shown as its
// plain text, escaped, so nothing is lost and nothing from the model runs.
//
// In the browser the module's calls are synchronous: a JavaScript call
// from app.wasm into markdown.wasm's exported function runs that program
// until it returns, so the UI renders as it did with the renderer inside.
// Outside the browser (tests, the server's prerendering) the renderer is
// called directly.
package mdmodule

import (
	"strings"

	"tinyrag/app/markdown/answer"
)

// State is how far the module has come.
type State int

// The module's states.
const (
	// Idle: nothing asked for the module yet.
	Idle State = iota
	// Loading: markdown.wasm is being fetched and started.
	Loading
	// Ready: answers are rendered as Markdown.
	Ready
	// Failed: the module could not be loaded or stopped (Module.Err says
	// why); answers are shown as plain text. A later use tries again once
	// retryAfter has passed.
	Failed
)

// String names the state, for logs and tests.
func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Loading:
		return "loading"
	case Ready:
		return "ready"
	case Failed:
		return "failed"
	}
	return "unknown"
}

// Request is one render call's input, from app.wasm to markdown.wasm:
// markdown.RenderAnswer's arguments. It crosses as a JavaScript object
// (request_js.go), so that markdown.wasm needs no JSON decoder.
type Request struct {
	Text    string
	Cards   []answer.Card
	Options answer.Options
}

// Plain is the HTML an answer gets while the renderer is not there: its
// text without the tool blocks, escaped, in the renderer's root element.
// The style sheet keeps its line breaks (div.md.plain).
func Plain(text string, cards []answer.Card) string {
	var b strings.Builder
	b.WriteString(`<div class="md plain">`)
	b.WriteString(escaper.Replace(strings.TrimSpace(answer.StripToolBlocks(text, cards))))
	b.WriteString(`</div>`)
	return b.String()
}

var escaper = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;", `'`, "&#39;")
