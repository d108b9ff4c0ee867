//go:build js && wasm

package mdmodule

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"tinyrag/app/markdown/answer"
)

// readyFunc is the global function markdown.wasm calls with its API once
// it runs (see wasm/markdown).
const readyFunc = "tinyragMarkdownReady"

// retryAfter is how long a failed load is kept before a use tries again
// (the line may be back).
const retryAfter = 30 * time.Second

// loadTimeout bounds fetching and starting markdown.wasm (about 1 MB):
// a minute is a slow phone line's worth.
const loadTimeout = time.Minute

// Module is markdown.wasm on this page. Use Page.
type Module struct {
	// URL is markdown.wasm's address; set it before the first use.
	URL string

	mu       sync.Mutex
	state    State
	err      error
	failedAt time.Time
	api      js.Value // {render(request), text(markdown)} once Ready
	onChange func(State)
}

// Page is the page's module.
var Page = &Module{}

// OnChange sets the function told of each change of state (the UI
// renders its answers again when the module is ready). It is called on
// a goroutine of its own.
func (m *Module) OnChange(f func(State)) {
	m.mu.Lock()
	m.onChange = f
	m.mu.Unlock()
}

// State returns the module's state and, when Failed, why.
func (m *Module) State() (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state, m.err
}

// Load starts fetching and running markdown.wasm unless it is loading,
// loaded, or failed less than retryAfter ago. It does not wait.
func (m *Module) Load() {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.state == Loading || m.state == Ready:
		return
	case m.state == Failed && time.Since(m.failedAt) < retryAfter:
		return
	}
	m.setLocked(Loading, nil)
	go m.load()
}

// setLocked changes the state (m.mu held) and tells the UI.
func (m *Module) setLocked(s State, err error) {
	m.state, m.err = s, err
	if s == Failed {
		m.failedAt = time.Now()
		m.api = js.Undefined()
	}
	if f := m.onChange; f != nil {
		go f(s)
	}
}

func (m *Module) fail(err error) {
	m.mu.Lock()
	m.setLocked(Failed, err)
	m.mu.Unlock()
}

// load runs markdown.wasm with wasm_exec.js's Go class, the way go-app's
// app.js runs app.wasm, and waits for the program to hand over its API.
func (m *Module) load() {
	if m.URL == "" {
		m.fail(errors.New("no address for markdown.wasm"))
		return
	}
	goClass := js.Global().Get("Go")
	if goClass.Type() != js.TypeFunction {
		m.fail(errors.New("wasm_exec.js is not on the page"))
		return
	}
	ready := make(chan js.Value, 1)
	var cb js.Func
	cb = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 1 {
			select {
			case ready <- args[0]:
			default:
			}
		}
		return nil
	})
	js.Global().Set(readyFunc, cb)
	defer func() {
		js.Global().Delete(readyFunc)
		cb.Release()
	}()

	prog := goClass.New()
	// A crash prints the panic, not every goroutine's stack.
	env := js.Global().Get("Object").New()
	env.Set("GOTRACEBACK", "none")
	prog.Set("env", env)
	// A host that never finishes sending the file must not leave the
	// answers waiting for good: they stay plain text, with the reason.
	timeout := time.NewTimer(loadTimeout)
	defer timeout.Stop()
	type started struct {
		inst js.Value
		err  error
	}
	sc := make(chan started, 1)
	go func() {
		inst, err := instantiate(m.URL, prog.Get("importObject"))
		sc <- started{inst, err}
	}()
	var inst js.Value
	select {
	case s := <-sc:
		if s.err != nil {
			m.fail(s.err)
			return
		}
		inst = s.inst
	case <-timeout.C:
		m.fail(fmt.Errorf("%s did not arrive within %s", m.URL, loadTimeout))
		return
	}
	exited := make(chan error, 1)
	go func() {
		_, err := await(prog.Call("run", inst))
		if err == nil {
			err = errors.New("markdown.wasm stopped")
		}
		exited <- err
	}()
	select {
	case api := <-ready:
		m.mu.Lock()
		m.api = api
		m.setLocked(Ready, nil)
		m.mu.Unlock()
	case err := <-exited:
		m.fail(fmt.Errorf("markdown.wasm stopped before it was ready: %w", err))
		return
	case <-timeout.C:
		m.fail(fmt.Errorf("markdown.wasm did not start within %s", loadTimeout))
		return
	}
	// The program runs until the page goes; if it stops (a crash), the
	// answers fall back to plain text.
	m.fail(<-exited)
}

