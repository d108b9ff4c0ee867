package ui

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/siteconfig"
	"tinyrag/app/web"
)

// staticHost serves a site config and bundles like a plain static host.
func staticHost(t *testing.T, cfg siteconfig.Config, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kb/"+siteconfig.FileName {
			w.Write(cfg.Marshal())
			return
		}
		if b, ok := files[r.URL.Path]; ok {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func orchardBundle(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := bundle.Build(context.Background(), &buf, []knowledge.Input{
		{Title: "Winter pruning", Source: "guide/pruning.html", Text: "Prune apple trees in late winter while the buds are dormant."},
	}, bundle.Options{Title: "Orchard"})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRuntime_StaticSiteLoadsBundlesAndAnswersFromThemWithoutAProxy(t *testing.T) {
	b := orchardBundle(t)
	srv := staticHost(t, siteconfig.Config{
		Bundles: []site.Source{{URL: "bundles/orchard.tinyrag", SHA256: bundle.Digest(b)}},
		LLM:     &siteconfig.LLM{BaseURL: "http://127.0.0.1:11434/v1"},
	}, map[string][]byte{"/kb/bundles/orchard.tinyrag": b})
	kb, _ := knowledge.New(knowledge.Config{})
	rt := &Runtime{KB: kb, Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}}
	if warns := rt.loadSite(context.Background(), srv.URL+"/kb/"+siteconfig.FileName); len(warns) > 0 {
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
	if !rt.IsSiteCitation(cites[0].ChunkID) {
		t.Error("a site citation is not recognised as one")
	}
	if len(kb.Documents()) != 0 {
		t.Error("site knowledge was written into the visitor's knowledge base")
	}
}

func TestRuntime_ADamagedBundleIsReportedAndTheAppStillStarts(t *testing.T) {
	b := orchardBundle(t)
	bad := append([]byte(nil), b...)
	bad[len(bad)/2] ^= 1
	srv := staticHost(t, siteconfig.Config{Bundles: []site.Source{{URL: "bundles/x.tinyrag"}}},
		map[string][]byte{"/kb/bundles/x.tinyrag": bad})
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}}
	warns := rt.loadSite(context.Background(), srv.URL+"/kb/"+siteconfig.FileName)
	if len(warns) != 1 || !strings.Contains(warns[0], "damaged") {
		t.Fatalf("warnings %v", warns)
	}
	if rt.HasKnowledge() {
		t.Error("a damaged bundle was loaded")
	}
}

func TestRuntime_WithoutASiteConfigTheServerIsTheProxy(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}}
	if warns := rt.loadSite(context.Background(), srv.URL+"/"+siteconfig.FileName); len(warns) > 0 {
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
	v1 := orchardBundle(t)
	var v2buf bytes.Buffer
	if _, err := bundle.Build(context.Background(), &v2buf, []knowledge.Input{
		{Title: "Grafting", Source: "guide/grafting.html", Text: "Whip grafts join scion and rootstock in spring."},
	}, bundle.Options{}); err != nil {
		t.Fatal(err)
	}
	v2 := v2buf.Bytes()
	cfg := siteconfig.Config{Bundles: []site.Source{{URL: "bundles/o.tinyrag", SHA256: bundle.Digest(v1)}}}
	files := map[string][]byte{"/kb/bundles/o.tinyrag": v1}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kb/"+siteconfig.FileName {
			w.Write(cfg.Marshal())
			return
		}
		w.Write(files[r.URL.Path])
	}))
	defer srv.Close()
	rt := &Runtime{Origin: srv.URL, HTTP: httpdo.NetHTTP{Client: srv.Client()}}
	cfgURL := srv.URL + "/kb/" + siteconfig.FileName
	if w := rt.loadSite(context.Background(), cfgURL); len(w) > 0 {
		t.Fatal(w)
	}
	cfg.Bundles[0].SHA256, files["/kb/bundles/o.tinyrag"] = bundle.Digest(v2), v2
	if w := rt.refreshSite(context.Background(), cfgURL); len(w) > 0 {
		t.Fatal(w)
	}
	docs := rt.Site.Documents()
	if len(docs) != 1 || docs[0].Source != "guide/grafting.html" {
		t.Fatalf("after refresh: %+v", docs)
	}
}

func TestChooseBundles_ByURLOrFileName(t *testing.T) {
	srcs := []site.Source{{URL: "https://docs.example/kb/docs.tinyrag"}, {URL: "https://docs.example/kb/faq.tinyrag"}, {URL: "https://docs.example/kb/blog.tinyrag"}}
	tests := []struct {
		want []string
		kept []string
	}{
		{[]string{"faq.tinyrag"}, []string{"https://docs.example/kb/faq.tinyrag"}},
		{[]string{"https://docs.example/kb/docs.tinyrag", "blog.tinyrag"}, []string{"https://docs.example/kb/docs.tinyrag", "https://docs.example/kb/blog.tinyrag"}},
		{[]string{"nothing.tinyrag"}, nil},
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
