// Package pwa generates what makes tinyRAG an installable, offline-first
// web app: the service worker script and the web app manifest. `tinyrag
// serve` serves them and a static export writes them; both call the same
// functions, so both behave alike.
//
// Why our own service worker and not go-app's: go-app's worker precaches a
// fixed list without waiting for it (install succeeds even if the list
// failed), activates every new version at once (skipWaiting and
// clients.claim) under pages still running the old wasm, and answers from
// any version's cache. Ours installs a version only when every file arrived
// whole, waits for the user to choose to reload, and serves each page from
// its own version's cache alone.
//
// Every URL is relative to the worker's scope (the folder it is served
// from), so the same script works at / and under a sub-path.
package pwa

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

//go:embed worker.js
var workerTemplate string

// Asset is one file the worker stores at install.
type Asset struct {
	// Path is relative to the app's base URL, without a leading slash:
	// "" is the page itself, "web/app.wasm" the app's wasm. It may carry
	// a query ("bundles/site?v=SUM"): requests match it with or without.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of the file's bytes (decoded, as the
	// browser hands them to the worker).
	SHA256 string `json:"sha256"`
	// Later marks a large file the page loads only on first use (nanoGo's
	// and the importers' wasm). A first install leaves it out, so that it
	// does not share a slow line with app.wasm; the worker stores it once
	// the page reports the app ready, or when the page first asks for it.
	// An update installs it with the rest: the running app is not waiting.
	Later bool `json:"later,omitempty"`
	// Gzip marks a file with a gzip sibling beside it (Path + ".gz"),
	// which the worker asks for instead when the host sends the file as
	// it lies on disk, without Content-Encoding (worker.js,
	// fetchVerified).
	Gzip bool `json:"gz,omitempty"`
}

// NewAsset describes the file at path with the given content.
func NewAsset(path string, content []byte) Asset {
	return Asset{Path: strings.TrimPrefix(path, "/"), SHA256: Sum(content)}
}

// Sum is the hex SHA-256 of b, as Asset.SHA256 wants it.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Version names one release of the app: it hashes every asset's path,
// content and Later flag, the worker script's template, plus extra (a
// release label), so it changes when any byte of the worker or of what it
// stores does. (A worker script that changed under the same version would
// install over the cache the running version uses.)
func Version(assets []Asset, extra string) string {
	sorted := append([]Asset(nil), assets...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	h := sha256.New()
	for _, a := range sorted {
		fmt.Fprintf(h, "%s\x00%s\x00%t\n", a.Path, a.SHA256, a.Later)
	}
	fmt.Fprintf(h, "worker\x00%s\n", Sum([]byte(workerTemplate)))
	fmt.Fprintf(h, "extra\x00%s\n", extra)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Worker returns the service worker script for one version holding the
// given assets. Paths must be relative (no leading slash, no "..").
func Worker(version string, assets []Asset) ([]byte, error) {
	if version == "" {
		return nil, fmt.Errorf("pwa: the worker needs a version")
	}
	seen := map[string]bool{}
	for _, a := range assets {
		if strings.HasPrefix(a.Path, "/") || strings.Contains(a.Path, "..") || strings.Contains(a.Path, "://") {
			return nil, fmt.Errorf("pwa: asset path %q must be relative to the app's base", a.Path)
		}
		if len(a.SHA256) != 64 {
			return nil, fmt.Errorf("pwa: asset %q has no SHA-256", a.Path)
		}
		if seen[a.Path] {
			return nil, fmt.Errorf("pwa: asset %q listed twice", a.Path)
		}
		seen[a.Path] = true
	}
	sorted := append([]Asset(nil), assets...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	list, err := json.MarshalIndent(sorted, "", "  ")
	if err != nil {
		return nil, err
	}
	v, _ := json.Marshal(version)
	s := strings.Replace(workerTemplate, "{{VERSION}}", string(v), 1)
	s = strings.Replace(s, "{{ASSETS}}", string(list), 1)
	return []byte(s), nil
}
