// Package server is `tinyrag serve`: one HTTP handler made of the app
// (server/webapp), its /api (server/httpapi) and /healthz, inside the
// security headers; and Run, which listens and shuts down gracefully.
// cmd/tinyrag builds the Config from flags and the environment.
package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"tinyrag/server/httpapi"
	"tinyrag/server/webapp"
)

// Config is everything `tinyrag serve` was told.
type Config struct {
	Addr string           // listen address
	App  webapp.Config    // the app, its bundles, who may embed it, the CSP
	API  *httpapi.Options // the /api proxies; nil: their defaults
}

// New builds the whole HTTP handler: the API, /healthz, the app, wrapped
// in the security headers. env is the running server as the API sees it.
func New(ctx context.Context, c Config, env httpapi.Env) (http.Handler, error) {
	if env.Log == nil {
		env.Log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintln(w, "ok")
	})
	api := c.API
	if api == nil {
		api = httpapi.NewOptions(flag.NewFlagSet("serve", flag.ContinueOnError), func(string) string { return "" })
	}
	if err := httpapi.Mount(ctx, mux, env, api); err != nil {
		return nil, err
	}
	app, err := webapp.New(c.App, env.Log)
	if err != nil {
		return nil, err
	}
	app.Mount(mux)
	return app.Headers(mux), nil
}

// Run serves c until ctx ends, then shuts down gracefully (10 s).
func Run(ctx context.Context, c Config, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", c.Addr, err)
	}
	handler, err := New(ctx, c, httpapi.Env{Addr: ln.Addr().String(), Log: logger})
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
	if note := webapp.QuickBuild(); note != "" {
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
