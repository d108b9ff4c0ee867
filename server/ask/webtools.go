package ask

import (
	"fmt"
	"net/http"
	"time"

	"tinyrag/app/httpdo"
	"tinyrag/app/tool"
	"tinyrag/app/web"
	"tinyrag/app/web/fetch"
	"tinyrag/app/web/guard"
	"tinyrag/app/web/search"
	"tinyrag/server/envconf"
)

// askWebTools builds url_fetch, websearch and wikipedia for `tinyrag ask`.
// They run in-process with the same guarded fetcher and search backends
// the server's /api routes use, configured by the same environment
// variables as `tinyrag serve`: TINYRAG_FETCH_ALLOW_PRIVATE,
// TINYRAG_FETCH_ALLOW_HOSTS, TINYRAG_SEARCH_BACKEND, TINYRAG_SEARCH_URL,
// TINYRAG_BRAVE_KEY, TINYRAG_WIKIPEDIA_URL, TINYRAG_WIKIPEDIA_LANG.
//
// With noWeb the tools are still built (from defaults if the environment
// is unusable), because the caller registers them disabled: a call is then
// reported as "disabled", not as an unknown tool.
func askWebTools(getenv func(string) string, noWeb bool) ([]tool.Tool, error) {
	tools, err := buildAskWebTools(getenv)
	if err != nil && noWeb {
		return buildAskWebTools(func(string) string { return "" })
	}
	return tools, err
}

func buildAskWebTools(getenv func(string) string) ([]tool.Tool, error) {
	env := envconf.New(getenv)
	allowPrivate := env.Bool("TINYRAG_FETCH_ALLOW_PRIVATE", false)
	allowHosts := env.List("TINYRAG_FETCH_ALLOW_HOSTS")
	if err := env.Err(); err != nil {
		return nil, err
	}
	f := fetch.New(fetch.Options{Guard: &guard.Guard{Policy: guard.Policy{
		AllowPrivate: allowPrivate,
		AllowHosts:   allowHosts,
	}}})
	client := &http.Client{Timeout: 20 * time.Second}
	s, err := search.New(search.Config{
		Backend: getenv("TINYRAG_SEARCH_BACKEND"),
		URL:     getenv("TINYRAG_SEARCH_URL"),
		Key:     getenv("TINYRAG_BRAVE_KEY"),
		Client:  client,
	})
	if err != nil {
		return nil, fmt.Errorf("web search (TINYRAG_SEARCH_*): %w", err)
	}
	wiki := web.WikiConfig{Base: getenv("TINYRAG_WIKIPEDIA_URL"), Lang: getenv("TINYRAG_WIKIPEDIA_LANG"), Client: httpdo.NetHTTP{Client: client}}
	return []tool.Tool{web.URLFetch(f), web.WebSearch(s), web.Wikipedia(wiki)}, nil
}
