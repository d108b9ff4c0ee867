package control

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"tinyrag/app/embed"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
	"tinyrag/app/web"
)

// staticHost serves a site config and bundles like a plain static host. A
// config in files (at /kb/tinyrag.json) stands in for cfg: a test
// republishes the site by changing files.
func staticHost(t *testing.T, cfg siteconfig.Config, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := files[r.URL.Path]; ok {
			w.Write(b)
			return
		}
		if r.URL.Path == "/kb/"+siteconfig.FileName {
			w.Write(cfg.Marshal())
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// writeBundle writes a bundle of ins and returns its files under dir
// (a path on the test host) and the source naming its manifest.
func writeBundle(t *testing.T, dir string, ins ...knowledge.Input) (map[string][]byte, site.Source) {
	t.Helper()
	out, err := bundle.Write(context.Background(), ins, bundle.Options{Title: "Orchard"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for name, b := range out.Files {
		files[dir+name] = b
	}
	return files, site.Source{URL: strings.TrimPrefix(dir, "/kb/") + out.ManifestName, SHA256: out.SHA256}
}

var pruning = knowledge.Input{Title: "Winter pruning", Source: "guide/pruning.html", Text: "Prune apple trees in late winter while the buds are dormant."}

// openSite reads the site config and opens its bundles, as the app's start
// does, and returns what went wrong.
func openSite(rt *Runtime, configURL string) []string {
	srcs, warns := rt.loadSiteConfig(context.Background(), configURL)
	return append(warns, rt.syncBundles(context.Background(), srcs)...)
}

func TestRuntime_StaticSiteLoadsBundlesAndAnswersFromThemWithoutAProxy(t *testing.T) {
	files, src := writeBundle(t, "/kb/bundles/orchard/", pruning)
	srv := staticHost(t, siteconfig.Config{
		Bundles: []site.Source{src},
		LLM:     &siteconfig.LLM{BaseURL: "http://127.0.0.1:11434/v1"},
	}, files)
	kb, _ := knowledge.New(knowledge.Config{})
	rt := &Runtime{KB: kb, Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}, Site: &site.Knowledge{}}
	if warns := openSite(rt, srv.URL+"/kb/"+siteconfig.FileName); len(warns) > 0 {
		t.Fatal(warns)
	}
	if rt.Proxy() != "" {
		t.Errorf("proxy %q on a static site without one", rt.Proxy())
	}
	if got := rt.LLMBase(Settings{}); got != "http://127.0.0.1:11434/v1" {
		t.Errorf("LLMBase = %q, want the site's preset", got)
	}
	if got := rt.LLMBase(Settings{Endpoint: "https://api.example.test/v1"}); got != "https://api.example.test/v1" {
		t.Errorf("the visitor's endpoint does not win over the preset: %q", got)
	}
	reg := rt.Registry(Settings{})
	for _, n := range []string{web.URLFetchName, web.WebSearchName} {
		if _, on := reg.Lookup(n); on {
			t.Errorf("%s is on without a proxy", n)
		}
	}
	if _, on := reg.Lookup(web.WikipediaName); !on {
		t.Error("wikipedia is off, but it needs no proxy")
	}
	if _, on := reg.Lookup("rag_knowledge"); !on {
		t.Error("rag_knowledge is off although the site ships knowledge")
	}
	md, cites := answerWithoutModel(t, rt, "en", "when to prune apple trees")
	if len(cites) < 1 || cites[0].Source != "guide/pruning.html" || !strings.Contains(md, "late winter") {
		t.Fatalf("answer without a model %q %+v", md, cites)
	}
	if !cites[0].Site || !rt.IsSiteCitation(cites[0].ChunkID) {
		t.Error("a site citation is not recognised as one")
	}
	if len(kb.Documents()) != 0 {
		t.Error("site knowledge was written into the visitor's knowledge base")
	}
}

func TestRuntime_ADamagedBundleIsReportedAndTheAppStillStarts(t *testing.T) {
	files, src := writeBundle(t, "/kb/bundles/x/", pruning)
	m := "/kb/" + src.URL
	bad := append([]byte(nil), files[m]...)
	bad[len(bad)/2] ^= 1
	files[m] = bad
	srv := staticHost(t, siteconfig.Config{Bundles: []site.Source{src}}, files)
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}, Site: &site.Knowledge{}}
	warns := openSite(rt, srv.URL+"/kb/"+siteconfig.FileName)
	if len(warns) != 1 || !strings.Contains(warns[0], "damaged") {
		t.Fatalf("warnings %v", warns)
	}
	if rt.HasKnowledge() {
		t.Error("a damaged bundle was loaded")
	}
}

func TestRuntime_ASingleFileBundleOfAnEarlierVersionIsRefusedWithTheFix(t *testing.T) {
	old := append([]byte("tinyrag-bundle\n"), make([]byte, 64)...)
	srv := staticHost(t, siteconfig.Config{Bundles: []site.Source{{URL: "bundles/site.tinyrag"}}},
		map[string][]byte{"/kb/bundles/site.tinyrag": old})
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}, Site: &site.Knowledge{}}
	warns := openSite(rt, srv.URL+"/kb/"+siteconfig.FileName)
	if len(warns) != 1 || !strings.Contains(warns[0], "rebuild it") {
		t.Fatalf("warnings %v, want one saying to rebuild the bundle", warns)
	}
}

