package importer

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestImport_PicksTypeByExtensionThenContent(t *testing.T) {
	tests := []struct {
		name, file, data, wantType string
	}{
		{"txt extension", "notes.txt", "# not markdown because .txt", TypeText},
		{"md extension", "README.md", "plain words", TypeMarkdown},
		{"upper-case extension", "PAGE.HTM", "<p>hi</p>", TypeHTML},
		{"tsv is csv", "t.tsv", "a\tb\n1\t2\n", TypeCSV},
		{"jsonl is json", "x.jsonl", "{\"a\":1}\n", TypeJSON},
		{"rss is xml", "feed.rss", "<rss><title>t</title></rss>", TypeXML},
		{"log", "server.log", "started", TypeLog},
		{"rotated log", "server.log.3", "started", TypeLog},
		{"source code is text", "main.go", "package main", TypeText},
		{"no extension, html doctype", "page", "<!DOCTYPE html><html><body><p>hi</p></body></html>", TypeHTML},
		{"no extension, xml prolog", "data", "<?xml version=\"1.0\"?><a>x</a>", TypeXML},
		{"no extension, xhtml prolog", "data", "<?xml version=\"1.0\"?><html><body>x</body></html>", TypeHTML},
		{"no extension, json object", "data", " {\"k\": [1, 2]}", TypeJSON},
		{"no extension, brace but not json", "data", "{ this is prose }", TypeText},
		{"no extension, markdown heading", "NOTES", "# Heading\n\nbody", TypeMarkdown},
		{"no extension, front matter", "post", "---\ntitle: x\n---\nbody", TypeMarkdown},
		{"unknown extension, prose", "Makefile", "all:\n\tgo build", TypeText},
		{"no extension, pdf magic", "blob", string(textPDF("t", []string{"x"})), TypePDF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import(tt.file, []byte(tt.data))
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if doc.Type != tt.wantType {
				t.Errorf("Type = %q, want %q", doc.Type, tt.wantType)
			}
			if doc.Source != tt.file {
				t.Errorf("Source = %q, want %q", doc.Source, tt.file)
			}
		})
	}
}

func TestImport_DecodesEncodingsToUTF8(t *testing.T) {
	utf16le := []byte{0xFF, 0xFE}
	for _, r := range "Grüße €" {
		utf16le = append(utf16le, byte(r), byte(r>>8))
	}
	utf16be := []byte{0xFE, 0xFF}
	for _, r := range "Grüße €" {
		utf16be = append(utf16be, byte(r>>8), byte(r))
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"utf-8 as is", []byte("Grüße €"), "Grüße €"},
		{"utf-8 BOM stripped", append([]byte{0xEF, 0xBB, 0xBF}, "Grüße"...), "Grüße"},
		{"utf-16le BOM", utf16le, "Grüße €"},
		{"utf-16be BOM", utf16be, "Grüße €"},
		{"latin-1", []byte("Gr\xfc\xdfe"), "Grüße"},
		{"windows-1252 quotes and euro", []byte("\x93quoted\x94 \x80"), "\u201cquoted\u201d €"},
		{"CRLF and CR become LF", []byte("a\r\nb\rc"), "a\nb\nc"},
		{"stray control characters dropped", []byte("a\x01b\x7fc and enough text around them"), "abc and enough text around them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("f.txt", tt.data)
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if doc.Text != tt.want {
				t.Errorf("Text = %q, want %q", doc.Text, tt.want)
			}
		})
	}
}

func TestImport_BadInputErrorsNameTheFile(t *testing.T) {
	controls := bytes.Repeat([]byte{0x01, 0x02, 'a'}, 100)
	tests := []struct {
		name, file string
		data       []byte
		want       error
		wantMsg    string
	}{
		{"NUL byte is binary", "blob.bin", []byte("abc\x00def"), ErrBinary, "NUL byte at offset 3"},
		{"mostly control characters is binary", "x.txt", controls, ErrBinary, "control characters"},
		{"binary even with text extension", "image.md", []byte("\x89PNG\r\n\x1a\n\x00\x00"), ErrBinary, "image.md"},
		{"empty file", "empty.txt", nil, ErrEmpty, "empty.txt"},
		{"whitespace only", "blank.md", []byte(" \n\t\n"), ErrEmpty, "blank.md"},
		{"office document", "report.docx", []byte("PK\x03\x04"), ErrUnsupported, "Word document"},
		{"image", "photo.JPG", []byte{0xff, 0xd8}, ErrUnsupported, "photo.JPG"},
		{"over the default limit", "big.txt", bytes.Repeat([]byte("a"), int(DefaultLimit)+1), ErrTooLarge, "big.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import(tt.file, tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.file) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to name %q and say %q", err, tt.file, tt.wantMsg)
			}
		})
	}
}

// countingReader records how much was read, to prove ImportReader stops.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestImportReader_StopsReadingPastTheLimit(t *testing.T) {
	tests := []struct {
		name    string
		size    int64
		limit   int64
		wantErr error
	}{
		{"under the limit", 100, 1000, nil},
		{"exactly the limit", 1000, 1000, nil},
		{"one byte over", 1001, 1000, ErrTooLarge},
		{"far over", 1 << 20, 1000, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cr := &countingReader{r: io.LimitReader(neverEnding('x'), tt.size)}
			doc, err := ImportReader("in.txt", cr, tt.limit)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if cr.n > tt.limit+1 {
				t.Errorf("read %d bytes, want at most limit+1 = %d", cr.n, tt.limit+1)
			}
			if err == nil && int64(len(doc.Text)) != tt.size {
				t.Errorf("len(Text) = %d, want %d", len(doc.Text), tt.size)
			}
		})
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestImportReader_ZeroLimitMeansDefault(t *testing.T) {
	cr := &countingReader{r: neverEnding('x')}
	_, err := ImportReader("endless.txt", cr, 0)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if cr.n > DefaultLimit+int64(64<<10) {
		t.Errorf("read %d bytes from an endless reader, want about DefaultLimit", cr.n)
	}
}

func TestImport_TitleFallsBackToFileName(t *testing.T) {
	doc, err := Import("dir/sub/notes.txt", []byte("first line"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "notes.txt" {
		t.Errorf("Title = %q, want notes.txt", doc.Title)
	}
}

func TestImport_LogStripsANSIAndKeepsLines(t *testing.T) {
	in := "\x1b[32mINFO\x1b[0m started\r\n\x1b]0;title\x07\x1b[1;31mERROR\x1b[m failed: \x1b[Kdisk\n\x1b(Bplain\n\x1b]8;;unterminated\nnext line\n"
	// The unterminated OSC string ends at its line, which stays (empty).
	want := "INFO started\nERROR failed: disk\nplain\n\nnext line\n"
	doc, err := Import("app.log", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
}
