package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The server prerenders the app before the wasm starts: that page must
// already be accessible and usable by keyboard.
func TestApp_PrerenderIsAccessible(t *testing.T) {
	html := app.HTMLString(&App{})
	for _, want := range []string{
		`id="shell"`, `data-ready="false"`, `data-llm="unknown"`,
		`id="chat-input"`, `for="chat-input"`, `role="tablist"`, `role="tab"`, `role="tabpanel"`,
		`aria-label="Send"`, `aria-label="Open menu"`, `id="open-settings"`, `<main`, `<aside`, `id="privacy-hint"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("prerendered page lacks %s", want)
		}
	}
	// Any readonly attribute, "false" too, would stop typing before the
	// wasm runs.
	if strings.Contains(html, "readonly") {
		t.Error("the prerendered composer is read-only: nothing could be typed while the app starts")
	}
}

func TestApp_GermanInterface(t *testing.T) {
	html := app.HTMLString(&App{settings: Settings{Lang: "de"}})
	for _, want := range []string{"Neuer Chat", "Wissen", "Einstellungen", "Passagen"} {
		if !strings.Contains(html, want) {
			t.Errorf("German page lacks %q", want)
		}
	}
}

// compactView is what the embedded view will be: one conversation, its
// composer and citations, no sidebar or settings — a composition of the
// same components around the same controller, and nothing else.
type compactView struct {
	app.Compo
	Ctrl *Controller

	settings Settings
}

func (c *compactView) OnMount(ctx app.Context) {
	if !app.IsServer && c.Ctrl != nil {
		startRoot(ctx, c.Ctrl, &c.settings)
	}
}

func (c *compactView) Render() app.UI {
	l := c.settings.Lang
	return app.Div().Class("shell compact").ID("shell").Body(
		app.Main().Class("main").Aria("label", T(l, "conversation")).Body(
			&ThreadView{Ctrl: c.Ctrl, Lang: l, AllowRun: c.Ctrl.CanRunGo(c.settings)},
			&Composer{Ctrl: c.Ctrl, Lang: l},
		),
		&CitationDialog{Lang: l},
	)
}

func TestCompactView_IsACompositionOfTheSameComponents(t *testing.T) {
	html := app.HTMLString(&compactView{})
	for _, want := range []string{`id="messages"`, `id="chat-input"`, `id="privacy-hint"`, `class="citation-slot"`} {
		if !strings.Contains(html, want) {
			t.Errorf("compact view lacks %s", want)
		}
	}
	for _, unwanted := range []string{`<aside`, `id="open-settings"`, `id="llm-banner"`} {
		if strings.Contains(html, unwanted) {
			t.Errorf("compact view has %s", unwanted)
		}
	}
}
