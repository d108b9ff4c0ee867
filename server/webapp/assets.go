package webapp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
)

// staticFile is one asset with its precompressed variants, all in memory.
type staticFile struct {
	contentType string
	etag        string
	sum         string // hex SHA-256 of raw, for the service worker's check
	raw         []byte
	gzip        []byte
	brotli      []byte
}

// staticAssets serves the embedded /web/ tree. It is also go-app's
// ResourceResolver, so go-app hands it every /web/ request, including
// /app.wasm. Assets are read once at start-up: the binary holds them anyway,
// and serving from memory needs no syscalls on the hot path.
type staticAssets struct {
	files   map[string]*staticFile // by URL path, e.g. "/web/app.wasm"
	version string                 // hash of every asset: changes when any does
}

func init() {
	// The OS mime table may lack these, and browsers insist on the first
	// for WebAssembly.instantiateStreaming.
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".js", "text/javascript; charset=utf-8")
	_ = mime.AddExtensionType(".svg", "image/svg+xml")
}

// loadStatic reads the tree under root of fsys. Files ending in .gz or .br
// are taken as the precompressed variants of the file without that suffix.
func loadStatic(fsys fs.FS, root string) (*staticAssets, error) {
	s := &staticAssets{files: map[string]*staticFile{}}
	if _, err := fs.Stat(fsys, root); errors.Is(err, fs.ErrNotExist) {
		// Not built yet (fresh clone): serve the API and say what is missing.
		return s, nil
	}
	variants := map[string][2][]byte{}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		urlPath := "/web/" + strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		switch {
		case strings.HasSuffix(urlPath, ".gz"):
			v := variants[strings.TrimSuffix(urlPath, ".gz")]
			v[0] = b
			variants[strings.TrimSuffix(urlPath, ".gz")] = v
		case strings.HasSuffix(urlPath, ".br"):
			v := variants[strings.TrimSuffix(urlPath, ".br")]
			v[1] = b
			variants[strings.TrimSuffix(urlPath, ".br")] = v
		default:
			sum := sha256.Sum256(b)
			ct := mime.TypeByExtension(path.Ext(urlPath))
			if ct == "" {
				ct = http.DetectContentType(b)
			}
			s.files[urlPath] = &staticFile{contentType: ct, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, sum: hex.EncodeToString(sum[:]), raw: b}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for p, v := range variants {
		if f := s.files[p]; f != nil {
			f.gzip, f.brotli = v[0], v[1]
		}
	}
	names := make([]string, 0, len(s.files))
	for p := range s.files {
		names = append(names, p)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, p := range names {
		h.Write([]byte(p + s.files[p].etag))
	}
	s.version = hex.EncodeToString(h.Sum(nil)[:8])
	return s, nil
}

// Resolve implements app.ResourceResolver: assets are served from this
// origin at their own paths.
func (s *staticAssets) Resolve(location string) string {
	if location == "" {
		return "/"
	}
	return location
}

// has reports whether an asset exists at the URL path.
func (s *staticAssets) has(p string) bool { return s.files[p] != nil }

// ServeHTTP serves one asset, precompressed when the client accepts it.
// URLs under /{version}/ are immutable (the version hashes every asset);
// plain /web/ URLs are revalidated with their strong ETag, so the browser
// and go-app's service worker keep copies and refetch only what changed.
func (s *staticAssets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	immutable := false
	if s.version != "" && strings.HasPrefix(p, "/"+s.version+"/") {
		p = strings.TrimPrefix(p, "/"+s.version)
		immutable = true
	}
	f := s.files[p]
	if f == nil {
		w.Header().Del("ETag")
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "asset not found: "+p+" (was the app built with 'make build'?)", http.StatusNotFound)
		return
	}
	serveFile(w, r, f, immutable)
}

// serveFile sends f, precompressed when the client accepts it, with its
// strong ETag; immutable files may be cached for good, the others are
// revalidated.
func serveFile(w http.ResponseWriter, r *http.Request, f *staticFile, immutable bool) {
	hdr := w.Header()
	hdr.Set("Content-Type", f.contentType)
	hdr.Set("Vary", "Accept-Encoding")
	hdr.Set("ETag", f.etag)
	if immutable {
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hdr.Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.raw
	switch enc := acceptedEncoding(r.Header.Get("Accept-Encoding"), f); enc {
	case "br":
		body = f.brotli
		hdr.Set("Content-Encoding", "br")
	case "gzip":
		body = f.gzip
		hdr.Set("Content-Encoding", "gzip")
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	_, _ = w.Write(body)
}

// acceptedEncoding picks br over gzip over identity among what the client
// accepts (q=0 excludes) and what was precompressed.
func acceptedEncoding(header string, f *staticFile) string {
	accepts := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(strings.TrimSpace(part), ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		ok := true
		for _, param := range fields[1:] {
			param = strings.ReplaceAll(strings.TrimSpace(param), " ", "")
			if q, found := strings.CutPrefix(param, "q="); found {
				if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
					ok = false
				}
			}
		}
		accepts[name] = ok
	}
	switch {
	case f.brotli != nil && accepts["br"]:
		return "br"
	case f.gzip != nil && (accepts["gzip"] || accepts["*"]):
		return "gzip"
	}
	return ""
}
