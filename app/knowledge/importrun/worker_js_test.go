//go:build js && wasm

package importrun_test

import (
	"context"
	"encoding/json"
	"io"
	"syscall/js"
	"testing"
	"time"

	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importrun"
)

type importCase struct {
	Name        string
	URL         string
	ContentType string
	Data        []byte
	Want        knowledge.Input
	WantErr     string
}

// TestWorker_ImportsAsTheNativeImporterDoes runs in Chromium through
// TestWorkerInChromium (browser_test.go), which serves the cases and what
// the native importer made of them.
func TestWorker_ImportsAsTheNativeImporterDoes(t *testing.T) {
	if js.Global().Get("Worker").IsUndefined() {
		t.Skip("needs Web Workers: runs in Chromium through TestWorkerInChromium")
	}
	run := &importrun.Runner{Script: "/x/go-worker.js?wasm=importer.wasm"}
	req, _ := httpdo.NewRequest(context.Background(), "GET", "/x/cases.json", nil)
	req.URL.Scheme, req.URL.Host = "http", js.Global().Get("location").Get("host").String()
	resp, err := httpdo.Or(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var cases []importCase
	if err != nil || json.Unmarshal(b, &cases) != nil || len(cases) == 0 {
		t.Fatalf("reading the cases: %v (%d bytes)", err, len(b))
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var in knowledge.Input
		if c.URL != "" {
			in, err = run.Fetched(ctx, c.URL, c.ContentType, c.Data)
		} else {
			in, err = run.File(ctx, c.Name, c.Data)
		}
		cancel()
		label := c.Name + c.URL
		switch {
		case c.WantErr != "":
			if err == nil || err.Error() != c.WantErr {
				t.Errorf("%s: err = %v, want %q", label, err, c.WantErr)
			}
		case err != nil:
			t.Errorf("%s: %v, want %+v", label, err, c.Want)
		case in != c.Want:
			t.Errorf("%s:\n got %+v\nwant %+v", label, in, c.Want)
		}
	}
}
