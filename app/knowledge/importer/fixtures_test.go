package importer

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated PDF fixtures in testdata")

// TestWritePDFFixtures regenerates testdata/hello.pdf and testdata/broken.pdf
// with -update; the committed files are what the other tests read.
func TestWritePDFFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate the PDF fixtures")
	}
	hello := textPDF("Hello fixture", []string{"Hello from tinyRAG", "A tiny hand-written PDF."}, []string{"Second page."})
	broken := hello[:len(hello)*2/3] // cut mid-file: no xref, no %%EOF
	for name, data := range map[string][]byte{"hello.pdf": hello, "broken.pdf": broken} {
		if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
