package importer

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzImport holds every converter to the package contract on arbitrary
// bytes: no panic, and either a document with valid, non-empty UTF-8 text
// or an error wrapping one of the sentinel errors and naming the file.
func FuzzImport(f *testing.F) {
	seeds := map[string]string{
		"a.txt":   "plain",
		"a.md":    "---\ntitle: x\n---\n# H\n",
		"a.html":  articleHTML,
		"a.csv":   "a;b\n1;\"2\"\n",
		"a.json":  `{"a":[1,{"b":null}]}`,
		"a.jsonl": "{}\n[]\n",
		"a.xml":   `<a x="1"><b>t</b></a>`,
		"a.log":   "\x1b[1mbold\x1b[0m\n",
		"a.pdf":   string(textPDF("t", []string{"x"})),
	}
	for name, data := range seeds {
		f.Add(name, []byte(data))
	}
	sentinels := []error{ErrBinary, ErrTooLarge, ErrUnsupported, ErrEmpty, ErrMalformed, ErrEncrypted}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if name == "" || strings.ContainsAny(name, "\x00/\\") {
			return
		}
		doc, err := Import(name, data)
		if err != nil {
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error %q does not name %q", err, name)
			}
			return
		}
		if !utf8.ValidString(doc.Text) || strings.TrimSpace(doc.Text) == "" {
			t.Fatalf("bad text %q", doc.Text)
		}
	})
}

// FuzzImportPDF mutates real PDFs: the library reports many problems by
// panicking, and every one of them must come back as an error.
func FuzzImportPDF(f *testing.F) {
	f.Add(textPDF("t", []string{"a", "b"}, []string{"c"}))
	f.Add(onePagePDF(deflate("BT /F1 12 Tf [(x) -300 (y)] TJ ET"), "/Filter /FlateDecode"))
	f.Add(onePagePDF("BT /F1 12 Tf (Gr\\374\\337e) ' ET", ""))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Import("f.pdf", data)
		if err == nil && !utf8.ValidString(doc.Text) {
			t.Fatalf("invalid UTF-8 %q", doc.Text)
		}
		if err != nil && !strings.Contains(err.Error(), "f.pdf") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
