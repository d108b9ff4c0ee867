package web

import (
	"context"
	"net/url"
	"strings"

	"tinyrag/app/httpdo"
	"tinyrag/app/tool"
)

// ServerConfig is the body of the tinyRAG server's GET /api/config: which
// features the server offers. It never carries a key or an upstream
// address.
type ServerConfig struct {
	LLM struct {
		Configured bool   `json:"configured"`
		Source     string `json:"source"` // "flag", "env", "probe: Ollama", or ""
		Path       string `json:"path"`   // base path of the OpenAI-style proxy, "/api/llm"
	} `json:"llm"`
	Web struct {
		Enabled       bool   `json:"enabled"`
		SearchBackend string `json:"search_backend,omitempty"`
	} `json:"web"`
	Wikipedia struct {
		Base string `json:"base,omitempty"` // empty: https://{lang}.wikipedia.org
		Lang string `json:"lang"`
	} `json:"wikipedia"`
}

// LoadServerConfig asks the server at origin what it offers.
func LoadServerConfig(ctx context.Context, c httpdo.Doer, origin string) (ServerConfig, error) {
	var sc ServerConfig
	err := proxyGet(ctx, c, strings.TrimRight(origin, "/")+"/api/config", &sc)
	return sc, err
}

// BrowserTools builds the three web tools as the browser app runs them:
// url_fetch and websearch through the server at origin, wikipedia directly
// (Wikipedia allows CORS) unless the server names another wiki, which is
// then reached through the server's fetch proxy. With no server (origin
// ""), url_fetch and websearch answer ErrNoProxy and another wiki is
// asked directly.
func BrowserTools(origin string, sc ServerConfig, c httpdo.Doer) []tool.Tool {
	origin = strings.TrimRight(origin, "/")
	wiki := WikiConfig{Base: sc.Wikipedia.Base, Lang: sc.Wikipedia.Lang, Client: c}
	if wiki.Base != "" && !isWikipedia(wiki.Base) && origin != "" {
		wiki.Proxy = origin
	}
	return []tool.Tool{
		URLFetch(ProxyFetcher{Base: origin, Client: c}),
		WebSearch(ProxySearcher{Base: origin, Client: c}),
		Wikipedia(wiki),
	}
}

func isWikipedia(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return u.Scheme == "https" && (h == "wikipedia.org" || strings.HasSuffix(h, ".wikipedia.org"))
}
