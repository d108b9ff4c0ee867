package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The server prerenders the Shell before the wasm starts: that page must
// already be accessible and usable by keyboard.
func TestShell_PrerenderIsAccessible(t *testing.T) {
	html := app.HTMLString(&Shell{})
	for _, want := range []string{
		`id="chat-input"`, `for="chat-input"`, `role="tablist"`, `role="tab"`, `role="tabpanel"`,
		`aria-label="Send"`, `aria-label="Open menu"`, `id="open-settings"`, `<main`, `<aside`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("prerendered page lacks %s", want)
		}
	}
}

func TestShell_GermanInterface(t *testing.T) {
	s := &Shell{settings: Settings{Lang: "de"}}
	html := app.HTMLString(s)
	for _, want := range []string{"Neuer Chat", "Wissen", "Einstellungen"} {
		if !strings.Contains(html, want) {
			t.Errorf("German page lacks %q", want)
		}
	}
}
