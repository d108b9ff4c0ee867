package importer

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// onePagePDF is a document with a single page whose content stream is
// content, built through pdfDoc so offsets are right. streamDict adds
// entries (a /Filter) to the content stream's dictionary.
func onePagePDF(content, streamDict string) []byte {
	return pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		pdfStream(streamDict, content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}, "")
}

func deflate(s string) string {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func TestImport_PDFTextAndTitle(t *testing.T) {
	tests := []struct {
		name      string
		pdf       []byte
		wantTitle string
		wantText  string
	}{
		{
			name:      "two pages, lines by Td, title from Info",
			pdf:       textPDF("Quarterly Report", []string{"Revenue grew 12%", "Costs fell"}, []string{"Outlook: stable"}),
			wantTitle: "Quarterly Report",
			wantText:  "Revenue grew 12%\nCosts fell\n\nOutlook: stable",
		},
		{
			name:      "TJ kerning: large gaps are spaces, small ones are not",
			pdf:       onePagePDF("BT /F1 12 Tf [(Hel) 20 (lo) -400 (World)] TJ ET", ""),
			wantTitle: "doc.pdf",
			wantText:  "Hello World",
		},
		{
			name:      "WinAnsi bytes decoded",
			pdf:       onePagePDF("BT /F1 12 Tf (Gr\\374\\337e \\200 5) Tj ET", ""),
			wantTitle: "doc.pdf",
			wantText:  "Grüße € 5",
		},
		{
			name:      "flate-compressed content stream",
			pdf:       onePagePDF(deflate("BT /F1 12 Tf 72 700 Td (compressed text) Tj T* (next) Tj ET"), "/Filter /FlateDecode"),
			wantTitle: "doc.pdf",
			wantText:  "compressed text\nnext",
		},
		{
			name:      "PDF 2.0 header accepted",
			pdf:       bytes.Replace(textPDF("v2", []string{"two point oh"}), []byte("%PDF-1.4"), []byte("%PDF-2.0"), 1),
			wantTitle: "v2",
			wantText:  "two point oh",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("doc.pdf", tt.pdf)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Type != TypePDF || doc.Title != tt.wantTitle || doc.Text != tt.wantText {
				t.Errorf("got type %q title %q text %q; want pdf, %q, %q", doc.Type, doc.Title, doc.Text, tt.wantTitle, tt.wantText)
			}
		})
	}
}

func TestImport_PDFPageTreeQuirks(t *testing.T) {
	tests := []struct {
		name string
		objs []string
		want string
	}{
		{
			// The library's resource lookup would follow /Parent forever.
			name: "page that is its own parent",
			objs: []string{
				"<< /Type /Catalog /Pages 2 0 R >>",
				"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
				"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>",
				pdfStream("", "BT (still read) Tj ET"),
			},
			want: "still read",
		},
		{
			name: "font resources inherited from the page tree",
			objs: []string{
				"<< /Type /Catalog /Pages 2 0 R >>",
				"<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 5 0 R >> >> >>",
				"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
				pdfStream("", "BT /F1 9 Tf (\\200 5) Tj ET"),
				"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
			},
			want: "€ 5", // WinAnsi; without the inherited font it would be U+0080
		},
		{
			name: "nested page tree nodes keep document order",
			objs: []string{
				"<< /Type /Catalog /Pages 2 0 R >>",
				"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
				"<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] /Count 1 >>",
				"<< /Type /Page /Parent 3 0 R /Contents 5 0 R >>",
				pdfStream("", "BT (first) Tj ET"),
				"<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>",
				pdfStream("", "BT (second) Tj ET"),
			},
			want: "first\n\nsecond",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("tree.pdf", pdfDoc(tt.objs, ""))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("Text = %q, want %q", doc.Text, tt.want)
			}
		})
	}
}

func TestImport_PDFOneBrokenPageIsMarkedNotFatal(t *testing.T) {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
		pdfStream("", "BT (good page) Tj ET"),
		"<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>",
		pdfStream("/Filter /NoSuchFilter", "garbage"),
	}
	doc, err := Import("mixed.pdf", pdfDoc(objs, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.Text, "good page\n\n[page 2 could not be read:") {
		t.Errorf("Text = %q, want page 1 text then a marker for page 2", doc.Text)
	}
}

func TestImport_BadPDFsAreClearErrors(t *testing.T) {
	valid := textPDF("t", []string{"hello"})
	encrypted := pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
		pdfStream("", "BT (secret) Tj ET"),
		"<< /Filter /Standard /V 1 /R 2 /P -4 /O <" + strings.Repeat("ab", 32) + "> /U <" + strings.Repeat("cd", 32) + "> >>",
	}, "/Encrypt 5 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]")
	tests := []struct {
		name    string
		data    []byte
		want    error
		wantMsg string
	}{
		{"truncated", valid[:len(valid)/2], ErrMalformed, "PDF"},
		{"not a PDF at all", []byte("hello, I am text"), ErrMalformed, "missing %PDF- header"},
		{"garbage after header", []byte("%PDF-1.4\n" + strings.Repeat("\x01\x02\xff", 100) + "\n%%EOF\n"), ErrMalformed, "startxref"},
		{"wrong startxref offset", bytes.Replace(valid, []byte("startxref\n"), []byte("startxref\n1"), 1), ErrMalformed, "PDF"},
		{"encrypted with a user password", encrypted, ErrEncrypted, "password"},
		{"image-only PDF has no text layer", onePagePDF("q 100 0 0 100 0 0 cm Q", ""), ErrEmpty, "OCR"},
		{"every page broken", onePagePDF("x", "/Filter /NoSuchFilter"), ErrMalformed, "no page could be read"},
		{"page tree contains itself", pdfDoc([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
		}, ""), ErrMalformed, "cyclic"},
		{"no page tree", pdfDoc([]string{"<< /Type /Catalog >>"}, ""), ErrMalformed, "no page tree"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import("bad.pdf", tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), "bad.pdf") || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to name bad.pdf and say %q", err, tt.wantMsg)
			}
		})
	}
}

func TestImport_PDFTextIsBounded(t *testing.T) {
	withTextLimit(t, 1000)
	var c strings.Builder
	c.WriteString("BT /F1 12 Tf\n")
	for i := range 200 {
		fmt.Fprintf(&c, "(line %d of a long page) Tj T*\n", i)
	}
	c.WriteString("ET")
	_, err := Import("long.pdf", onePagePDF(c.String(), ""))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestImport_PDFFixtureFiles(t *testing.T) {
	tests := []struct {
		file     string
		wantErr  error
		wantText string
	}{
		{"hello.pdf", nil, "Hello from tinyRAG"},
		{"broken.pdf", ErrMalformed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Import(tt.file, data)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(doc.Text, tt.wantText) {
				t.Errorf("Text = %q, want it to contain %q", doc.Text, tt.wantText)
			}
		})
	}
}
