//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
)

// DB is an open IndexedDB database.
//
// Its methods block the calling goroutine until IndexedDB answers: call
// them from a goroutine, never synchronously inside a js.FuncOf callback
// (that would deadlock Go's js runtime).
type DB struct {
	v    js.Value
	name string
	// onVersionChange closes this connection when another tab upgrades
	// the database, so this tab never blocks it.
	onVersionChange js.Func
}

// Mode is a transaction's mode.
type Mode string

// The two transaction modes.
const (
	ReadOnly  Mode = "readonly"
	ReadWrite Mode = "readwrite"
)

// Open opens database name at version, creating the object stores that are
// missing when the database is new or older.
func Open(ctx context.Context, name string, version int, stores ...string) (*DB, error) {
	factory := js.Global().Get("indexedDB")
	if factory.IsUndefined() || factory.IsNull() {
		return nil, fmt.Errorf("open IndexedDB %q: %w", name, ErrUnavailable)
	}
	var req js.Value
	if err := catch(func() { req = factory.Call("open", name, version) }); err != nil {
		return nil, fmt.Errorf("open IndexedDB %q: %w", name, err)
	}
	upgrade := js.FuncOf(func(this js.Value, args []js.Value) any {
		db := req.Get("result")
		names := db.Get("objectStoreNames")
		for _, s := range stores {
			if !names.Call("contains", s).Bool() {
				db.Call("createObjectStore", s)
			}
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	ch := make(chan error, 1)
	release := listen(req, ch, map[string]func() error{
		"onsuccess": func() error { return nil },
		"onerror":   func() error { return domError(req.Get("error")) },
		"onblocked": func() error { return ErrBlocked },
	})
	err := wait(ctx, ch, nil)
	release()
	if err != nil {
		// The request may still succeed once the other tab lets go; a
		// connection nobody uses must not then block that tab in turn.
		var late js.Func
		late = js.FuncOf(func(js.Value, []js.Value) any {
			req.Get("result").Call("close")
			late.Release()
			return nil
		})
		req.Set("onsuccess", late)
		return nil, fmt.Errorf("open IndexedDB %q: %w", name, err)
	}
	d := &DB{v: req.Get("result"), name: name}
	d.onVersionChange = js.FuncOf(func(js.Value, []js.Value) any {
		d.v.Call("close")
		return nil
	})
	d.v.Set("onversionchange", d.onVersionChange)
	return d, nil
}

// Close closes the connection.
func (d *DB) Close() {
	d.v.Call("close")
	d.v.Set("onversionchange", js.Null())
	d.onVersionChange.Release()
}

// Do runs fn in a transaction over stores and waits until the transaction
// has committed: only then is a write durable, and only then are the
// results of the requests fn made ready to read. A JavaScript exception
// thrown by fn (a DataCloneError, a closed connection) or a failed request
// aborts the transaction and is returned; a full quota is ErrQuota. If ctx
// ends first the transaction is aborted.
func (d *DB) Do(ctx context.Context, mode Mode, fn func(tx js.Value), stores ...string) error {
	names := make([]any, len(stores))
	for i, n := range stores {
		names[i] = n
	}
	var tx js.Value
	if err := catch(func() { tx = d.v.Call("transaction", js.ValueOf(names), string(mode)) }); err != nil {
		return fmt.Errorf("start an IndexedDB transaction: %w", err)
	}
	ch := make(chan error, 1)
	release := listen(tx, ch, map[string]func() error{
		"oncomplete": func() error { return nil },
		"onabort":    func() error { return domError(tx.Get("error")) },
	})
	defer release()
	if err := catch(func() { fn(tx) }); err != nil {
		abort(tx)
		return err
	}
	return wait(ctx, ch, func() { abort(tx) })
}

// abort aborts tx; it throws once the transaction finished, which is fine.
func abort(tx js.Value) { catch(func() { tx.Call("abort") }) }

// catch runs fn and turns a JavaScript exception (a panic with a js.Error
// in syscall/js) into an error.
func catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if jerr, ok := r.(js.Error); ok {
				err = domError(jerr.Value)
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	fn()
	return nil
}

// domError converts an IndexedDB error (a DOMException) to a Go error;
// QuotaExceededError becomes ErrQuota.
func domError(v js.Value) error {
	if v.IsUndefined() || v.IsNull() {
		// An abort with no error is one that we (or the browser) asked for.
		return errors.New("the IndexedDB transaction was aborted")
	}
	name, msg := v.Get("name").String(), v.Get("message").String()
	if name == "QuotaExceededError" {
		return fmt.Errorf("%w (%s)", ErrQuota, msg)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// wait blocks until an event handler reports on ch; it runs cancel if ctx
// ends first.
func wait(ctx context.Context, ch <-chan error, cancel func()) error {
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		if cancel != nil {
			cancel()
		}
		return ctx.Err()
	}
}

// listen sets event handlers on target that report into ch; release frees
// them. Only the first report counts.
func listen(target js.Value, ch chan error, handlers map[string]func() error) (release func()) {
	var funcs []js.Func
	for event, fn := range handlers {
		f := js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case ch <- fn():
			default:
			}
			return nil
		})
		funcs = append(funcs, f)
		target.Set(event, f)
	}
	return func() {
		for event := range handlers {
			target.Set(event, js.Null())
		}
		for _, f := range funcs {
			f.Release()
		}
	}
}
