package control

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/control/sitefile"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
)

// SiteConfig is the site's tinyrag.json; nil when it has none or it has
// not arrived yet.
func (rt *Runtime) SiteConfig() *siteconfig.Config { return rt.siteCfg.Load() }

// loadSiteConfig reads the site config at configURL and returns the
// bundles it names (limited to rt.Bundles, when set). A site without a
// config (404) is an app served by `tinyrag serve` from before site
// configs, with its proxy at the page's origin. What goes wrong comes back
// as messages: the app goes on without the config.
func (rt *Runtime) loadSiteConfig(ctx context.Context, configURL string) ([]site.Source, []string) {
	data, status, err := sitefile.Config(ctx, rt.HTTP, configURL)
	if status == 404 {
		return nil, nil
	}
	if err != nil {
		return nil, []string{"site config: " + err.Error()}
	}
	cfg, warns, err := siteconfig.Parse(data)
	if err != nil {
		return nil, append(warns, err.Error())
	}
	rt.siteCfg.Store(&cfg)
	srcs, err := cfg.Resolve(configURL)
	if err != nil {
		return nil, append(warns, err.Error())
	}
	if len(rt.Bundles) > 0 {
		srcs = chooseBundles(srcs, rt.Bundles)
	}
	return srcs, warns
}

// siteKnowledge is an empty site.Knowledge whose bundles read their files
// with c. Without a client (nil) they read the platform's way, which takes
// the requests sitefile.Start began.
func siteKnowledge(c httpdo.Doer) *site.Knowledge {
	k := &site.Knowledge{}
	if c == nil {
		k.Start = sitefile.Start
	}
	return k
}

// syncBundles opens the bundles srcs names (their manifests: the rest
// comes with the queries) and drops those it no longer names.
func (rt *Runtime) syncBundles(ctx context.Context, srcs []site.Source) []string {
	if rt.Site == nil {
		rt.Site = siteKnowledge(rt.HTTP)
	}
	fetch := func(ctx context.Context, u string) ([]byte, error) {
		b, status, err := sitefile.BundleFile(ctx, rt.HTTP, u)
		switch {
		case err == nil:
		case rt.Online != nil && !rt.Online():
			err = fmt.Errorf("you are offline, and this part of the site's knowledge is not stored on this device yet (%w)", err)
		case status == 404 && rt.SiteGone != nil:
			// Files are named by their content: one that is gone belongs
			// to an older version of the site's knowledge.
			rt.SiteGone()
			err = fmt.Errorf("the site has published new knowledge since this page opened it; it is being reloaded, ask again in a moment (%w)", err)
		}
		return b, err
	}
	var warns []string
	for _, e := range rt.Site.Sync(ctx, srcs, fetch) {
		warns = append(warns, e.Error())
	}
	return warns
}

// prefetchSite loads what the queries of the site's bundles would
// otherwise wait for (Index.Preload: the group table that names the
// fragments, the term map's pages, the ranker's tables), so that the
// first query waits only for its own terms: the small bundles' at once,
// the large ones' once started is closed (the app is ready), since a
// large site's tables and map pages would hold the page's thread while
// the app starts.
func (rt *Runtime) prefetchSite(ctx context.Context, started <-chan struct{}) []string {
	var warns []string
	bundles := rt.Site.Bundles()
	for _, small := range []bool{true, false} {
		if !small && started != nil {
			<-started
			// A query asked as the app becomes ready (a pasted one, or
			// typed before it was) goes first: it reads the few map
			// pages it needs, gets its requests out, and has the tables
			// made while its shards download (bundle.Index.FetchTerms).
			time.Sleep(preloadPause)
		}
		for _, b := range bundles {
			if b.Index.Small() != small {
				continue
			}
			if err := b.Index.Preload(ctx); err != nil {
				warns = append(warns, (&site.Error{URL: b.Source.URL, Err: err}).Error())
			}
		}
	}
	return warns
}

