package kbinput

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge/importrun"
	"tinyrag/app/web"
)

func TestFileInputs_ImportsTextAndListsWhatItSkips(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("imports run in a Web Worker holding importer.wasm, which Node has not; app/knowledge/importrun's browser test runs them in Chromium")
	}
	files := []File{
		{Name: "notes/a.md", Data: []byte("# Alpha\n\nSome text about alpha.")},
		{Name: "b.txt", Data: []byte("Plain beta text.")},
		{Name: "img.png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")},
		{Name: "empty.txt", Data: []byte("   \n")},
		{Name: "gone.txt", Err: "could not be read"},
	}
	ins, skipped := Files(&importrun.Runner{}, files)
	if len(ins) != 2 || ins[0].Title != "Alpha" || ins[0].Source != "notes/a.md" || ins[1].Source != "b.txt" {
		t.Errorf("inputs = %+v", ins)
	}
	if len(skipped) != 3 {
		t.Fatalf("skipped = %v, want img.png, empty.txt and gone.txt", skipped)
	}
	for i, name := range []string{"img.png", "empty.txt", "gone.txt"} {
		if !strings.HasPrefix(skipped[i], name+": ") {
			t.Errorf("skipped[%d] = %q, want it to name %s and why", i, skipped[i], name)
		}
	}
}

func TestPastedInput(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name, title, text string
		wantTitle         string
		wantErr           error
	}{
		{"title given", "Hours", "open 9-17", "Hours", nil},
		{"title from first line", "", "# Opening hours\nopen 9-17", "Opening hours", nil},
		{"blank text refused", "x", "  \n ", "", ErrEmptyText},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Pasted(tc.title, tc.text, now)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err == nil && (in.Title != tc.wantTitle || !strings.HasPrefix(in.Source, "pasted:2026")) {
				t.Errorf("input = %+v", in)
			}
		})
	}
}

func TestURLInput_ImportsWhatTheAddressServesThroughTheProxy(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("imports run in a Web Worker holding importer.wasm, which Node has not; app/knowledge/importrun's browser test runs them in Chromium")
	}
	// The PDF fixture the importer's own tests read.
	pdf, err := os.ReadFile("../../knowledge/importer/testdata/hello.pdf")
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		status      int
		contentType string
		body        []byte
	}
	served := map[string]file{
		"https://example.org/a":       {200, "text/html; charset=utf-8", []byte(`<html><head><title>A page</title></head><body><nav>Menu</nav><article><p>Readable text about kettles.</p></article></body></html>`)},
		"https://example.org/paper":   {200, "application/pdf", pdf},
		"https://example.org/t.csv":   {200, "text/csv", []byte("name,colour\nkettle,red\n")},
		"https://example.org/empty":   {200, "text/plain", []byte("   ")},
		"https://example.org/pic":     {200, "image/png", []byte("\x89PNG\r\n\x1a\n")},
		"https://example.org/big.pdf": {413, "", []byte(`{"error":"https://example.org/big.pdf is larger than 16 MiB: too large to import"}`)},
		"http://10.0.0.1/admin":       {403, "", []byte(`{"error":"http://10.0.0.1/admin: address 10.0.0.1 is private"}`)},
		"https://example.org/bad.pdf": {200, "application/pdf", []byte("%PDF-1.4 then nothing a PDF needs")},
	}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/fetch" || r.URL.Query().Get("raw") != "1" {
			http.NotFound(w, r)
			return
		}
		f, ok := served[r.URL.Query().Get("url")]
		if !ok {
			f = file{502, "", []byte(`{"error":"example.org answered HTTP 404 Not Found"}`)}
		}
		if f.status == 200 {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("X-Tinyrag-Content-Type", f.contentType)
			w.Header().Set("X-Tinyrag-Url", r.URL.Query().Get("url"))
		}
		w.WriteHeader(f.status)
		w.Write(f.body)
	}))
	defer proxy.Close()
	f := web.ProxyFetcher{Base: proxy.URL, Client: httpdo.NetHTTP{Client: proxy.Client()}}
	tests := []struct {
		url, wantTitle, wantText, wantErr string
	}{
		{"https://example.org/a", "A page", "Readable text about kettles.", ""},
		{"https://example.org/paper", "Hello fixture", "Hello from tinyRAG", ""},
		{"https://example.org/t.csv", "t.csv", "kettle", ""},
		{"ftp://example.org/a", "", "", "not a web address"},
		{"https://example.org/empty", "", "", "no readable text"},
		{"https://example.org/pic", "", "", "image/png"},
		{"https://example.org/big.pdf", "", "", "larger than 16 MiB"},
		{"http://10.0.0.1/admin", "", "", "is private"},
		{"https://example.org/gone", "", "", "HTTP 404"},
		{"https://example.org/bad.pdf", "", "", "PDF"},
	}
	for _, tc := range tests {
		in, err := URL(context.Background(), &importrun.Runner{}, f, tc.url)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("URL(%s) err = %v, want it to say %q", tc.url, err, tc.wantErr)
			}
			continue
		}
		if err != nil || in.Title != tc.wantTitle || !strings.Contains(in.Text, tc.wantText) || in.Source != tc.url || in.Type != "url" {
			t.Errorf("URL(%s) = %+v, %v; want title %q and text with %q", tc.url, in, err, tc.wantTitle, tc.wantText)
		}
	}
}
