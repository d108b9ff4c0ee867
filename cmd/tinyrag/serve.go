package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"tinyrag/app/embed"
	"tinyrag/server"
	"tinyrag/server/envconf"
	"tinyrag/server/httpapi"
	"tinyrag/server/webapp"
)

func runServe(ctx context.Context, args []string, _, stderr io.Writer, getenv func(string) string) error {
	c, err := parseServeFlags(args, stderr, getenv)
	if err != nil {
		return err
	}
	return server.Run(ctx, c, slog.New(slog.NewJSONHandler(stderr, nil)))
}

// parseServeFlags reads serve's flags over the defaults from the
// environment into the server's Config; a value either cannot parse stops
// serve before it starts.
func parseServeFlags(args []string, stderr io.Writer, getenv func(string) string) (server.Config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c server.Config
	env := envconf.New(getenv)
	fs.StringVar(&c.Addr, "addr", env.String("TINYRAG_ADDR", "127.0.0.1:8080"), "listen address (env TINYRAG_ADDR)")
	fs.StringVar(&c.App.ConnectSrc, "csp-connect", env.String("TINYRAG_CSP_CONNECT", webapp.DefaultConnectSrc),
		"extra origins the browser may connect to directly, space-separated (env TINYRAG_CSP_CONNECT)")
	fs.StringVar(&c.App.FrameAncestors, "frame-ancestors", env.String("TINYRAG_FRAME_ANCESTORS", "'self'"),
		"origins allowed to frame the full app, CSP syntax (env TINYRAG_FRAME_ANCESTORS); /embed follows --embed-origins instead")
	fs.Func("bundle", "serve this knowledge bundle folder (made by 'tinyrag bundle') as read-only site knowledge; repeatable", func(v string) error {
		c.App.Bundles = append(c.App.Bundles, v)
		return nil
	})
	starterFlag(fs, &c.App.Starters)
	c.App.Embed.Origins = env.ListFunc("TINYRAG_EMBED_ORIGINS", embed.NormalizeOrigin)
	fromEnv := true
	fs.Func("embed-origins", "pages that may embed the app with embed.js, as origins like https://docs.example.org, comma-separated; repeatable (env TINYRAG_EMBED_ORIGINS)",
		func(v string) error {
			if fromEnv {
				c.App.Embed.Origins, fromEnv = nil, false
			}
			return appendOrigins(&c.App.Embed.Origins, v)
		})
	fs.BoolVar(&c.App.Embed.HostSubmit, "embed-host-submit", env.Bool("TINYRAG_EMBED_HOST_SUBMIT", false),
		"let embedding pages submit questions themselves; off, a host's question waits in the composer for the visitor (env TINYRAG_EMBED_HOST_SUBMIT)")
	fs.StringVar(&c.App.Release, "release", env.String("TINYRAG_RELEASE", ""),
		"release label folded into the app version: a new label makes browsers offer the update even if no file changed (env TINYRAG_RELEASE)")
	c.API = httpapi.NewOptions(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	var err error
	if c.App.Starters, err = checkStarters(c.App.Starters); err != nil {
		return c, fmt.Errorf("--starter: %w", err)
	}
	if err := env.Err(); err != nil {
		return c, fmt.Errorf("environment: %w", err)
	}
	return c, nil
}
