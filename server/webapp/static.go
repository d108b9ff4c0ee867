package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"tinyrag/app/embed"
	"tinyrag/app/siteconfig"
	"tinyrag/app/ui"
	"tinyrag/server/compress"
)

func init() {
	register("static", "write the app as a static site any static host can serve", runStatic)
}

func runStatic(ctx context.Context, args []string) error {
	return staticCommand(ctx, args, os.Stdout, os.Stderr)
}

// staticOptions are the flags of `tinyrag static`.
type staticOptions struct {
	out        string
	base       string
	bundles    []string
	llmURL     string
	llmModel   string
	proxy      string
	connectSrc string
	embed      embed.Policy
	starters   []string
}

// staticConnectSrc lets a visitor's browser reach a model on this
// computer, any https endpoint (a static site cannot proxy) and
// Wikipedia.
const staticConnectSrc = defaultConnectSrc + " https:"

func staticCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("static", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o staticOptions
	fl.StringVar(&o.out, "o", "", "output folder (required; created, and emptied of an earlier static build)")
	fl.StringVar(&o.base, "base", "", "the URL path the site is served under, e.g. /docs/assistant/, for absolute URLs; without it every URL is relative and the site works from any folder")
	fl.Func("bundle", "ship this knowledge bundle folder (made by 'tinyrag bundle') as site knowledge; repeatable", func(v string) error {
		o.bundles = append(o.bundles, v)
		return nil
	})
	fl.StringVar(&o.llmURL, "llm-url", "", "preset OpenAI-compatible base URL for visitors (never a key)")
	fl.StringVar(&o.llmModel, "model", "", "preset model name")
	fl.StringVar(&o.proxy, "proxy", "", "origin of a tinyRAG server to use as proxy for the model and the web tools")
	fl.StringVar(&o.connectSrc, "csp-connect", staticConnectSrc, "origins the page may connect to, CSP syntax")
	fl.Func("embed-origins", "pages that may embed the app with embed.js, as origins like https://docs.example.org, comma-separated; repeatable. A static host cannot send frame-ancestors: the app checks its embedding page itself", func(v string) error {
		return appendOrigins(&o.embed.Origins, v)
	})
	fl.BoolVar(&o.embed.HostSubmit, "embed-host-submit", false, "let embedding pages submit questions themselves; off, a host's question waits in the composer for the visitor")
	starterFlag(fl, &o.starters)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if o.out == "" || fl.NArg() > 0 {
		fl.Usage()
		return &exitError{code: 2, err: errors.New("need -o DIR and no other arguments")}
	}
	base, err := normalizeBase(o.base)
	if err != nil {
		return err
	}
	o.base = base
	starters, err := checkStarters(o.starters)
	if err != nil {
		return fmt.Errorf("--starter: %w", err)
	}
	cfg := siteconfig.Config{Proxy: strings.TrimRight(o.proxy, "/"), Starters: starters}
	if len(o.embed.Origins) > 0 || o.embed.HostSubmit {
		cfg.Embed = &o.embed
	}
	if o.llmURL != "" {
		cfg.LLM = &siteconfig.LLM{BaseURL: o.llmURL, Model: o.llmModel}
	}
	bs, err := readBundles(o.bundles)
	if err != nil {
		return err
	}
	cfgJSON := siteConfig(bs, cfg).Marshal()
	// The same checks the app applies when it reads the file.
	if _, warns, err := siteconfig.Parse(cfgJSON); err != nil || len(warns) > 0 {
		return fmt.Errorf("site config: %v %v", err, warns)
	}
	webRoot, err := fs.Sub(dist, "dist")
	if err != nil {
		return err
	}
	assets, err := loadStatic(webRoot, "web")
	if err != nil {
		return fmt.Errorf("reading embedded assets: %w", err)
	}
	if err := writeStatic(o, assets, bs, cfgJSON); err != nil {
		return err
	}
	where := "any folder (relative URLs)"
	if o.base != "" {
		where = o.base
	}
	fmt.Fprintf(stdout, "static site for %s written to %s (%d bundles)\n", where, o.out, len(bs))
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

func writeStatic(o staticOptions, assets *staticAssets, bs []siteBundle, cfgJSON []byte) error {
	if !assets.has("/web/app.wasm") {
		return errors.New("app.wasm is not embedded: build with 'make build' first")
	}
	if err := cleanOut(o.out); err != nil {
		return err
	}
	ui.Routes()
	csp := cspDirectives(o.connectSrc)
	p, err := buildPWA(assets, basePath(o.base), "", func(page []byte) ([]byte, error) { return insertCSP(page, csp) })
	if err != nil {
		return fmt.Errorf("static site: %w", err)
	}
	// The same service worker and manifest as `tinyrag serve` (server/pwa),
	// and exactly the bytes the worker's list was made from: it refuses a
	// file that differs.
	files := map[string][]byte{"index.html": p.page, "app-worker.js": p.worker, "manifest.webmanifest": p.manifest}
	for path, b := range p.generated {
		files[strings.TrimPrefix(path, "/")] = b
	}
	for name, b := range files {
		if err := compress.WriteFile(filepath.Join(o.out, name), b, compress.DefaultBrotli); err != nil {
			return err
		}
	}
	// The embedded assets come precompressed already.
	for p, f := range assets.files {
		dst := filepath.Join(o.out, filepath.FromSlash(strings.TrimPrefix(p, "/")))
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
			dst := filepath.Join(o.out, "bundles", b.name, filepath.FromSlash(name))
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
	return os.WriteFile(filepath.Join(o.out, siteconfig.FileName), cfgJSON, 0o644)
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
