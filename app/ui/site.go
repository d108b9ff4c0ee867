package ui

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
)

// maxSiteFile bounds what the app reads for tinyrag.json and for one
// bundle: a wrong URL must not fill the page's memory.
const (
	maxConfigBytes = 1 << 20
	maxBundleBytes = 512 << 20
)

// fetchWhole GETs a site file in the browser (fetch_js.go); nil natively,
// where siteGet uses the runtime's HTTP client.
var fetchWhole func(ctx context.Context, u string, limit int64) ([]byte, int, error)

// siteGet GETs url and returns its body; a status other than 200 is an
// error naming it.
func siteGet(ctx context.Context, c httpdo.Doer, u string, limit int64) ([]byte, int, error) {
	if fetchWhole != nil && c == nil {
		return fetchWhole(ctx, u, limit)
	}
	req, err := httpdo.NewRequest(ctx, "GET", u, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := httpdo.Or(c).Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: larger than %d MB", u, limit>>20)
	}
	return b, resp.StatusCode, nil
}

// loadSite reads the site config at configURL and opens its bundles into
// rt.Site. A site without a config (404) is an app served by `tinyrag
// serve` from before site configs, with its proxy at the page's origin.
// Everything that goes wrong is returned as a message and the app starts
// anyway: without the bundle, or without the config.
func (rt *Runtime) loadSite(ctx context.Context, configURL string) []string {
	if rt.Site == nil {
		rt.Site = &site.Knowledge{}
	}
	data, status, err := siteGet(ctx, rt.HTTP, configURL, maxConfigBytes)
	if status == 404 {
		return nil
	}
	if err != nil {
		return []string{"site config: " + err.Error()}
	}
	return rt.applySite(ctx, configURL, data)
}

// applySite takes a site config read from configURL and makes the opened
// bundles match it.
func (rt *Runtime) applySite(ctx context.Context, configURL string, data []byte) []string {
	cfg, warns, err := siteconfig.Parse(data)
	if err != nil {
		return append(warns, err.Error())
	}
	rt.SiteConfig = &cfg
	srcs, err := cfg.Resolve(configURL)
	if err != nil {
		return append(warns, err.Error())
	}
	if len(rt.Bundles) > 0 {
		srcs = chooseBundles(srcs, rt.Bundles)
	}
	var fetching time.Duration
	fetch := func(ctx context.Context, u string) ([]byte, error) {
		start := time.Now()
		b, _, err := siteGet(ctx, rt.HTTP, u, maxBundleBytes)
		fetching += time.Since(start)
		return b, err
	}
	start := time.Now()
	for _, e := range rt.Site.Sync(ctx, srcs, fetch) {
		warns = append(warns, e.Error())
	}
	rt.SiteFetch, rt.SiteOpen = fetching, time.Since(start)-fetching
	return warns
}

// chooseBundles keeps the sources named in want: by their full URL or by
// their file name (what an embedding page's data-bundles lists).
func chooseBundles(srcs []site.Source, want []string) []site.Source {
	var out []site.Source
	for _, s := range srcs {
		name := s.URL
		if u, err := url.Parse(s.URL); err == nil {
			name = path.Base(u.Path)
		}
		for _, w := range want {
			if w == s.URL || w == name {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// refreshSite reads the site config again and swaps bundles whose hash
// changed (Sync keeps the others untouched). It returns what went wrong.
func (rt *Runtime) refreshSite(ctx context.Context, configURL string) []string {
	if rt.SiteConfig == nil {
		return nil // a site without a config has no bundles to renew
	}
	data, _, err := siteGet(ctx, rt.HTTP, configURL, maxConfigBytes)
	if err != nil {
		return []string{"site config: " + err.Error()}
	}
	return rt.applySite(ctx, configURL, data)
}

// Proxy is the origin of the tinyRAG server whose /api proxies the app
// uses, "" when it has none (a static site without one).
func (rt *Runtime) Proxy() string {
	if rt.SiteConfig == nil {
		return rt.Origin
	}
	return rt.SiteConfig.ProxyOrigin(rt.Origin)
}

// Retriever searches the visitor's knowledge base and the site's
// knowledge together.
func (rt *Runtime) Retriever() site.Union {
	u := site.Union{Site: rt.Site}
	if rt.KB != nil {
		u.Visitor = rt.KB
	}
	return u
}

// HasKnowledge reports whether anything can be searched.
func (rt *Runtime) HasKnowledge() bool {
	return (rt.KB != nil && len(rt.KB.Documents()) > 0) || len(rt.Site.Documents()) > 0
}

// LLMBase is the endpoint the browser talks to: the one in Settings, the
// site's preset, or the proxy's /api/llm; "" when there is none.
func (rt *Runtime) LLMBase(s Settings) string {
	switch {
	case s.Endpoint != "":
		return strings.TrimRight(s.Endpoint, "/")
	case rt.SiteConfig != nil && rt.SiteConfig.LLM != nil:
		return strings.TrimRight(rt.SiteConfig.LLM.BaseURL, "/")
	case rt.Proxy() != "":
		return rt.Proxy() + "/api/llm"
	}
	return ""
}

// IsSiteCitation reports whether a cited chunk comes from site knowledge.
func (rt *Runtime) IsSiteCitation(chunkID string) bool {
	doc, _, _ := strings.Cut(chunkID, "#")
	return rt != nil && rt.Site.IsSite(doc)
}

// SiteLink is where a site-knowledge source links: its URL relative to
// the page (the app's base), or as it is when absolute.
func SiteLink(pageURL, source string) string {
	base, err := url.Parse(pageURL)
	if err != nil {
		return source
	}
	u, err := base.Parse(source)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}

// SiteLink is where a site source links, resolved against the site's
// base (where tinyrag.json is); "" when it is no web page.
func (c *Controller) SiteLink(source string) string {
	if c == nil || c.deps.ConfigURL == "" {
		return ""
	}
	return SiteLink(c.deps.ConfigURL, source)
}

// CiteLink is where a citation from site knowledge links: the page it
// came from, resolved against the site's base (where tinyrag.json is).
// Visitor imports have no page to open: "".
func (c *Controller) CiteLink(cite chats.Citation) string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	rt := c.rt
	c.mu.Unlock()
	if rt == nil || !rt.IsSiteCitation(cite.ChunkID) {
		return ""
	}
	return c.SiteLink(cite.Source)
}
