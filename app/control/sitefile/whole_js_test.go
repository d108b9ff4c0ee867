//go:build js && wasm

package sitefile

import (
	"context"
	"os"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// respond returns a JS function that answers a URL in files with a
// Response of that body and anything else with a 404, as a promise (what
// fetch returns).
func respond(files map[string]string) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		body, ok := files[args[0].String()]
		status := 200
		if !ok {
			status = 404
		}
		resp := js.Global().Get("Response").New(body, map[string]any{"status": status})
		return js.Global().Get("Promise").Call("resolve", resp)
	})
}

// The page's site-prefetch.js reads the site's files as they arrive and
// hands each one over whole (window.tinyragPrefetch.body: a promise of
// [status, ArrayBuffer or null]); without it, the app fetches the file
// itself. Either way the caller gets the same bytes, statuses and errors.
func TestGetWhole_ReadsThroughThePageOrItself(t *testing.T) {
	const (
		config  = "http://127.0.0.1:9/kb/tinyrag.json"
		gone    = "http://127.0.0.1:9/kb/gone.json"
		refused = "http://127.0.0.1:9/kb/refused.json"
	)
	fetchFn := respond(map[string]string{config: `{"bundles":[]}`})
	defer fetchFn.Release()
	// A fetch that fails (as a refused connection does) rejects.
	failFetch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if args[0].String() == refused {
			return js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New("connection refused"))
		}
		return fetchFn.Invoke(args[0])
	})
	defer failFetch.Release()
	// body does what site-prefetch.js does with a response.
	bodyFn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		return failFetch.Invoke(args[0]).Call("then", js.FuncOf(func(_ js.Value, a []js.Value) any {
			r := a[0]
			if r.Get("status").Int() != 200 {
				return js.ValueOf([]any{r.Get("status"), js.Null()})
			}
			status := r.Get("status")
			return r.Call("arrayBuffer").Call("then", js.FuncOf(func(_ js.Value, b []js.Value) any {
				return js.ValueOf([]any{status, b[0]})
			}))
		}))
	})
	defer bodyFn.Release()

	origFetch := js.Global().Get("fetch")
	js.Global().Set("fetch", failFetch)
	defer js.Global().Set("fetch", origFetch)

	tests := []struct {
		name, url, want, wantErr string
		status                   int
	}{
		{"a file is read whole", config, `{"bundles":[]}`, "", 200},
		{"a missing file is an error with its status", gone, "", "HTTP 404", 404},
		{"a failed request is an error naming the URL", refused, "", "GET " + refused + ": connection refused", 0},
	}
	for _, page := range []bool{true, false} {
		if page {
			js.Global().Set("tinyragPrefetch", map[string]any{"body": bodyFn})
		} else {
			js.Global().Delete("tinyragPrefetch")
		}
		for _, tc := range tests {
			name := tc.name + map[bool]string{true: ", through the page", false: ", by the app"}[page]
			t.Run(name, func(t *testing.T) {
				data, status, err := getWhole(context.Background(), tc.url, maxConfig)
				if string(data) != tc.want || status != tc.status || !errMatches(err, tc.wantErr) {
					t.Errorf("getWhole(%s) = %q, %d, %v; want %q, %d, error %q", tc.url, data, status, err, tc.want, tc.status, tc.wantErr)
				}
			})
		}
	}
	js.Global().Delete("tinyragPrefetch")

	t.Run("a file past the limit is refused", func(t *testing.T) {
		if _, _, err := getWhole(context.Background(), config, 4); err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("getWhole with a 4-byte limit: error %v, want one saying the file is larger", err)
		}
	})
}

