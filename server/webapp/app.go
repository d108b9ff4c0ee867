// Package webapp is the tinyRAG app as the browser gets it: the built
// assets embedded from dist/ (written by make build), served from memory
// precompressed; the pages of app/pages prerendered by go-app with our
// service worker and manifest; tinyrag.json and the knowledge bundles;
// the security headers. `tinyrag serve` mounts it (New, Mount, Headers);
// `tinyrag static` writes the same files out as a static site (WriteSite).
package webapp

import (
	"fmt"
	"log/slog"
	"net/http"

	"tinyrag/app/embed"
	"tinyrag/app/ui"
)

// Config is what `tinyrag serve` says about the app it serves.
type Config struct {
	ConnectSrc     string   // extra origins the browser may connect to, CSP syntax
	FrameAncestors string   // who may frame the full app, CSP syntax
	Bundles        []string // knowledge bundle folders served as site knowledge
	Starters       []string // starter questions for the welcome screen, checked already
	Release        string   // release label folded into the app's version
	// Embed is who may embed the embed page; the app reads it from
	// tinyrag.json and that page's CSP lists its origins.
	Embed embed.Policy
}

// App is one build of the app, read and rendered, ready to serve.
type App struct {
	cfg     Config
	log     *slog.Logger
	assets  *staticAssets
	bundles []siteBundle
	pwa     *builtPWA
}

// New reads the embedded assets and the bundle folders and renders the
// pages; a bundle that cannot be read stops it, so a damaged one stops
// the server at start instead of being refused by every browser.
func New(c Config, log *slog.Logger) (*App, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	assets, err := embeddedAssets()
	if err != nil {
		return nil, err
	}
	return newApp(c, log, assets)
}

func newApp(c Config, log *slog.Logger, assets *staticAssets) (*App, error) {
	if !assets.has("/web/app.wasm") {
		log.Warn("app.wasm is not embedded: build with 'make build' (the page will not start)")
	}
	bs, err := readBundles(c.Bundles)
	if err != nil {
		return nil, err
	}
	ui.Routes()
	p, err := buildPWA(assets, assets, c.Release, nil)
	if err != nil {
		return nil, fmt.Errorf("rendering the app: %w", err)
	}
	log.Info("app version", "version", p.version)
	return &App{cfg: c, log: log, assets: assets, bundles: bs, pwa: p}, nil
}

// Version is the app's version, a hash of every file the worker stores.
func (a *App) Version() string { return a.pwa.version }

// Mount routes tinyrag.json, the bundles, the pages and the assets on mux.
func (a *App) Mount(mux *http.ServeMux) {
	mountSiteConfig(mux, a.bundles, a.cfg.Embed, a.cfg.Starters, a.log)
	a.pwa.mount(mux)
}

// Headers wraps next, the whole server's handler, in the security headers:
// the CSP (the embed page's own frame-ancestors), nosniff and the rest.
func (a *App) Headers(next http.Handler) http.Handler {
	return securityHeaders(next, csp(a.cfg), embedCSP(a.cfg))
}
