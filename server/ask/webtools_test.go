package ask

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"tinyrag/app/engine"
)

// webFixtures are loopback stand-ins for the web: a page, a SearXNG, a
// MediaWiki. hits counts every request they get.
type webFixtures struct {
	page, searx, wiki *httptest.Server
	hits              atomic.Int64
}

func newWebFixtures(t *testing.T) *webFixtures {
	f := &webFixtures{}
	count := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { f.hits.Add(1); h(w, r) }
	}
	f.page = httptest.NewServer(count(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Lighthouses</title></head><body><p>The Pharos of Alexandria was about 100 metres tall.</p></body></html>`)
	}))
	f.searx = httptest.NewServer(count(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "broken" {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, `{"results":[{"title":"Pharos","url":"https://example.org/pharos","content":"Ancient lighthouse."}]}`)
	}))
	f.wiki = httptest.NewUnstartedServer(nil)
	f.wiki.Config.Handler = count(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case q.Get("list") == "search" && q.Get("srsearch") == "Pharos":
			fmt.Fprint(w, `{"query":{"search":[{"title":"Lighthouse of Alexandria","snippet":"…"}]}}`)
		case q.Get("list") == "search":
			fmt.Fprint(w, `{"query":{"search":[]}}`)
		case q.Get("titles") == "Lighthouse of Alexandria":
			fmt.Fprintf(w, `{"query":{"pages":[{"title":"Lighthouse of Alexandria","fullurl":"%s/wiki/Lighthouse_of_Alexandria","extract":"The Lighthouse of Alexandria was built by the Ptolemaic Kingdom."}]}}`, f.wiki.URL)
		default:
			http.Error(w, "unexpected", 400)
		}
	})
	f.wiki.Start()
	for _, s := range []*httptest.Server{f.page, f.searx, f.wiki} {
		t.Cleanup(s.Close)
	}
	t.Setenv("TINYRAG_SEARCH_BACKEND", "searxng")
	t.Setenv("TINYRAG_SEARCH_URL", f.searx.URL)
	t.Setenv("TINYRAG_WIKIPEDIA_URL", f.wiki.URL)
	t.Setenv("TINYRAG_FETCH_ALLOW_PRIVATE", "")
	t.Setenv("TINYRAG_FETCH_ALLOW_HOSTS", "")
	return f
}

func toolCall(name, elem, input string) string {
	return fmt.Sprintf(`<tool name="%s"><%s>%s</%s></tool>`, name, elem, input, elem)
}

func TestAskWebTools_EndToEnd(t *testing.T) {
	f := newWebFixtures(t)
	tests := []struct {
		name       string
		allowHosts string // the explicit allowance for the loopback page server
		call       string
		wantSource string
		wantResult string
		wantError  string
	}{
		{"url_fetch reads the page", "127.0.0.1/32", toolCall("url_fetch", "url", f.page.URL+"/pharos"),
			f.page.URL + "/pharos", "The Pharos of Alexandria was about 100 metres tall.", ""},
		{"url_fetch refuses loopback without allowance", "", toolCall("url_fetch", "url", f.page.URL+"/pharos"),
			"", "", "loopback"},
		{"url_fetch refuses cloud metadata", "127.0.0.1/32", toolCall("url_fetch", "url", "http://169.254.169.254/latest/meta-data/"),
			"", "", "cloud-metadata"},
		{"url_fetch refuses a decimal loopback spelling", "", toolCall("url_fetch", "url", "http://2130706433/"),
			"", "", "loopback"},
		{"websearch lists hits", "", toolCall("websearch", "query", "Pharos"),
			"websearch: Pharos", "1. Pharos\n   https://example.org/pharos\n   Ancient lighthouse.", ""},
		{"websearch backend failure", "", toolCall("websearch", "query", "broken"),
			"", "", "SearXNG answered HTTP 500"},
		{"wikipedia returns the article", "", toolCall("wikipedia", "query", "Pharos"),
			f.wiki.URL + "/wiki/Lighthouse_of_Alexandria", "built by the Ptolemaic Kingdom", ""},
		{"wikipedia without a match", "", toolCall("wikipedia", "query", "Nothing"),
			"", "", "no article matching"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TINYRAG_FETCH_ALLOW_HOSTS", tt.allowHosts)
			s, srv := newScriptedLLM(t, 1, "Looking it up. "+tt.call, "Here is what I found.")
			evs, stderr, err := runAskJSON(t, s, srv, "tell me about the Pharos")
			if err != nil {
				t.Fatalf("ask failed: %v\n%s", err, stderr)
			}
			results := filter(evs, engine.EventToolResult)
			if len(results) != 1 {
				t.Fatalf("%d tool results, want 1: %+v", len(results), evs)
			}
			r := results[0]
			if tt.wantError != "" {
				if !strings.Contains(r.Error, tt.wantError) {
					t.Fatalf("tool error %q, want it to mention %q", r.Error, tt.wantError)
				}
			} else {
				if r.Error != "" || r.Source != tt.wantSource || !strings.Contains(r.Result, tt.wantResult) {
					t.Fatalf("tool_result %+v, want source %q and %q in the result", r, tt.wantSource, tt.wantResult)
				}
				// The result reached the model as evidence in the next round.
				reqs := s.requests()
				if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, tt.wantResult) {
					t.Fatalf("the continuation does not carry the tool result")
				}
			}
			if done := evs[len(evs)-1]; done.Event != engine.EventDone || done.Error != "" {
				t.Fatalf("last event %+v", done)
			}
		})
	}
}

func TestAskWebTools_NoWebSkipsAsDisabled(t *testing.T) {
	f := newWebFixtures(t)
	t.Setenv("TINYRAG_FETCH_ALLOW_HOSTS", "127.0.0.1/32")
	// An unusable search configuration must not matter when web is off.
	t.Setenv("TINYRAG_SEARCH_URL", "")
	reply := toolCall("url_fetch", "url", f.page.URL) + toolCall("websearch", "query", "Pharos") + toolCall("wikipedia", "query", "Pharos")
	s, srv := newScriptedLLM(t, 2, reply, "No tools then.")
	evs, stderr, err := runAskJSON(t, s, srv, "--no-web", "tell me about the Pharos")
	if err != nil {
		t.Fatalf("ask failed: %v\n%s", err, stderr)
	}
	var got []string
	for _, e := range filter(evs, engine.EventToolSkipped) {
		got = append(got, e.Tool+":"+e.Reason)
	}
	if want := "url_fetch:disabled websearch:disabled wikipedia:disabled"; strings.Join(got, " ") != want {
		t.Fatalf("skips %q, want %q", got, want)
	}
	if n := len(filter(evs, engine.EventToolStart)); n != 0 {
		t.Fatalf("%d tools started with --no-web", n)
	}
	if n := f.hits.Load(); n != 0 {
		t.Fatalf("the web fixtures got %d requests with --no-web", n)
	}
	prompt, _ := json.Marshal(s.requests()[0].Messages)
	if strings.Contains(string(prompt), `<tool name=\"url_fetch\">`) {
		t.Fatalf("disabled tools are still in the manifest the model sees")
	}
}

