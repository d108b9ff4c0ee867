package ui

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
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
	html := app.HTMLString(&App{settings: control.Settings{Lang: "de"}})
	for _, want := range []string{"Neuer Chat", "Wissen", "Einstellungen", "Passagen"} {
		if !strings.Contains(html, want) {
			t.Errorf("German page lacks %q", want)
		}
	}
}

// The embedded view is a composition of the same components around a
// controller of its own: one conversation, its composer and citations, no
// sidebar, settings or model set-up steps (a visitor cannot act on them).
func TestEmbedView_IsACompositionOfTheSameComponents(t *testing.T) {
	html := app.HTMLString(&EmbedView{Opts: EmbedOptions{Greeting: "Hi! Ask about the orchard."}})
	for _, want := range []string{`id="messages"`, `id="chat-input"`, `id="privacy-hint"`, `class="citation-slot"`, "Hi! Ask about the orchard."} {
		if !strings.Contains(html, want) {
			t.Errorf("embedded view lacks %s", want)
		}
	}
	for _, unwanted := range []string{`<aside`, `id="open-settings"`, `id="llm-banner"`, `id="chat-search"`, `class="suggestions"`} {
		if strings.Contains(html, unwanted) {
			t.Errorf("embedded view has %s", unwanted)
		}
	}
}

func TestParseEmbedOptions_TakesOnlyWhatItKnows(t *testing.T) {
	long := strings.Repeat("a", maxGreetingRunes+10)
	tests := []struct {
		name  string
		query string
		want  EmbedOptions
	}{
		{"nothing", "", EmbedOptions{}},
		{"all", "greeting=Hi+there&theme=dark&lang=de&bundles=docs.tinyrag,+faq.tinyrag", EmbedOptions{Greeting: "Hi there", Theme: "dark", Lang: "de", Bundles: []string{"docs.tinyrag", "faq.tinyrag"}}},
		{"unknown theme and language are ignored", "theme=url(evil)&lang=xx", EmbedOptions{}},
		{"a long greeting is cut", "greeting=" + long, EmbedOptions{Greeting: long[:maxGreetingRunes] + "…"}},
		{"starters and a question", "starters=" + url.QueryEscape(`["How do I prune?"," ","Where are pears kept?"]`) + "&q=+When+to+prune%3F+",
			EmbedOptions{Starters: []string{"How do I prune?", "Where are pears kept?"}, Question: "When to prune?"}},
		{"starters that are no JSON array are ignored", "starters=a|b", EmbedOptions{}},
		{"a question over the protocol's bound is ignored", "q=" + strings.Repeat("x", 4097), EmbedOptions{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			if got := ParseEmbedOptions(q); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseEmbedOptions(%q) = %+v, want %+v", tc.query, got, tc.want)
			}
		})
	}
}

func TestChatHash_RoundTrips(t *testing.T) {
	for _, id := range []string{"20240101-abc", "a b&c=d", ""} {
		if got := hashChat(chatHash(id)); got != id {
			t.Errorf("hashChat(chatHash(%q)) = %q", id, got)
		}
	}
	for hash, want := range map[string]string{"": "", "#": "", "#top": "", "#chat=x1": "x1", "chat=x2": "x2", "#chat=%zz": ""} {
		if got := hashChat(hash); got != want {
			t.Errorf("hashChat(%q) = %q, want %q", hash, got, want)
		}
	}
}
