package importer

import (
	"errors"
	"strings"
	"testing"
)

func TestFromFetched_ContentTypeThenURLPicksTheFormat(t *testing.T) {
	tests := []struct {
		name, url, contentType, body string
		wantType, wantTitle, want    string
	}{
		{
			name: "html page", url: "https://example.org/guide/", contentType: "text/html; charset=utf-8",
			body:     "<html lang=en><head><title>Guide</title></head><body><p>Read me.</p></body></html>",
			wantType: TypeHTML, wantTitle: "Guide", want: "Read me.",
		},
		{
			name: "raw markdown served as text/plain keeps structure", url: "https://raw.example.org/repo/README.md",
			contentType: "text/plain; charset=utf-8", body: "# Repo\n\nUsage.",
			wantType: TypeMarkdown, wantTitle: "Repo", want: "# Repo\n\nUsage.",
		},
		{
			name: "proxy text that looks like html stays text", url: "https://example.org/page.html",
			contentType: "text/plain", body: "<b> is how you write bold",
			wantType: TypeText, wantTitle: "page.html", want: "<b> is how you write bold",
		},
		{
			name: "json api with vendor type", url: "https://api.example.org/v1/items?id=3",
			contentType: "application/vnd.api+json", body: `{"name": "x"}`,
			wantType: TypeJSON, wantTitle: "items", want: "name: x\n",
		},
		{
			name: "atom feed", url: "https://example.org/feed", contentType: "application/atom+xml",
			body:     `<feed><title>News</title></feed>`,
			wantType: TypeXML, wantTitle: "News", want: "feed/title: News\n",
		},
		{
			name: "csv by media type", url: "https://example.org/export", contentType: "text/csv",
			body: "a,b\n1,2\n", wantType: TypeCSV, wantTitle: "export", want: "a: 1; b: 2\n",
		},
		{
			name: "octet-stream pdf by magic", url: "https://example.org/download?id=9", contentType: "application/octet-stream",
			body:     string(textPDF("Spec", []string{"pdf body"})),
			wantType: TypePDF, wantTitle: "Spec", want: "pdf body",
		},
		{
			name: "declared latin-1 charset", url: "https://example.org/", contentType: "text/plain; charset=ISO-8859-1",
			body: "Gr\xfc\xdfe", wantType: TypeText, wantTitle: "example.org", want: "Grüße",
		},
		{
			name: "declared shift_jis charset", url: "https://example.jp/a.txt", contentType: "text/plain; charset=Shift_JIS",
			body: "\x93\xfa\x96\x7b", wantType: TypeText, wantTitle: "a.txt", want: "日本",
		},
		{
			name: "no content type, sniffed", url: "https://example.org/x", contentType: "",
			body: "<!doctype html><title>T</title><p>hi</p>", wantType: TypeHTML, wantTitle: "T", want: "hi",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := FromFetched(tt.url, tt.contentType, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Type != tt.wantType || doc.Title != tt.wantTitle || doc.Source != tt.url {
				t.Errorf("Type %q Title %q Source %q; want %q %q %q", doc.Type, doc.Title, doc.Source, tt.wantType, tt.wantTitle, tt.url)
			}
			if !strings.Contains(doc.Text, tt.want) {
				t.Errorf("Text = %q, want it to contain %q", doc.Text, tt.want)
			}
		})
	}
}

func TestFromFetched_BadBodiesNameTheURL(t *testing.T) {
	tests := []struct {
		name, url, contentType string
		body                   []byte
		want                   error
	}{
		{"image", "https://example.org/cat.jpg", "image/jpeg", []byte{0xff, 0xd8, 0xff}, ErrUnsupported},
		{"zip by extension", "https://example.org/a.zip", "application/octet-stream", []byte("PK\x03\x04"), ErrUnsupported},
		{"binary without hints", "https://example.org/blob", "application/octet-stream", []byte("\x00\x01\x02"), ErrBinary},
		{"empty", "https://example.org/empty", "text/plain", nil, ErrEmpty},
		{"invalid json", "https://example.org/api", "application/json", []byte("{"), ErrMalformed},
		{"too large", "https://example.org/huge", "text/plain", make([]byte, DefaultLimit+1), ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromFetched(tt.url, tt.contentType, tt.body)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.url) {
				t.Errorf("err = %q does not name the URL", err)
			}
		})
	}
}
