//go:build js && wasm

package embed

import (
	"encoding/json"
	"reflect"
	"syscall/js"
	"testing"
	"time"
)

// fakeWindow stands in for the browser's window in Node: a parent that
// records what is posted to it, listeners the test fires by hand.
const fakeWindow = `(() => {
  const ls = { message: [], keydown: [] };
  const on = (t, f) => ls[t].push(f), off = (t, f) => { ls[t] = ls[t].filter((g) => g !== f); };
  const parent = { sent: [], postMessage(m, o) { this.sent.push(JSON.stringify({ to: o, msg: m })); } };
  const w = {
    parent, top: parent,
    location: { origin: 'https://rag.example.org', ancestorOrigins: { length: 1, 0: 'https://docs.example.org' } },
    document: { referrer: 'https://docs.example.org/guide', addEventListener: on, removeEventListener: off },
    addEventListener: on, removeEventListener: off,
    fire(origin, fromParent, data) { for (const f of ls.message) f({ origin, source: fromParent ? parent : {}, data }); },
    key(key, defaultPrevented) { for (const f of ls.keydown) f({ key, defaultPrevented }); },
    listening() { return ls.message.length + ls.keydown.length; },
  };
  w.self = w;
  return w;
})()`

// chanChat hands every call to the test through a channel: the bridge
// calls the chat from its own goroutine.
type chanChat chan string

func (c chanChat) Ask(q string, submit bool) error {
	if submit {
		q += " (submitted)"
	}
	c <- "ask " + q
	return nil
}
func (c chanChat) AddDocuments(d []Document) error { c <- "docs " + d[0].Title; return nil }
func (c chanChat) SetContext(s string)             { c <- "context " + s }
func (c chanChat) Search(q string, _ func([]SearchResult)) ([]SearchResult, error) {
	c <- "search " + q
	return nil, nil
}

func (c chanChat) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-c:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the chat was not called")
		return ""
	}
}

func sent(t *testing.T, win js.Value) []map[string]any {
	t.Helper()
	var out []map[string]any
	s := win.Get("parent").Get("sent")
	for i := 0; i < s.Length(); i++ {
		var m map[string]any
		if err := json.Unmarshal([]byte(s.Index(i).String()), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestListen_InTheBrowserGlue(t *testing.T) {
	win := js.Global().Call("eval", fakeWindow)
	js.Global().Set("window", win)
	defer js.Global().Delete("window")

	f := CurrentFrame()
	if want := (Frame{Self: "https://rag.example.org", HasAncestors: true, Ancestors: []string{"https://docs.example.org"}, Referrer: "https://docs.example.org/guide"}); !reflect.DeepEqual(f, want) {
		t.Fatalf("CurrentFrame() = %+v, want %+v", f, want)
	}
	p := Policy{Origins: []string{"https://docs.example.org"}}
	embedder, err := f.Embedder(p)
	if err != nil {
		t.Fatal(err)
	}
	chat := make(chanChat, 8)
	b, err := Listen(embedder, p, chat)
	if err != nil {
		t.Fatal(err)
	}
	obj := func(s string) js.Value { return js.Global().Get("JSON").Call("parse", s) }

	// Ignored without a word: a foreign origin, and a non-parent window on
	// the embedding origin. Then the parent's messages arrive in order.
	win.Call("fire", "https://evil.example", true, obj(`{"v":1,"type":"ask","question":"evil"}`))
	win.Call("fire", "https://docs.example.org", false, obj(`{"v":1,"type":"ask","question":"sibling"}`))
	win.Call("fire", "https://docs.example.org", true, obj(`{"v":1,"type":"add_documents","documents":[{"title":"Install","text":"Run make."}]}`))
	win.Call("fire", "https://docs.example.org", true, obj(`{"v":1,"type":"ask","question":"How to install?"}`))
	for _, want := range []string{"docs Install", "ask How to install?"} {
		if got := chat.next(t); got != want {
			t.Errorf("chat got %q, want %q", got, want)
		}
	}
	// A value JSON cannot carry is refused with an error reply.
	cyclic := js.Global().Call("eval", `(() => { const o = { v: 1, type: 'ask' }; o.self = o; return o; })()`)
	win.Call("fire", "https://docs.example.org", true, cyclic)
	win.Call("key", "Escape", true) // the view kept the key
	win.Call("key", "Enter", false)
	win.Call("key", "Escape", false)

	msgs := sent(t, win)
	var types []string
	for _, m := range msgs {
		if m["to"] != "https://docs.example.org" {
			t.Errorf("posted to %v, want the embedding origin only: %v", m["to"], m)
		}
		types = append(types, m["msg"].(map[string]any)["type"].(string))
	}
	if want := []string{"ready", "error", "close"}; !reflect.DeepEqual(types, want) {
		t.Errorf("posted %v, want %v", types, want)
	}
	select {
	case s := <-chat:
		t.Errorf("the chat heard an ignored message: %q", s)
	default:
	}

	b.Stop()
	if n := win.Call("listening").Int(); n != 0 {
		t.Errorf("%d listeners left after Stop", n)
	}
}
