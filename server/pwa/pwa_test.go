package pwa

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWorker_RejectsListsTheWorkerCouldNotServe(t *testing.T) {
	ok := NewAsset("web/app.wasm", []byte("wasm"))
	tests := []struct {
		name   string
		assets []Asset
	}{
		{"absolute path (breaks sub-paths)", []Asset{{Path: "/web/app.wasm", SHA256: ok.SHA256}}},
		{"path leaving the base", []Asset{{Path: "../x", SHA256: ok.SHA256}}},
		{"another origin", []Asset{{Path: "https://cdn.example/x.js", SHA256: ok.SHA256}}},
		{"no checksum", []Asset{{Path: "web/x.js"}}},
		{"listed twice", []Asset{ok, ok}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Worker("v1", tt.assets); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := Worker("", []Asset{ok}); err == nil {
		t.Error("accepted an empty version")
	}
}

func TestWorker_EmbedsVersionAndSortedList(t *testing.T) {
	js, err := Worker("abc", []Asset{NewAsset("web/b.js", []byte("b")), NewAsset("/", []byte("page")), NewAsset("app.js", []byte("a"))})
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	if !strings.Contains(s, `const VERSION = "abc";`) {
		t.Error("version missing")
	}
	i, j, k := strings.Index(s, `"path": ""`), strings.Index(s, `"path": "app.js"`), strings.Index(s, `"path": "web/b.js"`)
	if i < 0 || j < i || k < j {
		t.Errorf("list not sorted or incomplete: %d %d %d", i, j, k)
	}
	for _, forbidden := range []string{"skipWaiting();\n  });", "{{"} {
		if strings.Contains(s, forbidden) {
			t.Errorf("worker contains %q", forbidden)
		}
	}
}

func TestVersion_ChangesWithAnyByteOrTheReleaseLabel(t *testing.T) {
	base := []Asset{NewAsset("", []byte("page")), NewAsset("web/app.wasm", []byte("wasm"))}
	v := Version(base, "")
	if Version([]Asset{base[1], base[0]}, "") != v {
		t.Error("order of the list changed the version")
	}
	changed := []Asset{base[0], NewAsset("web/app.wasm", []byte("wasm2"))}
	if Version(changed, "") == v {
		t.Error("a changed file kept the version")
	}
	if Version(base, "B") == v {
		t.Error("a release label kept the version")
	}
	// The same bytes stored at another time are another worker script: a
	// script that changed under the same version would install over the
	// running version's cache.
	later := []Asset{base[0], base[1]}
	later[1].Later = true
	if Version(later, "") == v {
		t.Error("marking a file as stored later kept the version")
	}
}

func TestManifest_IsRelativeSoItWorksUnderASubPath(t *testing.T) {
	b, err := Manifest(App{Name: "tinyRAG", ShortName: "tinyRAG", Icons: []Icon{{Src: "web/icons/icon-192.png", Sizes: "192x192", Type: "image/png"}}})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"start_url", "scope", "id"} {
		if m[k] != "./" {
			t.Errorf("%s = %v, want ./", k, m[k])
		}
	}
	if strings.Contains(string(b), `"/`) {
		t.Errorf("manifest has an absolute URL: %s", b)
	}
}
