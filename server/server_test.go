package server

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tinyrag/server/httpapi"
	"tinyrag/server/webapp"
)

func TestServer_HealthzAndSecurityHeadersOnEveryResponse(t *testing.T) {
	h, err := New(context.Background(), Config{App: webapp.Config{ConnectSrc: webapp.DefaultConnectSrc, FrameAncestors: "'self'"}, API: noProbe()},
		httpapi.Env{Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, p := range []string{"/healthz", "/", "/manifest.webmanifest", "/web/does-not-exist"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'", "default-src 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", p, csp, want)
			}
		}
		if strings.Contains(csp, "'unsafe-eval'") && !strings.Contains(csp, "'wasm-unsafe-eval'") {
			t.Errorf("%s: CSP allows eval", p)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" {
			t.Errorf("%s: missing nosniff or Referrer-Policy", p)
		}
		if p == "/healthz" && resp.StatusCode != 200 {
			t.Errorf("/healthz status %d", resp.StatusCode)
		}
	}
}

func TestServer_ManifestAndPageUseOnlyLocalIcons(t *testing.T) {
	h, err := New(context.Background(), Config{API: noProbe()}, httpapi.Env{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/manifest.webmanifest", "/app-worker.js"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		body := w.Body.String()
		for _, remote := range []string{"githubusercontent", "http://", "//cdn"} {
			if strings.Contains(body, remote) {
				t.Errorf("%s references %q: the app must load nothing from other hosts", p, remote)
			}
		}
	}
}

func TestServe_ShutsDownGracefullyWhenContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Addr: addr, API: noProbe()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server never answered: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

// noProbe is the API's defaults without looking for an LLM on this
// machine's ports.
func noProbe() *httpapi.Options {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	o := httpapi.NewOptions(fs, func(string) string { return "" })
	if err := fs.Parse([]string{"--llm-probe=false"}); err != nil {
		panic(err)
	}
	return o
}