// instantiate fetches and compiles the module: streaming when the host
// says application/wasm (compiling while the bytes arrive), else from
// the whole body (some static hosts send another type).
func instantiate(url string, imports js.Value) (js.Value, error) {
	resp, err := await(js.Global().Call("fetch", url))
	if err != nil {
		return js.Value{}, fmt.Errorf("fetching %s: %w", url, err)
	}
	if !resp.Get("ok").Bool() {
		return js.Value{}, fmt.Errorf("fetching %s: HTTP %d", url, resp.Get("status").Int())
	}
	wasm := js.Global().Get("WebAssembly")
	var res js.Value
	if ct := resp.Get("headers").Call("get", "Content-Type"); ct.Type() == js.TypeString && ct.String() == "application/wasm" {
		res, err = await(wasm.Call("instantiateStreaming", resp, imports))
	} else {
		var buf js.Value
		if buf, err = await(resp.Call("arrayBuffer")); err == nil {
			res, err = await(wasm.Call("instantiate", buf, imports))
		}
	}
	if err != nil {
		return js.Value{}, fmt.Errorf("starting %s: %w", url, err)
	}
	return res.Get("instance"), nil
}

// await waits for a promise (from a goroutine: in Go wasm that yields to
// the browser).
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{v: arg0(args)}
		return nil
	})
	bad := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if e := arg0(args); e.Truthy() {
			msg = e.Call("toString").String()
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	defer ok.Release()
	defer bad.Release()
	p.Call("then", ok, bad)
	r := <-done
	return r.v, r.err
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// ready returns the module's API when it is Ready; otherwise it starts
// loading it.
func (m *Module) ready() (js.Value, bool) {
	m.mu.Lock()
	api, st := m.api, m.state
	m.mu.Unlock()
	if st != Ready {
		m.Load()
		return js.Value{}, false
	}
	return api, true
}

// RenderAnswer returns an answer's sanitized HTML (markdown.RenderAnswer),
// or Plain while the module is not ready, which it then starts loading.
func (m *Module) RenderAnswer(text string, cards []answer.Card, opts answer.Options) string {
	api, ok := m.ready()
	if !ok {
		return Plain(text, cards)
	}
	out, err := m.call(api, "render", Request{Text: text, Cards: cards, Options: opts}.JS())
	if err != nil {
		return Plain(text, cards)
	}
	return out
}

// ToText returns Markdown src as plain text for the clipboard
// (markdown.ToText), or src itself while the module is not ready.
func (m *Module) ToText(src string) string {
	api, ok := m.ready()
	if !ok {
		return src
	}
	out, err := m.call(api, "text", js.ValueOf(src))
	if err != nil {
		return src
	}
	return out
}

// call runs one of the API's functions, which answer [result, error]. A
// call that throws means the program is gone: the module is then Failed.
func (m *Module) call(api js.Value, fn string, arg js.Value) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("markdown.wasm: %v", r)
			m.fail(err)
		}
	}()
	res := api.Call(fn, arg)
	if res.Type() != js.TypeObject || res.Length() != 2 {
		err = errors.New("markdown.wasm gave no result")
		m.fail(err)
		return "", err
	}
	if e := res.Index(1); e.Type() == js.TypeString && e.String() != "" {
		return "", errors.New(e.String())
	}
	return res.Index(0).String(), nil
}
