package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"tinyrag/server/exitcode"
	"tinyrag/server/webapp"
)

// runStatic reads the flags of `tinyrag static` into a webapp.Site and
// writes it.
func runStatic(ctx context.Context, args []string, stdout, stderr io.Writer, _ func(string) string) error {
	fl := flag.NewFlagSet("static", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o webapp.Site
	fl.StringVar(&o.Out, "o", "", "output folder (required; created, and emptied of an earlier static build)")
	fl.StringVar(&o.Base, "base", "", "the URL path the site is served under, e.g. /docs/assistant/, for absolute URLs; without it every URL is relative and the site works from any folder")
	fl.Func("bundle", "ship this knowledge bundle folder (made by 'tinyrag bundle') as site knowledge; repeatable", func(v string) error {
		o.Bundles = append(o.Bundles, v)
		return nil
	})
	fl.StringVar(&o.LLMURL, "llm-url", "", "preset OpenAI-compatible base URL for visitors (never a key)")
	fl.StringVar(&o.LLMModel, "model", "", "preset model name")
	fl.StringVar(&o.Proxy, "proxy", "", "origin of a tinyRAG server to use as proxy for the model and the web tools")
	fl.StringVar(&o.ConnectSrc, "csp-connect", webapp.StaticConnectSrc, "origins the page may connect to, CSP syntax")
	fl.Func("embed-origins", "pages that may embed the app with embed.js, as origins like https://docs.example.org, comma-separated; repeatable. A static host cannot send frame-ancestors: the app checks its embedding page itself", func(v string) error {
		return appendOrigins(&o.Embed.Origins, v)
	})
	fl.BoolVar(&o.Embed.HostSubmit, "embed-host-submit", false, "let embedding pages submit questions themselves; off, a host's question waits in the composer for the visitor")
	starterFlag(fl, &o.Starters)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if o.Out == "" || fl.NArg() > 0 {
		fl.Usage()
		return &exitcode.Error{Code: 2, Err: errors.New("need -o DIR and no other arguments")}
	}
	var err error
	if o.Starters, err = checkStarters(o.Starters); err != nil {
		return fmt.Errorf("--starter: %w", err)
	}
	return webapp.WriteSite(o, stdout)
}
