//go:build !(js && wasm)

package mdmodule

import (
	"tinyrag/app/markdown"
	"tinyrag/app/markdown/answer"
)

// Module is the Markdown renderer. Outside the browser it is linked in
// and always Ready; the browser's loads markdown.wasm (module_js.go).
type Module struct {
	// URL is unused here; the browser's module fetches markdown.wasm
	// from it.
	URL string
}

// Page is the renderer the UI uses.
var Page = &Module{}

// OnChange is a no-op: the linked-in renderer never changes state.
func (m *Module) OnChange(func(State)) {}

// State is always Ready.
func (m *Module) State() (State, error) { return Ready, nil }

// Load does nothing: the renderer is linked in.
func (m *Module) Load() {}

// RenderAnswer returns markdown.RenderAnswer's HTML.
func (m *Module) RenderAnswer(text string, cards []answer.Card, opts answer.Options) string {
	return markdown.RenderAnswer(text, cards, opts)
}

// ToText returns markdown.ToText's text.
func (m *Module) ToText(src string) string { return markdown.ToText(src) }