// preloadPause is how long a large bundle's Preload waits after the app
// is ready before it reads the map pages and makes the segment's and the
// ranker's tables (tens of milliseconds of the page's thread on a large
// site): long enough for the input, rendering and requests of a query
// asked as the app becomes ready to go first, short beside the time a
// visitor takes to type one.
const preloadPause = 250 * time.Millisecond

// chooseBundles keeps the sources named in want: by their full URL, by
// their manifest's file name, or by the name of the folder holding it
// (what an embedding page's data-bundles lists).
func chooseBundles(srcs []site.Source, want []string) []site.Source {
	var out []site.Source
	for _, s := range srcs {
		name, dir := s.URL, ""
		if u, err := url.Parse(s.URL); err == nil {
			name, dir = path.Base(u.Path), path.Base(path.Dir(u.Path))
		}
		for _, w := range want {
			if w == s.URL || w == name || w == dir {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// Proxy is the origin of the tinyRAG server whose /api proxies the app
// uses, "" when it has none (a static site without one).
func (rt *Runtime) Proxy() string {
	cfg := rt.SiteConfig()
	if cfg == nil {
		return rt.Origin
	}
	return cfg.ProxyOrigin(rt.Origin)
}

// OpenedSite says the site's knowledge is open (or absent): searches no
// longer wait for it.
func (rt *Runtime) OpenedSite() {
	rt.siteOnce.Do(func() {
		if rt.siteOpened != nil {
			close(rt.siteOpened)
		}
	})
}

// readSiteConfig says the site's config was read, or found absent.
func (rt *Runtime) readSiteConfig() {
	rt.siteReadOnce.Do(func() {
		if rt.siteRead != nil {
			close(rt.siteRead)
		}
	})
}

// SiteConfigRead waits, up to wait, until the site's config was read (or
// found absent); it reports whether it was.
func (rt *Runtime) SiteConfigRead(wait time.Duration) bool {
	if rt.siteRead == nil {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-rt.siteRead:
		return true
	case <-t.C:
		return false
	}
}

// siteIsOpen reports whether OpenedSite was called.
func (rt *Runtime) siteIsOpen() bool {
	if rt.siteOpened == nil {
		return true
	}
	select {
	case <-rt.siteOpened:
		return true
	default:
		return false
	}
}

// Retriever searches the visitor's knowledge base and the site's
// knowledge together, once the site's is open.
func (rt *Runtime) Retriever() site.Union {
	u := site.Union{Site: rt.Site, Opened: rt.siteOpened}
	if rt.KB != nil {
		u.Visitor = rt.KB
	}
	return u
}

// HasKnowledge reports whether anything can be searched.
func (rt *Runtime) HasKnowledge() bool {
	return (rt.KB != nil && len(rt.KB.Documents()) > 0) || rt.Site.Docs() > 0
}

// LLMBase is the endpoint the browser talks to: the one in Settings, the
// site's preset, or the proxy's /api/llm; "" when there is none.
func (rt *Runtime) LLMBase(s Settings) string {
	cfg := rt.SiteConfig()
	switch {
	case s.Endpoint != "":
		return strings.TrimRight(s.Endpoint, "/")
	case cfg != nil && cfg.LLM != nil:
		return strings.TrimRight(cfg.LLM.BaseURL, "/")
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
func (s *Site) SiteLink(source string) string {
	if s == nil || s.c.deps.ConfigURL == "" {
		return ""
	}
	return SiteLink(s.c.deps.ConfigURL, source)
}

// CiteLink is where a citation from site knowledge links: the page it
// came from, resolved against the site's base (where tinyrag.json is).
// Visitor imports have no page to open: "".
func (s *Site) CiteLink(cite chats.Citation) string {
	rt := s.runtime()
	if s == nil || (!cite.Site && (rt == nil || !rt.IsSiteCitation(cite.ChunkID))) {
		return ""
	}
	return s.SiteLink(cite.Source)
}
