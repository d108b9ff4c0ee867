package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"time"

	"tinyrag/app/embed"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
)

// siteBundle is a bundle file read and checked, ready to publish.
type siteBundle struct {
	name string // file name under bundles/
	data []byte
	info bundle.Info
}

// readBundles reads and checks bundle files, so that a damaged one stops
// `serve` or `static` at once instead of being refused by every browser.
func readBundles(files []string) ([]siteBundle, error) {
	var out []siteBundle
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", err)
		}
		b, err := bundle.Verify(data)
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", f, err)
		}
		name := filepath.Base(f)
		if seen[name] {
			return nil, fmt.Errorf("bundle %s: another bundle has the file name %s", f, name)
		}
		seen[name] = true
		out = append(out, siteBundle{name: name, data: data, info: b.Info})
	}
	return out, nil
}

// siteConfig is the tinyrag.json naming the bundles. The URL carries the
// hash, so a new bundle is a new URL and no cache hands out the old one.
func siteConfig(bs []siteBundle, base siteconfig.Config) siteconfig.Config {
	c := base
	for _, b := range bs {
		sum := bundle.Digest(b.data)
		c.Bundles = append(c.Bundles, site.Source{URL: "bundles/" + b.name + "?v=" + sum[:16], SHA256: sum})
	}
	return c
}

// mountSiteConfig serves /tinyrag.json and the bundles: the app then finds
// its site knowledge and who may embed it as it does on a static site, and
// "proxy": "/" says this server's own /api proxies are there.
func mountSiteConfig(mux *http.ServeMux, files []string, policy embed.Policy, starters []string, env serveEnv) error {
	bs, err := readBundles(files)
	if err != nil {
		return err
	}
	base := siteconfig.Config{Proxy: siteconfig.SameOrigin, Starters: starters}
	if len(policy.Origins) > 0 || policy.HostSubmit {
		base.Embed = &policy
		env.Log.Info("embedding allowed", "origins", policy.Origins, "host_submit", policy.HostSubmit)
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
		env.Log.Info("serving site knowledge", "bundle", b.name, "documents", b.info.Documents, "bytes", len(b.data))
		mux.HandleFunc("GET "+path.Join("/bundles", b.name), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("ETag", `"`+bundle.Digest(b.data)[:32]+`"`)
			http.ServeContent(w, r, b.name, started, bytes.NewReader(b.data))
		})
	}
	return nil
}
