//go:build !js

package importrun_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tinyrag/app/internal/wasmtest"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importrun"
)

// importCase is one import and what the native importer makes of it; the
// browser side (worker_js_test.go) must get the same through the worker.
type importCase struct {
	Name        string
	URL         string // set: a fetched body (Fetched), else a file (File)
	ContentType string
	Data        []byte
	Want        knowledge.Input
	WantErr     string
}

func cases(t *testing.T) []importCase {
	pdf, err := os.ReadFile("../importer/testdata/hello.pdf")
	if err != nil {
		t.Fatal(err)
	}
	broken, err := os.ReadFile("../importer/testdata/broken.pdf")
	if err != nil {
		t.Fatal(err)
	}
	page := []byte(`<!doctype html><html lang="de"><head><meta charset="windows-1252"><title>Kessel</title></head><body>
<nav>Menu Home About</nav><article><h1>Wasserkessel</h1><p>Ein Kessel bringt Wasser zum Kochen. Gr` + "\xfc" + `n ist er auch.</p>
<p>Er schaltet sich ab, wenn das Wasser kocht, und das ist gut so, sagen die Leute, die ihn benutzen.</p></article>
<footer>Impressum</footer></body></html>`)
	cs := []importCase{
		{Name: "notes/alpha.md", Data: []byte("# Alpha\n\nSome text about alpha.\n\n## Beta\n\nMore.")},
		{Name: "page.html", Data: page},
		{Name: "hello.pdf", Data: pdf},
		{Name: "table.csv", Data: []byte("name,colour\nkettle,green\npot,black\n")},
		{Name: "latin1.txt", Data: []byte("Gr\xfc\xdfe aus K\xf6ln")},
		{Name: "image.png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")},
		{Name: "broken.pdf", Data: broken},
		{URL: "https://docs.example.org/kettle", ContentType: "text/html; charset=windows-1252", Data: page},
		{URL: "https://docs.example.org/files/hello.pdf", ContentType: "application/pdf", Data: pdf},
	}
	native := &importrun.Runner{}
	for i := range cs {
		c := &cs[i]
		var in knowledge.Input
		var err error
		if c.URL != "" {
			in, err = native.Fetched(context.Background(), c.URL, c.ContentType, c.Data)
		} else {
			in, err = native.File(context.Background(), c.Name, c.Data)
		}
		if err != nil {
			c.WantErr = err.Error()
		} else {
			c.Want = in
		}
	}
	return cs
}

// TestWorkerInChromium imports the cases above through the importer worker
// (assets/go-worker.js and importer.wasm) in a real Chromium, where
// the app runs them, and expects what the native importer gives.
func TestWorkerInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two wasm binaries and starts Chromium")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "importer.wasm")
	wasmtest.Build(t, wasm, "./wasm/importer")
	body, err := json.Marshal(cases(t))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(wasmtest.ModuleRoot(t), "assets", "go-worker.js")
	mux := http.NewServeMux()
	mux.HandleFunc("/x/cases.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	mux.HandleFunc("/x/go-worker.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, script)
	})
	mux.HandleFunc("/x/importer.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, wasm)
	})
	wasmtest.RunTests(t, wasmtest.Tests{Pkg: "./app/knowledge/importrun", Timeout: 3 * time.Minute, Handler: mux})
}

func TestFile_NativeImportsInProcess(t *testing.T) {
	run := &importrun.Runner{}
	in, err := run.File(context.Background(), "a.md", []byte("# Alpha\n\ntext"))
	if err != nil || in.Title != "Alpha" || in.Type != "markdown" || in.Source != "a.md" {
		t.Errorf("File = %+v, %v", in, err)
	}
	if _, err := run.File(context.Background(), "x.png", []byte("\x89PNG\r\n\x1a\n\x00\x00")); err == nil {
		t.Error("a PNG imported without error")
	}
}
