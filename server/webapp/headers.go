package webapp

import (
	"net/http"
	"strings"

	"tinyrag/app/pages"
)

// DefaultConnectSrc lets the app talk to a local LLM directly and read
// Wikipedia's CORS-enabled API without the proxy; everything else goes
// through this server.
const DefaultConnectSrc = "http://127.0.0.1:* http://localhost:* https://*.wikipedia.org"

// csp is the Content-Security-Policy: only this origin's scripts, plus the
// one permission wasm needs; no inline scripts, no plugins, no remote code.
// 'unsafe-inline' for styles only: go-app sets style attributes from wasm.
func csp(c Config) string {
	return strings.Join(append(cspDirectives(c.ConnectSrc), "frame-ancestors "+c.FrameAncestors), "; ")
}

// embedCSP is the policy of the compact view embed.js loads in its
// iframe (the embed page of app/pages), the one page framed by other
// sites: frame-ancestors lists exactly the embedding origins (and the app
// itself), whatever --frame-ancestors allows for the other pages.
func embedCSP(c Config) string {
	return strings.Join(append(cspDirectives(c.ConnectSrc), "frame-ancestors "+strings.Join(append([]string{"'self'"}, c.Embed.Origins...), " ")), "; ")
}

// cspDirectives is the policy without frame-ancestors, which browsers
// ignore in a <meta> tag: a static site ships exactly these.
func cspDirectives(connectSrc string) []string {
	connect := strings.TrimSpace("'self' " + connectSrc)
	return []string{
		"default-src 'self'",
		"script-src 'self' 'wasm-unsafe-eval'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self'",
		"connect-src " + connect,
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
	}
}

// isEmbedAddress reports whether path is the embed view's page or one of
// its earlier addresses.
func isEmbedAddress(path string) bool {
	for _, p := range pages.All() {
		if !p.Embed {
			continue
		}
		if path == p.Path {
			return true
		}
		for _, m := range p.Moved {
			if path == m {
				return true
			}
		}
	}
	return false
}

// securityHeaders sets the CSP (the embed view's own on its page) and the
// other headers of docs/security.md on every response.
func securityHeaders(next http.Handler, policy, embedPolicy string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if isEmbedAddress(r.URL.Path) {
			h.Set("Content-Security-Policy", embedPolicy)
		} else {
			h.Set("Content-Security-Policy", policy)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		next.ServeHTTP(w, r)
	})
}