// With the page's own site-prefetch.js: a file the app starts (Start) is
// requested at once, and the read that follows takes that request instead
// of making another.
func TestStart_AFileStartedIsRequestedAtOnceAndTakenByItsRead(t *testing.T) {
	src, err := os.ReadFile("../../../assets/web/site-prefetch.js")
	if err != nil {
		t.Fatal(err)
	}
	const (
		a    = "http://127.0.0.1:9/kb/t/a.bin"
		b    = "http://127.0.0.1:9/kb/f/b.json"
		gone = "http://127.0.0.1:9/kb/t/gone.bin"
	)
	files := respond(map[string]string{a: "shard a", b: `{"fragment":"b"}`})
	defer files.Release()
	calls := map[string]int{}
	counting := js.FuncOf(func(_ js.Value, args []js.Value) any {
		calls[args[0].String()]++
		return files.Invoke(args[0])
	})
	defer counting.Release()
	g := js.Global()
	origFetch := g.Get("fetch")
	g.Set("fetch", counting)
	defer g.Set("fetch", origFetch)
	// What the script needs of a page; with no script element it finds no
	// site config and fetches nothing by itself.
	for name, v := range map[string]any{"window": g, "document": map[string]any{"currentScript": nil}, "navigator": map[string]any{}} {
		if g.Get(name).IsUndefined() {
			g.Set(name, v)
			defer g.Delete(name)
		}
	}
	g.Get("Function").New(string(src)).Invoke()
	defer g.Delete("tinyragPrefetch")
	if len(calls) != 0 {
		t.Fatalf("the script fetched %v before the app asked", calls)
	}

	Start(a)
	Start(b)
	Start(a)
	Start(gone)
	if calls[a] != 1 || calls[b] != 1 || calls[gone] != 1 {
		t.Fatalf("after Start: requests %v, want one each, before any read", calls)
	}
	for _, tc := range []struct{ url, want, wantErr string }{
		{a, "shard a", ""},
		{b, `{"fragment":"b"}`, ""},
		{gone, "", "HTTP 404"},
	} {
		data, _, err := BundleFile(context.Background(), nil, tc.url)
		if string(data) != tc.want || !errMatches(err, tc.wantErr) {
			t.Errorf("BundleFile(%s) = %q, %v; want %q, error %q", tc.url, data, err, tc.want, tc.wantErr)
		}
		if calls[tc.url] != 1 {
			t.Errorf("%s requested %d times, want once", tc.url, calls[tc.url])
		}
	}
	// A file read once is the app's: reading it again asks the network.
	if data, _, err := BundleFile(context.Background(), nil, a); err != nil || string(data) != "shard a" || calls[a] != 2 {
		t.Errorf("BundleFile(%s) again = %q, %v after %d requests; want the file from a second request", a, data, err, calls[a])
	}

	// A file that has arrived and been read by the script is taken at
	// once, without waiting on body()'s promise for a turn of the page's
	// thread; so is its status when it is missing.
	Start(b)
	Start(gone)
	time.Sleep(20 * time.Millisecond) // the page's thread reads them
	pf := g.Get("tinyragPrefetch")
	origBody := pf.Get("body")
	bodies := 0
	countBodies := js.FuncOf(func(this js.Value, args []js.Value) any {
		bodies++
		return origBody.Call("apply", this, js.ValueOf([]any{args[0]}))
	})
	defer countBodies.Release()
	pf.Set("body", countBodies)
	for _, tc := range []struct{ url, want, wantErr string }{
		{b, `{"fragment":"b"}`, ""},
		{gone, "", "HTTP 404"},
	} {
		data, _, err := BundleFile(context.Background(), nil, tc.url)
		if string(data) != tc.want || !errMatches(err, tc.wantErr) {
			t.Errorf("BundleFile(%s) of an arrived file = %q, %v; want %q, error %q", tc.url, data, err, tc.want, tc.wantErr)
		}
		if calls[tc.url] != 2 {
			t.Errorf("%s requested %d times, want twice (once per Start)", tc.url, calls[tc.url])
		}
	}
	if bodies != 0 {
		t.Errorf("files that had arrived went through body() %d times, want none", bodies)
	}
	// Taken once, a file is gone from the script: the next read asks.
	if data, _, err := BundleFile(context.Background(), nil, b); err != nil || string(data) != `{"fragment":"b"}` || calls[b] != 3 || bodies != 1 {
		t.Errorf("BundleFile(%s) once more = %q, %v after %d requests, %d body() calls; want a third request through body()", b, data, err, calls[b], bodies)
	}
}