func TestRuntime_WithoutASiteConfigTheServerIsTheProxy(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}, Site: &site.Knowledge{}}
	if warns := openSite(rt, srv.URL+"/"+siteconfig.FileName); len(warns) > 0 {
		t.Fatal(warns)
	}
	if rt.Proxy() != srv.URL || rt.LLMBase(Settings{}) != srv.URL+"/api/llm" {
		t.Errorf("proxy %q, llm %q", rt.Proxy(), rt.LLMBase(Settings{}))
	}
}

func TestRuntime_SentKeyOnlyWhenSet(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		w.Write([]byte(`{"data":[{"id":"m"}]}`))
	}))
	defer srv.Close()
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}}
	for _, key := range []string{"", "sk-test"} {
		if _, err := rt.Chatter(Settings{Endpoint: srv.URL + "/v1", APIKey: key}).Models(context.Background()); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] != "" || got[1] != "Bearer sk-test" {
		t.Errorf("Authorization headers %q", got)
	}
}

func TestSiteLink(t *testing.T) {
	cases := map[string]string{
		"guide/pruning.html":         "http://127.0.0.1:8000/kb/guide/pruning.html",
		"/docs/a.html":               "http://127.0.0.1:8000/docs/a.html",
		"https://docs.example.test/": "https://docs.example.test/",
		"javascript:alert(1)":        "",
	}
	for src, want := range cases {
		if got := SiteLink("http://127.0.0.1:8000/kb/", src); got != want {
			t.Errorf("SiteLink(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestRuntime_RefreshSwapsABundleTheSiteRepublished(t *testing.T) {
	files, v1 := writeBundle(t, "/kb/bundles/o/", pruning)
	files2, v2 := writeBundle(t, "/kb/bundles/o/", knowledge.Input{Title: "Grafting", Source: "guide/grafting.html", Text: "Whip grafts join scion and rootstock in spring."})
	srv := staticHost(t, siteconfig.Config{Bundles: []site.Source{v1}}, files)
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}, Site: &site.Knowledge{}}
	cfgURL := srv.URL + "/kb/" + siteconfig.FileName
	if w := openSite(rt, cfgURL); len(w) > 0 {
		t.Fatal(w)
	}
	// The site is republished: new files beside the old, a new config.
	for k, b := range files2 {
		files[k] = b
	}
	files["/kb/"+siteconfig.FileName] = siteconfig.Config{Bundles: []site.Source{v2}}.Marshal()
	if w := openSite(rt, cfgURL); len(w) > 0 {
		t.Fatal(w)
	}
	hits, err := rt.Retriever().Search(context.Background(), "grafts scion", knowledge.SearchOptions{K: 3})
	if err != nil || len(hits) == 0 || hits[0].Source != "guide/grafting.html" {
		t.Fatalf("after refresh: %v, %+v", err, hits)
	}
}

func TestChooseBundles_ByURLManifestOrFolderName(t *testing.T) {
	docs, faq, blog := "https://docs.example/kb/bundles/docs/manifest-0123456789abcdef.json", "https://docs.example/kb/bundles/faq/manifest-1123456789abcdef.json", "https://docs.example/kb/bundles/blog/manifest-2123456789abcdef.json"
	srcs := []site.Source{{URL: docs}, {URL: faq}, {URL: blog}}
	tests := []struct {
		want []string
		kept []string
	}{
		{[]string{"faq"}, []string{faq}},
		{[]string{docs, "manifest-2123456789abcdef.json"}, []string{docs, blog}},
		{[]string{"nothing"}, nil},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range chooseBundles(srcs, tc.want) {
			got = append(got, s.URL)
		}
		if !reflect.DeepEqual(got, tc.kept) {
			t.Errorf("chooseBundles(%v) = %v, want %v", tc.want, got, tc.kept)
		}
	}
}

// startBehind starts a controller whose site is host, reached through a
// server that holds each request held reports until release is called,
// and waits for the app to be ready. The test's end releases them too,
// before the server closes, so that none is left waiting.
func startBehind(t *testing.T, host *httptest.Server, held func(r *http.Request) bool) (c *Controller, rec *recorder, release func()) {
	t.Helper()
	gate := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if held(r) {
			<-gate
		}
		host.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(release) // runs first
	c = NewController(Deps{
		Origin:    slow.URL,
		HTTP:      httpdo.NetHTTP{Client: slow.Client()},
		ConfigURL: slow.URL + "/kb/" + siteconfig.FileName,
		Models:    func(context.Context, Settings) ([]string, error) { return nil, errors.New("no model here") },
	})
	rec = newRecorder()
	c.Start(rec)
	waitFor(t, "the app is ready", func() bool { return rec.status().Ready })
	return c, rec, release
}

func TestController_ASearchTypedWhileTheSiteOpensIsAnsweredOnceItIsOpen(t *testing.T) {
	files, src := writeBundle(t, "/kb/bundles/orchard/", pruning)
	manifest := "/kb/" + src.URL
	host := staticHost(t, siteconfig.Config{Bundles: []site.Source{src}}, files)
	// The manifest is slow to come: the app is ready, the bundle not open.
	c, rec, release := startBehind(t, host, func(r *http.Request) bool { return r.URL.Path == manifest })
	c.Knowledge.SearchKB("dormant buds")
	waitFor(t, "the search answered without the bundle", func() bool {
		s := rec.searchState()
		return s.Query == "dormant buds" && len(s.Hits) == 0
	})
	release()
	waitFor(t, "the search answered from the bundle", func() bool {
		s := rec.searchState()
		return len(s.Hits) > 0 && s.Hits[0].Source == "guide/pruning.html"
	})
	c.Wait()
}

// A question that came with the page's address is sent at once only where
// the site's config turns host submit on; the config arrives after the app
// is ready, and the decision waits for it.
func TestController_HostSubmitWaitsForTheSiteConfig(t *testing.T) {
	for _, allow := range []bool{true, false} {
		host := staticHost(t, siteconfig.Config{Embed: &embed.Policy{HostSubmit: allow}}, nil)
		c, _, release := startBehind(t, host, func(r *http.Request) bool { return r.URL.Path == "/kb/"+siteconfig.FileName })
		if c.Site.HostSubmit() {
			t.Errorf("host submit %v: on before the config arrived", allow)
		}
		got := make(chan bool, 1)
		go func() { got <- c.Site.HostSubmitOnceKnown() }()
		release()
		if g := <-got; g != allow {
			t.Errorf("host submit %v in the config: HostSubmitOnceKnown = %v", allow, g)
		}
		c.Wait()
	}
}

// The knowledge panel's search shows a site's hits as their texts arrive:
// with some fragments held back, the published search lists every hit,
// the held ones pending. A newer query's search replaces it, and the
// older one's late reports do not come back.
func TestController_ASiteSearchPublishesItsHitsAsTheirTextsArrive(t *testing.T) {
	notes, c, rec, release := rowNotesBehind(t)
	// More words than feedback expands, which would read the texts first.
	const q = "orchard row mulched watered week"
	c.Knowledge.SearchKB(q)
	count := func(s SearchState) (pending, shown int) {
		for _, h := range s.Hits {
			if h.Pending {
				pending++
			} else if h.Title != "" && h.Text != "" {
				shown++
			}
		}
		return pending, shown
	}
	waitFor(t, "hits shown while others are pending", func() bool {
		s := rec.searchState()
		p, n := count(s)
		return s.Query == q && p > 0 && n > 0
	})
	// A newer query's answer replaces it, and the older search's late
	// reports, once its texts come, do not bring it back: the same words
	// asked again (another query string, the same fragments) wait for
	// them and then show every hit.
	c.Knowledge.SearchKB("dormant")
	waitFor(t, "the newer query's answer", func() bool { return rec.searchState().Query == "dormant" })
	release()
	again := q + " again"
	c.Knowledge.SearchKB(again)
	waitFor(t, "every hit shown", func() bool {
		s := rec.searchState()
		p, n := count(s)
		return s.Query == again && p == 0 && n == len(notes)
	})
	c.Wait()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	newer := slices.Index(rec.queries, "dormant")
	if i := slices.Index(rec.queries[newer:], q); i >= 0 {
		t.Errorf("the older search was shown again after the newer one's answer: %q", rec.queries)
	}
}

// The embed's search box hears a site search's hits as their texts
// arrive, as the knowledge panel does: with some fragments held back,
// SearchSite reports hits shown and hits pending before it returns them
// all.
func TestSite_SearchSiteReportsItsHitsAsTheirTextsArrive(t *testing.T) {
	notes, c, _, release := rowNotesBehind(t)
	waitFor(t, "the site's knowledge is open", func() bool { return c.Site.runtime() != nil })
	var mu sync.Mutex
	var reports [][]knowledge.Hit
	progress := func(hs []knowledge.Hit) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, hs)
	}
	type result struct {
		hits []knowledge.Hit
		err  error
	}
	done := make(chan result, 1)
	go func() {
		hs, err := c.Site.SearchSite(context.Background(), "orchard row mulched watered wee", embedResults, progress)
		done <- result{hs, err}
	}()
	waitFor(t, "hits shown while others are pending", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range reports {
			pending, shown := 0, 0
			for _, h := range r {
				if h.Pending {
					pending++
				} else if h.Title != "" {
					shown++
				}
			}
			if pending > 0 && shown > 0 {
				return true
			}
		}
		return false
	})
	select {
	case r := <-done:
		t.Fatalf("SearchSite returned %d hits (%v) while texts were held back", len(r.hits), r.err)
	default:
	}
	release()
	r := <-done
	if r.err != nil || len(r.hits) != len(notes) {
		t.Fatalf("SearchSite = %d hits, %v; want the %d notes", len(r.hits), r.err, len(notes))
	}
	for _, h := range r.hits {
		if h.Pending || h.Title == "" {
			t.Errorf("a returned hit is not whole: %+v", h)
		}
	}
}

// embedResults is how many pages the embed's search box asks for.
const embedResults = 10

// rowNotesBehind starts a controller on a site of six row notes whose
// odd-numbered documents' fragments the host holds back until release.
func rowNotesBehind(t *testing.T) (notes []knowledge.Input, c *Controller, rec *recorder, release func()) {
	t.Helper()
	for i := range 6 {
		notes = append(notes, knowledge.Input{Title: "Row note " + string(rune('A'+i)), Source: "notes/" + string(rune('a'+i)) + ".html",
			Text: "Row " + string(rune('A'+i)) + " of the orchard was mulched and watered this week."})
	}
	files, src := writeBundle(t, "/kb/bundles/orchard/", notes...)
	host := staticHost(t, siteconfig.Config{Bundles: []site.Source{src}}, files)
	c, rec, release = startBehind(t, host, func(r *http.Request) bool {
		n, ok := strings.CutSuffix(r.URL.Path, ".json")
		return ok && strings.Contains(r.URL.Path, "/f/") && (n[len(n)-1]-'0')%2 == 1
	})
	return notes, c, rec, release
}
