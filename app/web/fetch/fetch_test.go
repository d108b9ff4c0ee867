package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tinyrag/app/web"
	"tinyrag/app/web/guard"
)

const article = `<!doctype html><html><head><title>Otters | Nature</title>
<script>var tracking = "SECRET_SCRIPT";</script><style>.x{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Otters hold hands</h1>
<p>Sea otters hold hands while they sleep so that they do not drift apart. This behaviour is called rafting and has been observed in groups of up to a hundred animals.</p>
<p>Otters also keep a favourite stone in a pouch under their forelegs, which they use to crack open shellfish. Each otter tends to keep the same stone for a long time.</p>
<p>Their fur is the densest of any animal, with up to a million hairs per square inch, which keeps them warm in cold water without blubber.</p>
</article><footer>Copyright</footer></body></html>`

func testServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, article)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "just text\nline two")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":1}`)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("Gr\xfc\xdfe")) // "Grüße" in Latin-1
	})
	mux.HandleFunc("/pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	})
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("abcdefghij", 1000))
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/plain", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// loopbackOnly is the explicit allowance these tests need: the test server
// listens on 127.0.0.1 and nothing else is opened.
func loopbackOnly() *guard.Guard {
	return &guard.Guard{Policy: guard.Policy{AllowHosts: []string{"127.0.0.1/32"}}}
}

func TestFetch_ContentTypes(t *testing.T) {
	srv := testServer(t)
	tests := []struct {
		path      string
		wantType  string
		wantTitle string
		want      []string
		notWant   []string
	}{
		{"/article", "text/html", "Otters | Nature",
			[]string{"hold hands while they sleep", "favourite stone", "densest of any animal"},
			[]string{"SECRET_SCRIPT", "color:red"}},
		{"/plain", "text/plain", "", []string{"just text\nline two"}, nil},
		{"/json", "application/json", "", []string{`{"a":1}`}, nil},
		{"/latin1", "text/plain", "", []string{"Grüße"}, nil},
		{"/moved", "text/plain", "", []string{"just text"}, nil},
	}
	f := New(Options{Guard: loopbackOnly()})
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := f.Fetch(context.Background(), srv.URL+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if p.ContentType != tt.wantType {
				t.Errorf("content type %q, want %q", p.ContentType, tt.wantType)
			}
			if !strings.Contains(tt.wantTitle, p.Title) || (tt.wantTitle != "" && p.Title == "") {
				t.Errorf("title %q, want (part of) %q", p.Title, tt.wantTitle)
			}
			for _, w := range tt.want {
				if !strings.Contains(p.Text, w) {
					t.Errorf("text lacks %q:\n%s", w, p.Text)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(p.Text, w) {
					t.Errorf("text contains %q:\n%s", w, p.Text)
				}
			}
			if p.Truncated {
				t.Errorf("small page marked truncated")
			}
		})
	}
}

func TestFetch_FinalURLAfterRedirect(t *testing.T) {
	srv := testServer(t)
	p, err := New(Options{Guard: loopbackOnly()}).Fetch(context.Background(), srv.URL+"/moved#frag")
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != srv.URL+"/plain" {
		t.Fatalf("URL %q, want the redirect target %q", p.URL, srv.URL+"/plain")
	}
}

// errorCases are refusals Fetch and FetchRaw share: the guard, bad
// addresses, upstream errors, timeouts.
func errorCases(srv *httptest.Server) []errorCase {
	return []errorCase{
		{"404 is a status error", Options{Guard: loopbackOnly()}, srv.URL + "/missing",
			func(err error) bool { var se *StatusError; return errors.As(err, &se) && se.Code == 404 }},
		{"loopback without allowance is blocked", Options{}, srv.URL + "/plain",
			func(err error) bool { return errors.Is(err, guard.ErrBlocked) }},
		{"javascript scheme", Options{}, "javascript:alert(1)",
			func(err error) bool { return errors.Is(err, ErrBadURL) || errors.Is(err, guard.ErrBlocked) }},
		{"not a URL", Options{}, "no url here",
			func(err error) bool { return errors.Is(err, ErrBadURL) }},
		{"file scheme", Options{}, "file:///etc/passwd",
			func(err error) bool { return errors.Is(err, guard.ErrBlocked) }},
		{"slow server times out", Options{Guard: loopbackOnly(), Timeout: 200 * time.Millisecond}, srv.URL + "/slow",
			func(err error) bool { return errors.Is(err, ErrTimeout) }},
	}
}

type errorCase struct {
	name string
	opt  Options
	url  string
	want func(error) bool
}

func TestFetch_Errors(t *testing.T) {
	srv := testServer(t)
	tests := append(errorCases(srv),
		errorCase{"pdf is unsupported", Options{Guard: loopbackOnly()}, srv.URL + "/pdf",
			func(err error) bool { return errors.Is(err, ErrUnsupported) }},
		errorCase{"sniffed image is unsupported", Options{Guard: loopbackOnly()}, srv.URL + "/png",
			func(err error) bool { return errors.Is(err, ErrUnsupported) }},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opt).Fetch(context.Background(), tt.url)
			if err == nil || !tt.want(err) {
				t.Fatalf("err = %v (%T), not the expected kind", err, err)
			}
		})
	}
}

func TestFetch_BoundsBytesAndText(t *testing.T) {
	srv := testServer(t)
	tests := []struct {
		name    string
		opt     Options
		wantLen int
	}{
		{"byte limit", Options{Guard: loopbackOnly(), MaxBytes: 1000}, 1000},
		{"text limit", Options{Guard: loopbackOnly(), MaxText: 500}, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.opt).Fetch(context.Background(), srv.URL+"/big")
			if err != nil {
				t.Fatal(err)
			}
			if !p.Truncated || len([]rune(p.Text)) > tt.wantLen {
				t.Fatalf("truncated=%v len=%d, want truncated and at most %d", p.Truncated, len([]rune(p.Text)), tt.wantLen)
			}
		})
	}
}

func TestFetchRaw_GivesTheBodyAsItCameWithItsType(t *testing.T) {
	srv := testServer(t)
	tests := []struct {
		path, wantType, wantBody string
	}{
		{"/pdf", "application/pdf", "%PDF-1.4"},
		{"/latin1", "text/plain; charset=iso-8859-1", "Gr\xfc\xdfe"},
		{"/article", "text/html; charset=utf-8", article},
		{"/png", "image/png", "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"}, // sniffed
	}
	f := New(Options{Guard: loopbackOnly()})
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			raw, err := f.FetchRaw(context.Background(), srv.URL+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if raw.ContentType != tt.wantType || string(raw.Body) != tt.wantBody || raw.URL != srv.URL+tt.path {
				t.Errorf("got %q %q %q, want %q %q %q", raw.URL, raw.ContentType, raw.Body, srv.URL+tt.path, tt.wantType, tt.wantBody)
			}
		})
	}
}

func TestFetchRaw_RefusesWhatFetchRefusesAndNeverCutsABody(t *testing.T) {
	srv := testServer(t)
	tests := append(errorCases(srv),
		errorCase{"a body over the bound is too large, not cut", Options{Guard: loopbackOnly(), MaxRawBytes: 1000}, srv.URL + "/big",
			func(err error) bool { return errors.Is(err, web.ErrTooLarge) }},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := New(tt.opt).FetchRaw(context.Background(), tt.url)
			if err == nil || !tt.want(err) {
				t.Fatalf("got %d bytes, err = %v (%T), not the expected kind", len(raw.Body), err, err)
			}
		})
	}
}
