package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	tinyembed "tinyrag/app/embed"
	"tinyrag/app/ui"
	"tinyrag/server/envconf"
)

// dist is the build output of `make build`: the wasm, the stylesheet and the
// icons, each precompressed. Embedding it makes the binary the deployment.
//
//go:embed all:dist
var dist embed.FS

// quickBuild is make build-dev's note (server/dist/quick-build), or "" in
// a build for deployment (make build).
func quickBuild() string {
	b, err := dist.ReadFile("dist/quick-build")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// serveEnv is what a serve extension learns about the running server.
type serveEnv struct {
	Addr string       // the address tinyRAG listens on
	Log  *slog.Logger // structured request and event log (JSON to stderr)
}

// serveExt adds routes and flags to `tinyrag serve` from its own file (the
// /api proxies), so serve.go does not grow with every feature.
type serveExt struct {
	flags func(fs *flag.FlagSet)
	mount func(ctx context.Context, mux *http.ServeMux, env serveEnv) error
}

var serveExts []serveExt

func registerServeExt(e serveExt) { serveExts = append(serveExts, e) }

func init() {
	register("serve", "serve the tinyRAG app and its API proxies (default)", runServe)
}

// serveOptions are the flags of `tinyrag serve`.
type serveOptions struct {
	addr           string
	connectSrc     string
	frameAncestors string
	bundles        []string // knowledge bundles to serve as site knowledge
	starters       []string // starter questions for the welcome screen
	release        string
	// embed is who may embed /embed; the app reads it from tinyrag.json
	// and the CSP of /embed lists its origins.
	embed tinyembed.Policy
}

func runServe(ctx context.Context, args []string) error {
	o, err := parseServeFlags(args, os.Getenv)
	if err != nil {
		return err
	}

	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", o.addr, err)
	}
	handler, err := newServer(ctx, o, serveEnv{Addr: ln.Addr().String(), Log: logger})
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("tinyrag serving", "url", "http://"+ln.Addr().String()+"/")
	if note := quickBuild(); note != "" {
		logger.Warn("this binary is a local build, not for deployment: its wasm is compressed quickly, so visitors would download more; build with make build", "build", note)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", "10s")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// parseServeFlags reads serve's flags over the defaults from the
// environment; a value either cannot parse stops serve before it starts.
func parseServeFlags(args []string, getenv func(string) string) (serveOptions, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var o serveOptions
	env := envconf.New(getenv)
	fs.StringVar(&o.addr, "addr", env.String("TINYRAG_ADDR", "127.0.0.1:8080"), "listen address (env TINYRAG_ADDR)")
	fs.StringVar(&o.connectSrc, "csp-connect", env.String("TINYRAG_CSP_CONNECT", defaultConnectSrc),
		"extra origins the browser may connect to directly, space-separated (env TINYRAG_CSP_CONNECT)")
	fs.StringVar(&o.frameAncestors, "frame-ancestors", env.String("TINYRAG_FRAME_ANCESTORS", "'self'"),
		"origins allowed to frame the full app, CSP syntax (env TINYRAG_FRAME_ANCESTORS); /embed follows --embed-origins instead")
	fs.Func("bundle", "serve this knowledge bundle folder (made by 'tinyrag bundle') as read-only site knowledge; repeatable", func(v string) error {
		o.bundles = append(o.bundles, v)
		return nil
	})
	starterFlag(fs, &o.starters)
	o.embed.Origins = env.ListFunc("TINYRAG_EMBED_ORIGINS", tinyembed.NormalizeOrigin)
	fromEnv := true
	fs.Func("embed-origins", "pages that may embed the app with embed.js, as origins like https://docs.example.org, comma-separated; repeatable (env TINYRAG_EMBED_ORIGINS)",
		func(v string) error {
			if fromEnv {
				o.embed.Origins, fromEnv = nil, false
			}
			return appendOrigins(&o.embed.Origins, v)
		})
	fs.BoolVar(&o.embed.HostSubmit, "embed-host-submit", env.Bool("TINYRAG_EMBED_HOST_SUBMIT", false),
		"let embedding pages submit questions themselves; off, a host's question waits in the composer for the visitor (env TINYRAG_EMBED_HOST_SUBMIT)")
	fs.StringVar(&o.release, "release", env.String("TINYRAG_RELEASE", ""),
		"release label folded into the app version: a new label makes browsers offer the update even if no file changed (env TINYRAG_RELEASE)")
	for _, e := range serveExts {
		if e.flags != nil {
			e.flags(fs)
		}
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	var err error
	if o.starters, err = checkStarters(o.starters); err != nil {
		return o, fmt.Errorf("--starter: %w", err)
	}
	if err := env.Err(); err != nil {
		return o, fmt.Errorf("environment: %w", err)
	}
	return o, nil
}

// defaultConnectSrc lets the app talk to a local LLM directly and read
// Wikipedia's CORS-enabled API without the proxy; everything else goes
// through this server.
const defaultConnectSrc = "http://127.0.0.1:* http://localhost:* https://*.wikipedia.org"

// newServer builds the whole HTTP handler: the PWA, the API extensions,
// /healthz, wrapped in the security headers.
func newServer(ctx context.Context, o serveOptions, env serveEnv) (http.Handler, error) {
	webRoot, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, err
	}
	assets, err := loadStatic(webRoot, "web")
	if err != nil {
		return nil, fmt.Errorf("reading embedded assets: %w", err)
	}
	if !assets.has("/web/app.wasm") {
		env.Log.Warn("app.wasm is not embedded: build with 'make build' (the page will not start)")
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintln(w, "ok")
	})
	for _, e := range serveExts {
		if e.mount != nil {
			if err := e.mount(ctx, mux, env); err != nil {
				return nil, err
			}
		}
	}
	if err := mountSiteConfig(mux, o.bundles, o.embed, o.starters, env); err != nil {
		return nil, err
	}
	ui.Routes()
	p, err := buildPWA(assets, assets, o.release, nil)
	if err != nil {
		return nil, err
	}
	env.Log.Info("app version", "version", p.version)
	p.mount(mux)
	return securityHeaders(mux, csp(o), embedCSP(o)), nil
}

// csp is the Content-Security-Policy: only this origin's scripts, plus the
// one permission wasm needs; no inline scripts, no plugins, no remote code.
// 'unsafe-inline' for styles only: go-app sets style attributes from wasm.
func csp(o serveOptions) string {
	return strings.Join(append(cspDirectives(o.connectSrc), "frame-ancestors "+o.frameAncestors), "; ")
}

// embedCSP is the policy of the compact view embed.js loads in its
// iframe (embedPage), the one page framed by other sites: frame-ancestors
// lists exactly the embedding origins (and the app itself), whatever
// --frame-ancestors allows for the other pages.
func embedCSP(o serveOptions) string {
	return strings.Join(append(cspDirectives(o.connectSrc), "frame-ancestors "+strings.Join(append([]string{"'self'"}, o.embed.Origins...), " ")), "; ")
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

func securityHeaders(next http.Handler, policy, embedPolicy string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.URL.Path == embedPage || r.URL.Path == legacyEmbedPage {
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

// appendOrigins adds the comma-separated origins in v to list, each
// normalized; the first that is not an exact origin is the error. serve
// and static read --embed-origins with it.
func appendOrigins(list *[]string, v string) error {
	for _, s := range envconf.SplitList(v) {
		n, err := tinyembed.NormalizeOrigin(s)
		if err != nil {
			return err
		}
		*list = append(*list, n)
	}
	return nil
}
