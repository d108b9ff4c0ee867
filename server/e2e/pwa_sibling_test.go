package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// On a host that sends files as they lie on disk, the service worker takes
// each wasm from its .gz sibling, but a sibling that is not its file —
// damaged, or left from another deploy — gives way to the file itself:
// the worker stores the bytes this version expects either way, and marks
// only those it inflated from a sibling (server/pwa/worker.js,
// fetchVerified).
func TestPWA_AWorkerTakesTheFileItselfWhenItsSiblingIsNotIt(t *testing.T) {
	site := newStaticHost(t)
	web := filepath.Join(site.out, "web")
	// nanoGo's sibling inflates to other bytes; the importer's does not
	// inflate at all; the Markdown renderer's is its own.
	var other bytes.Buffer
	zw := gzip.NewWriter(&other)
	zw.Write([]byte("not nanoGo's wasm"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(web, "nanogo.wasm.gz"), other.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(web, "importer.wasm.gz"), []byte("not gzip at all"), 0o644); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/sub/")
	waitOfflineReady(t, b)

	type stored struct {
		Size     int  `json:"size"`
		Inflated bool `json:"inflated"`
	}
	const storedJS = `(async () => {
	  const out = {};
	  for (const n of ["nanogo", "importer", "markdown"]) {
	    for (const k of await caches.keys()) {
	      const hit = await (await caches.open(k)).match(location.origin + "/sub/web/" + n + ".wasm");
	      if (hit) {
	        out[n] = {size: (await hit.arrayBuffer()).byteLength, inflated: hit.headers.has("X-Tinyrag-Inflated")};
	        break;
	      }
	    }
	  }
	  return JSON.stringify(out);
	})()`
	var got map[string]stored
	waitFor(t, 60*time.Second, "the three later wasm files stored", func() bool {
		got = nil
		if err := json.Unmarshal([]byte(eval[string](t, b, storedJS)), &got); err != nil {
			t.Fatal(err)
		}
		return len(got) == 3
	})
	for _, c := range []struct {
		name          string
		wantInflated  bool
		wantDownloads map[string]int
	}{
		{"nanogo", false, map[string]int{"/sub/web/nanogo.wasm.gz": 1, "/sub/web/nanogo.wasm": 1}},
		{"importer", false, map[string]int{"/sub/web/importer.wasm.gz": 1, "/sub/web/importer.wasm": 1}},
		{"markdown", true, map[string]int{"/sub/web/markdown.wasm.gz": 1, "/sub/web/markdown.wasm": 0}},
	} {
		fi, err := os.Stat(filepath.Join(web, c.name+".wasm"))
		if err != nil {
			t.Fatal(err)
		}
		if s := got[c.name]; s.Size != int(fi.Size()) || s.Inflated != c.wantInflated {
			t.Errorf("%s.wasm stored as %d bytes, inflated from its sibling %v; want %d bytes, %v", c.name, s.Size, s.Inflated, fi.Size(), c.wantInflated)
		}
		for p, want := range c.wantDownloads {
			if n := site.downloads(p); n != want {
				t.Errorf("%s downloaded %d times, want %d", p, n, want)
			}
		}
	}
	if errText := eval[string](t, b, `window.tinyragPWA.offlineError || ""`); errText != "" {
		t.Errorf("offline error %q", errText)
	}
}
