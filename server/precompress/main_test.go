package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestCompress_WasmAtTheBestSettingAndCachedByContent(t *testing.T) {
	set := settings{text: 5, wasm: 11, cacheDir: t.TempDir()}
	cacheDir := set.cacheDir
	b := []byte(strings.Repeat("tinyRAG wasm bytes, repeated; ", 4000))

	_, br, err := set.variants("app.wasm", b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("brotli round trip: %v, equal %v", err, bytes.Equal(got, b))
	}
	for _, pattern := range []string{"*-q11-w24.br", "*-q11-w24.gz"} {
		if m, _ := filepath.Glob(filepath.Join(cacheDir, pattern)); len(m) != 1 {
			t.Errorf("cache has %v for %s, want one file", m, pattern)
		}
	}

	// The same content comes from the cache, not a new compression.
	m, _ := filepath.Glob(filepath.Join(cacheDir, "*-q11-w24.br"))
	if err := os.WriteFile(m[0], []byte("cached"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, br, _ := set.variants("other-name.wasm", b); string(br) != "cached" {
		t.Errorf("second compression of the same wasm did not use the cache")
	}

	// Other files keep their own quality and cache key.
	if _, _, err := set.variants("style.css", b); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(cacheDir, "*-q5-w0.br")); len(m) != 1 {
		t.Errorf("a .css file was not compressed at the text quality: %v", m)
	}
}
