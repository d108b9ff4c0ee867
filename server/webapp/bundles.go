package webapp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"time"

	"tinyrag/app/embed"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
	"tinyrag/server/compress"
)

// siteBundle is a bundle folder read and checked, ready to publish: its
// files with their compressed siblings, by name within the folder.
type siteBundle struct {
	name  string // the folder's name under bundles/
	out   *bundle.Output
	files map[string]*staticFile
}

// readBundles reads and checks bundle folders, so that a damaged one
// stops `serve` or `static` at once instead of being refused by every
// browser. Compressed siblings the folder lacks are made now.
func readBundles(dirs []string) ([]siteBundle, error) {
	var out []siteBundle
	seen := map[string]bool{}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && !fi.IsDir() {
			return nil, fmt.Errorf("bundle %s: a file, not a bundle folder: bundles are folders since this version; rebuild it with 'tinyrag bundle -o DIR …'", d)
		}
		o, err := bundle.ReadDir(d)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(filepath.Clean(d))
		if seen[name] {
			return nil, fmt.Errorf("bundle %s: another bundle has the folder name %s", d, name)
		}
		seen[name] = true
		files, err := bundleFiles(d, o)
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", d, err)
		}
		out = append(out, siteBundle{name: name, out: o, files: files})
	}
	return out, nil
}

// bundleFiles pairs each file of a bundle with its .gz and .br siblings,
// reading those the folder has and compressing the rest.
func bundleFiles(dir string, o *bundle.Output) (map[string]*staticFile, error) {
	files := map[string]*staticFile{}
	var missing []string
	for name, raw := range o.Files {
		sum := sha256.Sum256(raw)
		f := &staticFile{contentType: mime.TypeByExtension(path.Ext(name)), etag: `"` + hex.EncodeToString(sum[:12]) + `"`,
			sum: hex.EncodeToString(sum[:]), raw: raw}
		if f.contentType == "" {
			f.contentType = "application/octet-stream"
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		gz, gerr := os.ReadFile(p + ".gz")
		br, berr := os.ReadFile(p + ".br")
		if gerr == nil && berr == nil {
			f.gzip, f.brotli = gz, br
		} else {
			missing = append(missing, name)
		}
		files[name] = f
	}
	err := compress.Parallel(missing, func(name string) error {
		f := files[name]
		// Every bundle file has its siblings, shrunk or not
		// (compress.WriteNewWithSiblings).
		gz, br, err := compress.Bytes(f.raw, compress.BundleBrotli)
		f.gzip, f.brotli = gz, br
		return err
	})
	return files, err
}

// siteConfig is the tinyrag.json naming the bundles by their manifests.
// A manifest's name carries its hash, so a new bundle is a new URL and no
// cache hands out the old one.
func siteConfig(bs []siteBundle, base siteconfig.Config) siteconfig.Config {
	c := base
	for _, b := range bs {
		c.Bundles = append(c.Bundles, site.Source{URL: "bundles/" + b.name + "/" + b.out.ManifestName, SHA256: b.out.SHA256})
	}
	return c
}

// mountSiteConfig serves /tinyrag.json and the bundles: the app then finds
// its site knowledge and who may embed it as it does on a static site, and
// "proxy": "/" says this server's own /api proxies are there. Every file
// of a bundle is named by its content, so it goes out compressed as the
// browser accepts and may be cached for good.
func mountSiteConfig(mux *http.ServeMux, bs []siteBundle, policy embed.Policy, starters []string, log *slog.Logger) {
	base := siteconfig.Config{Proxy: siteconfig.SameOrigin, Starters: starters}
	if len(policy.Origins) > 0 || policy.HostSubmit {
		base.Embed = &policy
		log.Info("embedding allowed", "origins", policy.Origins, "host_submit", policy.HostSubmit)
	}
	cfg := siteConfig(bs, base).Marshal()
	started := time.Now()
	mux.HandleFunc("GET /"+siteconfig.FileName, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, siteconfig.FileName, started, bytes.NewReader(cfg))
	})
	for _, b := range bs {
		b := b
		m := b.out.Manifest
		log.Info("serving site knowledge", "bundle", b.name, "documents", m.Docs, "files", len(b.files), "bytes", m.Files.Bytes)
		mux.HandleFunc("GET "+path.Join("/bundles", b.name)+"/", func(w http.ResponseWriter, r *http.Request) {
			name := r.URL.Path[len("/bundles/"+b.name+"/"):]
			f := b.files[name]
			if f == nil {
				w.Header().Set("Cache-Control", "no-store")
				http.Error(w, "no such file in bundle "+b.name+": "+name, http.StatusNotFound)
				return
			}
			serveFile(w, r, f, bundle.IsContentNamed(name))
		})
	}
}
