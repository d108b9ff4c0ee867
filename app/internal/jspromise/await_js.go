//go:build js && wasm

// Package jspromise waits for JavaScript promises from Go in the browser.
package jspromise

import (
	"errors"
	"io"
	"syscall/js"
)

// Await waits for p without blocking the page: the goroutine sleeps while
// the browser's event loop runs. A rejection comes back as an error with
// the browser's message (Reason).
func Await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: Reason(args[0])}
		return nil
	})
	p.Call("then", ok, fail)
	r := <-ch
	ok.Release()
	fail.Release()
	return r.v, r.err
}

// Reason turns a rejection reason into an error with the browser's
// message ("TypeError: Failed to fetch", "AbortError: …"), its cause
// added when it has one.
func Reason(v js.Value) error {
	if v.Type() == js.TypeObject {
		msg := v.Call("toString").String()
		if c := v.Get("cause"); c.Type() == js.TypeObject || c.Type() == js.TypeString {
			msg += ": " + c.Call("toString").String()
		}
		return errors.New(msg)
	}
	return errors.New(v.String())
}

// ReadChunk waits for the next chunk of a ReadableStream's default reader
// (stream.getReader()) and copies it into Go: io.EOF at the stream's end,
// Reason's error if the stream fails.
func ReadChunk(reader js.Value) ([]byte, error) {
	chunk, err := Await(reader.Call("read"))
	if err != nil {
		return nil, err
	}
	if chunk.Get("done").Bool() {
		return nil, io.EOF
	}
	v := chunk.Get("value")
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b, nil
}
