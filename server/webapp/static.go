package webapp

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"tinyrag/app/embed"
	"tinyrag/app/pages"
	"tinyrag/app/siteconfig"
	"tinyrag/app/ui"
	"tinyrag/server/compress"
)

// Site is what `tinyrag static` writes: its flags, parsed by cmd/tinyrag.
type Site struct {
	Out        string // the output folder
	Base       string // the URL path the site is served under; "": every URL relative
	Bundles    []string
	LLMURL     string // preset OpenAI-compatible base URL for visitors
	LLMModel   string
	Proxy      string // origin of a tinyRAG server to use as proxy
	ConnectSrc string // origins the page may connect to, CSP syntax
	Embed      embed.Policy
	Starters   []string // checked already (siteconfig.CheckStarters)
}

// StaticConnectSrc lets a visitor's browser reach a model on this
// computer, any https endpoint (a static site cannot proxy) and
// Wikipedia.
const StaticConnectSrc = DefaultConnectSrc + " https:"

// WriteSite writes the embedded app as a static site, with its bundles
// and tinyrag.json, and says where on stdout.
func WriteSite(o Site, stdout io.Writer) error {
	base, err := normalizeBase(o.Base)
	if err != nil {
		return err
	}
	o.Base = base
	cfg := siteconfig.Config{Proxy: strings.TrimRight(o.Proxy, "/"), Starters: o.Starters}
	if len(o.Embed.Origins) > 0 || o.Embed.HostSubmit {
		cfg.Embed = &o.Embed
	}
	if o.LLMURL != "" {
		cfg.LLM = &siteconfig.LLM{BaseURL: o.LLMURL, Model: o.LLMModel}
	}
	bs, err := readBundles(o.Bundles)
	if err != nil {
		return err
	}
	cfgJSON := siteConfig(bs, cfg).Marshal()
	// The same checks the app applies when it reads the file.
	if _, warns, err := siteconfig.Parse(cfgJSON); err != nil || len(warns) > 0 {
		return fmt.Errorf("site config: %v %v", err, warns)
	}
	assets, err := embeddedAssets()
	if err != nil {
		return err
	}
	if err := writeStatic(o, assets, bs, cfgJSON); err != nil {
		return err
	}
	where := "any folder (relative URLs)"
	if o.Base != "" {
		where = o.Base
	}
	fmt.Fprintf(stdout, "static site for %s written to %s (%d bundles)\n", where, o.Out, len(bs))
	return nil
}

// normalizeBase makes a base path start and end with "/"; "" (the
// default) stays "": every URL relative.
func normalizeBase(b string) (string, error) {
	if b == "" {
		return "", nil
	}
	u, err := url.Parse(b)
	if err != nil || u.Scheme != "" || u.Host != "" || u.RawQuery != "" || strings.Contains(b, "..") {
		return "", fmt.Errorf("--base %q: want a URL path like /docs/assistant/", b)
	}
	return "/" + strings.Trim(b, "/") + strings.Repeat("/", min(1, len(strings.Trim(b, "/")))), nil
}

// basePath resolves go-app's resource paths under the site's base path.
// "/" becomes the base itself, with its slash: the service worker caches
// the page by that URL, and a static host redirects /base to /base/. The
// empty base resolves every path relative to the page ("./web/app.wasm",
// "./" for "/"): the pages sit at the base, so the site works wherever it
// is copied, and the app finds its base at run time (ui.BasePath).
type basePath string

// Resolve implements app.ResourceResolver.
func (b basePath) Resolve(location string) string {
	if strings.HasPrefix(location, "http://") || strings.HasPrefix(location, "https://") {
		return location
	}
	if b == "" {
		return "./" + strings.TrimPrefix(location, "/")
	}
	return string(b) + strings.TrimPrefix(location, "/")
}

func writeStatic(o Site, assets *staticAssets, bs []siteBundle, cfgJSON []byte) error {
	if !assets.has("/web/app.wasm") {
		return errors.New("app.wasm is not embedded: build with 'make build' first")
	}
	if err := cleanOut(o.Out); err != nil {
		return err
	}
	ui.Routes()
	csp := cspDirectives(o.ConnectSrc)
	p, err := buildPWA(assets, basePath(o.Base), "", func(page []byte) ([]byte, error) { return insertCSP(page, csp) })
	if err != nil {
		return fmt.Errorf("static site: %w", err)
	}
	// The same service worker and manifest as `tinyrag serve` (server/pwa),
	// and exactly the bytes the worker's list was made from: it refuses a
	// file that differs.
	files := map[string][]byte{"app-worker.js": p.worker, "manifest.webmanifest": p.manifest}
	for _, pg := range pages.All() {
		files[pg.File] = p.pages[pg.Path]
	}
	for path, b := range p.generated {
		files[strings.TrimPrefix(path, "/")] = b
	}
	for name, b := range files {
		if err := compress.WriteFile(filepath.Join(o.Out, name), b, compress.DefaultBrotli); err != nil {
			return err
		}
	}
	// The embedded assets come precompressed already.
	for p, f := range assets.files {
		dst := filepath.Join(o.Out, filepath.FromSlash(strings.TrimPrefix(p, "/")))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		for suffix, b := range map[string][]byte{"": f.raw, ".gz": f.gzip, ".br": f.brotli} {
			if b == nil {
				continue
			}
			if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
				return err
			}
		}
	}
	for _, b := range bs {
		for name, f := range b.files {
			dst := filepath.Join(o.Out, "bundles", b.name, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			for suffix, data := range map[string][]byte{"": f.raw, ".gz": f.gzip, ".br": f.brotli} {
				if data == nil {
					continue
				}
				if err := os.WriteFile(dst+suffix, data, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return os.WriteFile(filepath.Join(o.Out, siteconfig.FileName), cfgJSON, 0o644)
}

// cleanOut creates the output folder, refusing to empty a folder that is
// not an earlier static build (no index.html with app.js beside it).
func cleanOut(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "app-worker.js")); err != nil {
		return fmt.Errorf("%s is not empty and not an earlier static build: refusing to overwrite it", dir)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// insertCSP puts the policy as a <meta> tag right after <meta charset>: a
// policy in a <meta> covers only what the page loads after it, so it must
// come before the scripts (go-app's RawHeaders land after them).
func insertCSP(page []byte, directives []string) ([]byte, error) {
	const anchor = `<meta charset="UTF-8">`
	i := bytes.Index(page, []byte(anchor))
	if i < 0 {
		return nil, fmt.Errorf("the page has no %s to put the CSP after", anchor)
	}
	meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(strings.Join(directives, "; ")) + `">`
	i += len(anchor)
	out := append(append(append([]byte(nil), page[:i]...), "\n    "+meta...), page[i:]...)
	return out, nil
}
