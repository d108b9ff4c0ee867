//go:build !js

package httpdo_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tinyrag/app/internal/wasmtest"
)

// TestFetchInChromium runs fetch_js_test.go in a real Chromium against the
// endpoints below: fetch() exists only there (Node's js/wasm tests use
// net/http's own client on an in-process network).
func TestFetchInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a wasm test binary and starts Chromium")
	}
	wasmtest.RunTests(t, wasmtest.Tests{Pkg: "./app/httpdo", Timeout: 3 * time.Minute, Handler: endpoints()})
}

// endpoints are what the browser-side tests talk to.
func endpoints() http.Handler {
	mux := http.NewServeMux()
	release := make(chan struct{}, 1)
	aborted := make(chan struct{}, 1)
	// /x/stream sends one line, then the second only once the client has
	// asked /x/release: a client that waited for the whole body before
	// handing out the first line would never get there.
	mux.HandleFunc("/x/stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
			fmt.Fprint(w, "data: second\n\n")
		case <-time.After(30 * time.Second):
			fmt.Fprint(w, "data: not released\n\n")
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/x/release", func(w http.ResponseWriter, r *http.Request) {
		select {
		case release <- struct{}{}:
		default:
		}
	})
	// /x/hang starts a body and never ends it; it notes when the client
	// went away.
	mux.HandleFunc("/x/hang", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "start\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		select {
		case aborted <- struct{}{}:
		default:
		}
	})
	mux.HandleFunc("/x/was-aborted", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-aborted:
			fmt.Fprint(w, "yes")
		case <-time.After(10 * time.Second):
			fmt.Fprint(w, "no")
		}
	})
	// /x/no-headers never answers until the client goes away.
	mux.HandleFunc("/x/no-headers", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		select {
		case aborted <- struct{}{}:
		default:
		}
	})
	mux.HandleFunc("/x/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/x/echo", http.StatusFound)
	})
	mux.HandleFunc("/x/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Reply", "method="+r.Method+" test="+r.Header.Get("X-Test")+" type="+r.Header.Get("Content-Type"))
		w.WriteHeader(http.StatusTeapot)
		fmt.Fprint(w, strings.ToUpper(string(b)))
	})
	return mux
}
