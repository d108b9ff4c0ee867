package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/siteconfig"
	"tinyrag/server"
	"tinyrag/server/httpapi"
)

func TestParseServeFlags_EmbedPolicyFromFlagsOrEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		origins []string
		submit  bool
		err     string // part of the error; "" none
	}{
		{"none by default", nil, nil, nil, false, ""},
		{"flag, normalized", []string{"--embed-origins", "https://Docs.Example.org/, http://127.0.0.1:9000"}, nil,
			[]string{"https://docs.example.org", "http://127.0.0.1:9000"}, false, ""},
		{"flag repeated", []string{"--embed-origins", "https://a.example", "--embed-origins", "https://b.example"}, nil,
			[]string{"https://a.example", "https://b.example"}, false, ""},
		{"environment", nil, map[string]string{"TINYRAG_EMBED_ORIGINS": "https://a.example http://127.0.0.1:9000", "TINYRAG_EMBED_HOST_SUBMIT": "yes"},
			[]string{"https://a.example", "http://127.0.0.1:9000"}, true, ""},
		{"the flag replaces the environment", []string{"--embed-origins", "https://b.example", "--embed-host-submit=false"},
			map[string]string{"TINYRAG_EMBED_ORIGINS": "https://a.example", "TINYRAG_EMBED_HOST_SUBMIT": "on"},
			[]string{"https://b.example"}, false, ""},
		{"a wildcard flag", []string{"--embed-origins", "https://*.example.org"}, nil, nil, false, "not an origin"},
		{"a path in the environment", nil, map[string]string{"TINYRAG_EMBED_ORIGINS": "https://docs.example.org/guide"}, nil, false, "TINYRAG_EMBED_ORIGINS"},
		{"a switch that is not one", nil, map[string]string{"TINYRAG_EMBED_HOST_SUBMIT": "sometimes"}, nil, false, "TINYRAG_EMBED_HOST_SUBMIT"},
	} {
		o, err := parseServeFlags(tc.args, io.Discard, func(k string) string { return tc.env[k] })
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want one saying %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(o.App.Embed.Origins, tc.origins) || o.App.Embed.HostSubmit != tc.submit {
			t.Errorf("%s: %+v, %v; want origins %q submit %t", tc.name, o.App.Embed, err, tc.origins, tc.submit)
		}
	}
}

func TestServer_EmbedPageIsFramedOnlyByTheEmbeddingOrigins(t *testing.T) {
	h := serveHandler(t, "--embed-origins", "http://127.0.0.1:9000,https://docs.example.org", "--embed-host-submit", "--frame-ancestors", "'none'")
	srv := httptest.NewServer(h)
	defer srv.Close()
	frameAncestors := func(path string) string {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for _, d := range strings.Split(resp.Header.Get("Content-Security-Policy"), ";") {
			if d = strings.TrimSpace(d); strings.HasPrefix(d, "frame-ancestors ") {
				return d
			}
		}
		t.Fatalf("%s: no frame-ancestors in %q", path, resp.Header.Get("Content-Security-Policy"))
		return ""
	}
	for path, want := range map[string]string{
		"/embed.html":               "frame-ancestors 'self' http://127.0.0.1:9000 https://docs.example.org",
		"/embed.html?theme=dark":    "frame-ancestors 'self' http://127.0.0.1:9000 https://docs.example.org",
		"/embed?theme=dark":         "frame-ancestors 'self' http://127.0.0.1:9000 https://docs.example.org",
		"/embed.html/x":             "frame-ancestors 'none'",
		"/":                         "frame-ancestors 'none'",
		"/embed/x":                  "frame-ancestors 'none'",
		"/web/embed.js":             "frame-ancestors 'none'",
		"/" + siteconfig.FileName:   "frame-ancestors 'none'",
		"/embedded-somewhere-else/": "frame-ancestors 'none'",
	} {
		if got := frameAncestors(path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}

	// The app learns the same policy from tinyrag.json, as on a static site.
	resp, err := http.Get(srv.URL + "/" + siteconfig.FileName)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c, warns, err := siteconfig.Parse(body)
	if err != nil || len(warns) > 0 {
		t.Fatalf("%s: %v %v", body, warns, err)
	}
	p := c.EmbedPolicy()
	if !reflect.DeepEqual(p.Origins, []string{"http://127.0.0.1:9000", "https://docs.example.org"}) || !p.HostSubmit {
		t.Errorf("tinyrag.json embed = %+v", p)
	}
}

func TestServer_NoEmbedOriginsFramedBySelfOnly(t *testing.T) {
	h := serveHandler(t, "--frame-ancestors", "'self'")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/embed.html", nil))
	if csp := w.Header().Get("Content-Security-Policy"); !strings.HasSuffix(csp, "frame-ancestors 'self'") {
		t.Errorf("/embed.html CSP %q, want frame-ancestors 'self' only", csp)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/"+siteconfig.FileName, nil))
	if strings.Contains(w.Body.String(), `"embed"`) {
		t.Errorf("tinyrag.json names an embed policy nobody configured: %s", w.Body.String())
	}
}

func TestStatic_RefusesAnEmbedOriginThatIsNotOne(t *testing.T) {
	var stderr strings.Builder
	err := runStatic(context.Background(), []string{"-o", t.TempDir(), "--embed-origins", "https://docs.example.org/guide"}, io.Discard, &stderr, nil)
	if err == nil || !strings.Contains(err.Error(), "not an origin") {
		t.Fatalf("err %v", err)
	}
}

// The embedded view has one address on every host, embed.html; frames
// made for its earlier address on `tinyrag serve` are sent there with the
// embedding page's options.
func TestServer_EmbedPageAtItsEarlierAddressRedirectsToEmbedHTML(t *testing.T) {
	h := serveHandler(t, "--frame-ancestors", "'self'")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/embed?theme=dark&bundles=a.tinyrag", nil))
	if w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != "/embed.html?theme=dark&bundles=a.tinyrag" {
		t.Errorf("/embed: HTTP %d to %q, want 308 to /embed.html with the query", w.Code, w.Header().Get("Location"))
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/embed.html?theme=dark", nil))
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || !strings.Contains(w.Body.String(), `id="app-wasm-loader"`) {
		t.Errorf("/embed.html: HTTP %d, %s", w.Code, w.Header().Get("Content-Type"))
	}
}

// serveHandler is the handler `tinyrag serve ARGS…` serves, with an empty
// environment and no LLM probe.
func serveHandler(t *testing.T, args ...string) http.Handler {
	t.Helper()
	c, err := parseServeFlags(append(args, "--llm-probe=false"), io.Discard, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	h, err := server.New(context.Background(), c, httpapi.Env{Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
