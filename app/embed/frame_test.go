package embed

import (
	"errors"
	"strings"
	"testing"
)

func TestFrame_EmbedderIsTheAllowedParentOrNobody(t *testing.T) {
	const self = "https://rag.example.org"
	p := Policy{Origins: []string{"https://docs.example.org", "http://127.0.0.1:9000"}}
	for _, tc := range []struct {
		name  string
		frame Frame
		want  string // the embedder; "-" refused
		why   string // part of the refusal
	}{
		{"a page of its own", Frame{Self: self, Top: true}, "", ""},
		{"an allowed parent", Frame{Self: self, HasAncestors: true, Ancestors: []string{"https://docs.example.org"}}, "https://docs.example.org", ""},
		{"the app's own origin", Frame{Self: self, HasAncestors: true, Ancestors: []string{self}}, self, ""},
		{"allowed all the way up", Frame{Self: self, HasAncestors: true, Ancestors: []string{"http://127.0.0.1:9000", "https://docs.example.org"}}, "http://127.0.0.1:9000", ""},
		{"a foreign parent", Frame{Self: self, HasAncestors: true, Ancestors: []string{"https://evil.example"}}, "-", "https://evil.example"},
		{"an allowed parent inside a foreign page", Frame{Self: self, HasAncestors: true, Ancestors: []string{"https://docs.example.org", "https://evil.example"}}, "-", "https://evil.example"},
		{"another port", Frame{Self: self, HasAncestors: true, Ancestors: []string{"http://127.0.0.1:9001"}}, "-", "127.0.0.1:9001"},
		{"a sandboxed parent", Frame{Self: self, HasAncestors: true, Ancestors: []string{"null"}}, "-", "opaque"},
		{"ancestors known but empty", Frame{Self: self, HasAncestors: true}, "-", "no page"},
		{"the referrer of an allowed parent", Frame{Self: self, Referrer: "https://docs.example.org/guide/install?x=1"}, "https://docs.example.org", ""},
		{"the referrer cut to its origin", Frame{Self: self, Referrer: "http://127.0.0.1:9000/"}, "http://127.0.0.1:9000", ""},
		{"the referrer of a foreign parent", Frame{Self: self, Referrer: "https://evil.example/"}, "-", "https://evil.example"},
		{"no referrer and no ancestors", Frame{Self: self}, "-", "no referrer"},
	} {
		got, err := tc.frame.Embedder(p)
		switch {
		case tc.want == "-" && err == nil:
			t.Errorf("%s: allowed as %q, want refused", tc.name, got)
		case tc.want == "-" && (!errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), tc.why)):
			t.Errorf("%s: err %v, want ErrNotAllowed saying %q", tc.name, err, tc.why)
		case tc.want != "-" && (err != nil || got != tc.want):
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestFrame_NoOriginsAllowsOnlyTheAppItself(t *testing.T) {
	const self = "http://127.0.0.1:8080"
	if _, err := (Frame{Self: self, HasAncestors: true, Ancestors: []string{"http://127.0.0.1:9000"}}).Embedder(Policy{}); err == nil {
		t.Error("with no embedding origins configured, a foreign page may embed the app")
	}
	if got, err := (Frame{Self: self, HasAncestors: true, Ancestors: []string{self}}).Embedder(Policy{}); err != nil || got != self {
		t.Errorf("the app framed by itself: %q, %v", got, err)
	}
}

func TestStoragePrefix_KeepsEmbedsApartFromTheAppAndEachOther(t *testing.T) {
	hosts := []string{"", "https://docs.example.org", "https://docs.example.org:8443", "http://docs.example.org", "https://docs.example.org.evil"}
	appNames := []string{"tinyrag-chats", "tinyrag-knowledge", "tinyrag.settings"}
	seen := map[string]string{}
	for _, h := range hosts {
		p := StoragePrefix(h)
		if other, dup := seen[p]; dup {
			t.Errorf("%q and %q share the prefix %q", h, other, p)
		}
		seen[p] = h
		for _, n := range appNames {
			if strings.HasPrefix(n, p) {
				t.Errorf("the full app's %q starts with %q's prefix %q", n, h, p)
			}
		}
		for _, h2 := range hosts {
			if q := StoragePrefix(h2); h2 != h && strings.HasPrefix(q, p) {
				t.Errorf("%q's names start with %q's", h2, h)
			}
		}
	}
}