// ask reads the same switches as serve, with the same spellings.
func TestAsk_NoWebFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value    string
		disabled bool
		wantErr  bool
	}{
		{"yes", true, false},
		{"1", true, false},
		{"off", false, false},
		{"enabled", false, true},
	} {
		t.Run(tc.value, func(t *testing.T) {
			newWebFixtures(t)
			t.Setenv("TINYRAG_NO_WEB", tc.value)
			s, srv := newScriptedLLM(t, 2, toolCall("websearch", "query", "Pharos"), "Done.")
			evs, stderr, err := runAskJSON(t, s, srv, "tell me about the Pharos")
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "TINYRAG_NO_WEB") {
					t.Fatalf("err = %v, want one naming TINYRAG_NO_WEB", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ask failed: %v\n%s", err, stderr)
			}
			skipped := filter(evs, engine.EventToolSkipped)
			if got := len(skipped) == 1 && skipped[0].Reason == "disabled"; got != tc.disabled {
				t.Fatalf("websearch skipped as disabled: %t, want %t (events %+v)", got, tc.disabled, skipped)
			}
		})
	}
}

func TestAskWebTools_BadEnvironmentIsAClearError(t *testing.T) {
	newWebFixtures(t)
	t.Setenv("TINYRAG_SEARCH_URL", "")
	s, srv := newScriptedLLM(t, 3, "unused")
	_, _, err := runAskJSON(t, s, srv, "question")
	if err == nil || !strings.Contains(err.Error(), "TINYRAG_SEARCH") {
		t.Fatalf("err = %v, want one naming TINYRAG_SEARCH_*", err)
	}
}
