//go:build js && wasm

package embed

import (
	"fmt"
	"syscall/js"
)

// CurrentFrame reads where the app runs from the page.
func CurrentFrame() Frame {
	win := js.Global().Get("window")
	loc := win.Get("location")
	f := Frame{
		Self: loc.Get("origin").String(),
		Top:  win.Get("top").Equal(win.Get("self")),
	}
	if ref := win.Get("document").Get("referrer"); ref.Type() == js.TypeString {
		f.Referrer = ref.String()
	}
	if anc := loc.Get("ancestorOrigins"); anc.Truthy() {
		f.HasAncestors = true
		for i := 0; i < anc.Length(); i++ {
			f.Ancestors = append(f.Ancestors, anc.Index(i).String())
		}
	}
	return f
}

// queued is one message event the bridge heard, for the goroutine that
// hands messages to the chat in order.
type queued struct {
	origin     string
	fromParent bool
	data       []byte
}

// maxQueued bounds the messages waiting for the chat; a host that sends
// more than this before the chat catches up gets an error for the rest.
const maxQueued = 64

// Listen starts the bridge to the page at embedder: it hears message
// events on window, hands those from the parent at embedder to chat in
// order, posts its own messages to the parent at that origin only, sends
// close when the visitor presses Escape (unless the view took the key with
// preventDefault), and finally sends ready. Stop ends it.
func Listen(embedder string, p Policy, chat Chat) (*Bridge, error) {
	win := js.Global().Get("window")
	parent := win.Get("parent")
	jsonObj := js.Global().Get("JSON")
	b, err := NewBridge(embedder, p, chat, func(data []byte, target string) {
		parent.Call("postMessage", jsonObj.Call("parse", string(data)), target)
	})
	if err != nil {
		return nil, err
	}
	q := make(chan queued, maxQueued)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		m := queued{origin: ev.Get("origin").String(), fromParent: ev.Get("source").Equal(parent)}
		if !m.fromParent || m.origin != b.origin {
			return nil // not even read
		}
		data, err := stringify(jsonObj, ev.Get("data"))
		if err != nil {
			b.send(Message{Type: TypeError, Error: err.Error()})
			return nil
		}
		m.data = data
		select {
		case q <- m:
		default:
			b.send(Message{Type: TypeError, Error: fmt.Sprintf("too many messages at once: more than %d are waiting, this one was dropped", maxQueued)})
		}
		return nil
	})
	onKey := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		if ev.Get("key").String() == "Escape" && !ev.Get("defaultPrevented").Bool() {
			b.Close()
		}
		return nil
	})
	done := make(chan struct{})
	go func() {
		for {
			select {
			case m := <-q:
				b.Receive(m.origin, m.fromParent, m.data)
			case <-done:
				return
			}
		}
	}()
	doc := win.Get("document")
	win.Call("addEventListener", "message", onMessage)
	doc.Call("addEventListener", "keydown", onKey)
	b.stop = func() {
		win.Call("removeEventListener", "message", onMessage)
		doc.Call("removeEventListener", "keydown", onKey)
		onMessage.Release()
		onKey.Release()
		close(done)
	}
	b.Ready()
	return b, nil
}

// stringify turns a posted value (a structured clone) into JSON for
// Decode; a value JSON cannot carry (a cycle, a BigInt) is an error.
func stringify(jsonObj, v js.Value) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("message is not a JSON object of the protocol: %v", r)
		}
	}()
	s := jsonObj.Call("stringify", v)
	if s.Type() != js.TypeString {
		return nil, fmt.Errorf("message is not a JSON object of the protocol")
	}
	return []byte(s.String()), nil
}
