package tool

import (
	"context"
	"strings"
	"testing"
)

func fake(name string, el Element) Tool {
	return Func{ToolName: name, Elem: el, Desc: "does " + name, Fn: func(ctx context.Context, in string) (Result, error) {
		return Result{Content: in, Source: name}, nil
	}}
}

func TestRegistry_LookupIsCaseAndSpaceInsensitive(t *testing.T) {
	r := NewRegistry(fake("calculate", Query))
	for _, name := range []string{"calculate", "Calculate", " CALCULATE "} {
		tl, on := r.Lookup(name)
		if tl == nil || !on {
			t.Errorf("Lookup(%q) = %v, %v; want the enabled tool", name, tl, on)
		}
	}
	if tl, on := r.Lookup("shell"); tl != nil || on {
		t.Errorf("unknown tool found: %v %v", tl, on)
	}
}

func TestRegistry_DisabledToolIsKnownButOffAndLeftOutOfManifest(t *testing.T) {
	r := NewRegistry(fake("calculate", Query), fake("nanogo", Source))
	r.SetEnabled("nanogo", false)
	tl, on := r.Lookup("nanogo")
	if tl == nil || on {
		t.Fatalf("Lookup(nanogo) = %v, %v; want known and disabled", tl, on)
	}
	m := r.Manifest()
	if strings.Contains(m, "nanogo") {
		t.Errorf("manifest offers a disabled tool:\n%s", m)
	}
	if !strings.Contains(m, `<tool name="calculate"><query>…</query></tool>`) {
		t.Errorf("manifest lacks the calling form of calculate:\n%s", m)
	}
	r.SetEnabled("nanogo", true)
	if _, on := r.Lookup("nanogo"); !on {
		t.Error("re-enabled tool still off")
	}
}

func TestRegistry_DisablingBeforeRegisteringStillDisables(t *testing.T) {
	r := NewRegistry()
	r.SetEnabled("url_fetch", false)
	r.Register(fake("url_fetch", URL))
	if tl, on := r.Lookup("url_fetch"); tl == nil || on {
		t.Errorf("Lookup = %v, %v; want registered and still disabled", tl, on)
	}
}

func TestRegistry_EnabledIsSortedByName(t *testing.T) {
	r := NewRegistry(fake("wikipedia", Query), fake("calculate", Query), fake("rag_knowledge", Query))
	var names []string
	for _, tl := range r.Enabled() {
		names = append(names, tl.Name())
	}
	if got := strings.Join(names, ","); got != "calculate,rag_knowledge,wikipedia" {
		t.Errorf("Enabled() order = %s", got)
	}
}
