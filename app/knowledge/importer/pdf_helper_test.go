package importer

import (
	"fmt"
	"strings"
)

// pdfDoc writes a PDF file from object bodies (object i+1 is objs[i]) with
// a correct cross-reference table, so fixtures can be built by hand and
// still point at the right byte offsets. trailer is extra trailer entries.
func pdfDoc(objs []string, trailer string) []byte {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return []byte(b.String())
}

// pdfStream is a stream object body holding content uncompressed.
func pdfStream(dict, content string) string {
	return fmt.Sprintf("<< /Length %d %s >>\nstream\n%s\nendstream", len(content), dict, content)
}

// textPDF builds a document with one page per entry of pages, each line of
// a page drawn with its own Td, and an Info dictionary carrying title.
func textPDF(title string, pages ...[]string) []byte {
	// 1 catalog, 2 page tree, 3 font, 4 info, then page and content pairs.
	kids := make([]string, len(pages))
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // filled below
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Title (%s) /Producer (importer test) >>", title),
	}
	for i, lines := range pages {
		pageObj := len(objs) + 1
		kids[i] = fmt.Sprintf("%d 0 R", pageObj)
		var c strings.Builder
		c.WriteString("BT /F1 12 Tf 72 720 Td\n")
		for j, l := range lines {
			if j > 0 {
				c.WriteString("0 -16 Td\n")
			}
			fmt.Fprintf(&c, "(%s) Tj\n", l)
		}
		c.WriteString("ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", pageObj+1),
			pdfStream("", c.String()))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	return pdfDoc(objs, "/Info 4 0 R")
}
