package importer

import (
	"fmt"
	"strings"
	"testing"
)

// benchInputs builds inputs of about size bytes per format. Comparing the
// MB/s of the 1 MiB and 8 MiB runs shows whether a converter stays linear.
func benchInputs(size int) map[string][]byte {
	grow := func(head, item func(i int) string, tail string) []byte {
		var b strings.Builder
		b.WriteString(head(0))
		for i := 0; b.Len() < size; i++ {
			if i > 0 && item(-1) != "" {
				b.WriteString(item(-1))
			}
			b.WriteString(item(i))
		}
		b.WriteString(tail)
		return []byte(b.String())
	}
	none := func(int) string { return "" }
	return map[string][]byte{
		"big.txt": grow(none, func(i int) string {
			if i < 0 {
				return ""
			}
			return "A line of ordinary prose for the benchmark.\n"
		}, ""),
		"big.csv": grow(func(int) string { return "id;name;note\n" }, func(i int) string {
			if i < 0 {
				return ""
			}
			return fmt.Sprintf("%d;item %d;\"quoted; with delimiter\"\n", i, i)
		}, ""),
		"big.json": grow(func(int) string { return `{"items": [` }, func(i int) string {
			if i < 0 {
				return ","
			}
			return fmt.Sprintf(`{"id": %d, "tags": ["a", "b"], "meta": {"ok": true}}`, i)
		}, "]}"),
		"big.xml": grow(func(int) string { return "<root>" }, func(i int) string {
			if i < 0 {
				return ""
			}
			return fmt.Sprintf(`<item id="%d"><name>n%d</name><v>text &amp; more</v></item>`, i, i)
		}, "</root>"),
		"big.html": grow(func(int) string { return "<html><head><title>B</title></head><body><article>" }, func(i int) string {
			if i < 0 {
				return ""
			}
			return fmt.Sprintf("<p>Paragraph %d of the article, with <b>some</b> markup and a <a href=\"/x\">link</a>.</p>\n", i)
		}, "</article></body></html>"),
		"big.log": grow(none, func(i int) string {
			if i < 0 {
				return ""
			}
			return fmt.Sprintf("\x1b[32mINFO\x1b[0m request %d served in 3ms\n", i)
		}, ""),
	}
}

func BenchmarkImport(b *testing.B) {
	for _, size := range []int{1 << 20, 8 << 20} {
		for name, data := range benchInputs(size) {
			b.Run(fmt.Sprintf("%s/%dMiB", name, size>>20), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := Import(name, data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkImportPDF(b *testing.B) {
	for _, pages := range []int{10, 80} {
		lines := make([]string, 40)
		for i := range lines {
			lines[i] = fmt.Sprintf("Line %d of a benchmark page with some words on it", i)
		}
		all := make([][]string, pages)
		for i := range all {
			all[i] = lines
		}
		data := textPDF("bench", all...)
		b.Run(fmt.Sprintf("%dpages", pages), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Import("bench.pdf", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
