package ui

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/web"
)

func TestFileInputs_ImportsTextAndListsWhatItSkips(t *testing.T) {
	files := []fileData{
		{Name: "notes/a.md", Data: []byte("# Alpha\n\nSome text about alpha.")},
		{Name: "b.txt", Data: []byte("Plain beta text.")},
		{Name: "img.png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")},
		{Name: "empty.txt", Data: []byte("   \n")},
		{Name: "gone.txt", Err: "could not be read"},
	}
	ins, skipped := fileInputs(files)
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
			in, err := pastedInput(tc.title, tc.text, now)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err == nil && (in.Title != tc.wantTitle || !strings.HasPrefix(in.Source, "pasted:2026")) {
				t.Errorf("input = %+v", in)
			}
		})
	}
}

func TestURLInput_ThroughTheProxyAndBadAddresses(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/fetch" {
			http.NotFound(w, r)
			return
		}
		if strings.Contains(r.URL.Query().Get("url"), "empty") {
			w.Write([]byte(`{"url":"https://example.org/empty","title":"E","text":"  "}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"url":"https://example.org/a","title":"A page","content_type":"text/html","text":"Readable text."}`))
	}))
	defer proxy.Close()
	f := web.ProxyFetcher{Base: proxy.URL, Client: proxy.Client()}
	tests := []struct {
		url, wantTitle, wantErr string
	}{
		{"https://example.org/a", "A page", ""},
		{"ftp://example.org/a", "", "not a web address"},
		{"https://example.org/empty", "", "no readable text"},
	}
	for _, tc := range tests {
		in, err := urlInput(context.Background(), f, tc.url)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("urlInput(%s) err = %v, want %q", tc.url, err, tc.wantErr)
			}
			continue
		}
		if err != nil || in.Title != tc.wantTitle || in.Source != tc.url || in.Type != "url" {
			t.Errorf("urlInput(%s) = %+v, %v", tc.url, in, err)
		}
	}
}

func TestProgressText_ShowsRateAndTimeLeft(t *testing.T) {
	tests := []struct {
		p    knowledge.Progress
		lang string
		want string
	}{
		{knowledge.Progress{Done: 0, Total: 10}, "en", "0 / 10"},
		{knowledge.Progress{Done: 20, Total: 100, Rate: 10}, "en", "20 / 100 · 10/s · 8s left"},
		{knowledge.Progress{Done: 20, Total: 100, Rate: 10}, "de", "20 / 100 · 10/s · 8s übrig"},
		{knowledge.Progress{Done: 100, Total: 100, Rate: 50}, "en", "100 / 100 · 50/s"},
	}
	for _, tc := range tests {
		if got := progressText(tc.lang, tc.p); got != tc.want {
			t.Errorf("progressText(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestSanitizeMarks_KeepsOnlyMark(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a <mark>zebra</mark> b", "a <mark>zebra</mark> b"},
		{"<script>x</script><mark>y</mark>", "&lt;script&gt;x&lt;/script&gt;<mark>y</mark>"},
		{"<mark onclick=x>y</mark>", "&lt;mark onclick=x&gt;y</mark>"},
	}
	for _, tc := range tests {
		if got := sanitizeMarks(tc.in); got != tc.want {
			t.Errorf("sanitizeMarks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int]string{12: "12 B", 2048: "2 KB", 3 << 20: "3.0 MB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
