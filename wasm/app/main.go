//go:build js && wasm

// Command app is tinyRAG's browser entry point, compiled to app.wasm. It
// builds the controller with the browser-only parts (IndexedDB stores, the
// nanoGo worker, localStorage for the settings) and hands it to the UI; it
// only builds for js/wasm, where those parts exist.
//
// The page decides which controller: the full app, or the embedded view
// (embed.html) with stores of its own, named for the page that embeds it, and
// only after that page was found allowed by the site's tinyrag.json.
package main

import (
	"context"
	"net/url"
	"runtime"
	"syscall/js"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
	"tinyrag/app/embed"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importrun"
	"tinyrag/app/markdown/mdmodule"
	"tinyrag/app/nanogo"
	pagetable "tinyrag/app/pages"
	"tinyrag/app/siteconfig"
	"tinyrag/app/storage"
	"tinyrag/app/ui"
)

func main() {
	mark("tinyrag:main")
	var pages ui.Pages
	if app.IsClient {
		page := app.Window().URL()
		origin := *page
		origin.Path, origin.RawQuery, origin.Fragment = "", "", ""
		// The site's base path: a static site may live in any folder, with
		// tinyrag.json next to its index.html. go-app's router is told the
		// same base, found here at run time.
		root := ui.BasePath(page, app.Getenv("GOAPP_ROOT_PREFIX"))
		useRoot(root)
		// The Markdown renderer is markdown.wasm, loaded on first use.
		mdmodule.Page.URL = root + "web/markdown.wasm"
		deps := control.Deps{
			Origin:    origin.String(),
			ConfigURL: origin.String() + root + siteconfig.FileName,
			// The interpreter lives in its own worker wasm, loaded on first use.
			NanoGo: &nanogo.WorkerRunner{Script: workerScript(root, "nanogo.wasm")},
			// The file importers too (their default URLs assume the site's root).
			Importer: &importrun.Runner{Script: workerScript(root, "importer.wasm")},
			Online:   ui.BrowserOnline,
			Log:      func(s string) { app.Log(s) },
			Mark:     mark,
		}
		if pg, _ := pagetable.At(page.Path, root); pg.Embed {
			pages = embedPages(deps, page.Query())
		} else {
			deps.OpenChats = func(ctx context.Context) (chats.Store, error) { return chats.OpenIDB(ctx) }
			deps.OpenKnowledge = func(ctx context.Context) (knowledge.Store, error) {
				return storage.OpenIndexedDB(ctx, "tinyrag-knowledge")
			}
			deps.Prefs = ui.LocalStoragePrefs{}
			pages.App = control.NewController(deps)
		}
	}
	// The stores start opening now, and the goroutine that opens them gets
	// to send its IndexedDB requests before the first render takes the
	// page's one thread: the browser answers them meanwhile.
	for _, c := range []*ui.Controller{pages.App, pages.Embed} {
		if c != nil {
			c.Open()
		}
	}
	runtime.Gosched()
	ui.RoutesFor(pages)
	mark("tinyrag:routes")
	app.RunWhenOnBrowser()
}

// mark sets a User Timing mark, which make bench-cold and the browser's
// performance panel show on the page's timeline.
func mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", name)
	}
}

// embedPages builds the embedded view's controller. The page around the
// frame is checked against the site's embedding origins first: a page that
// is not allowed gets a refusal, and no storage is opened for it. (A
// server also sends frame-ancestors; a static host cannot, so this check
// is what protects a static site.)
func embedPages(deps control.Deps, q url.Values) ui.Pages {
	p := ui.Pages{EmbedOpts: ui.ParseEmbedOptions(q)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	policy, err := ui.LoadEmbedPolicy(ctx, deps.ConfigURL)
	if err != nil {
		p.EmbedRefused = err.Error()
		return p
	}
	embedder, err := embed.CurrentFrame().Embedder(policy)
	if err != nil {
		p.EmbedRefused = err.Error()
		return p
	}
	prefix := embed.StoragePrefix(embedder)
	deps.OpenChats = func(ctx context.Context) (chats.Store, error) { return chats.OpenIDBNamed(ctx, prefix+"chats") }
	deps.OpenKnowledge = func(ctx context.Context) (knowledge.Store, error) {
		return storage.OpenIndexedDB(ctx, prefix+"knowledge")
	}
	// Nobody edits settings in an embed: the defaults, not the full app's.
	deps.Prefs = nil
	// A visitor going from page to page of the site keeps the conversation.
	deps.ResumeWithin = 12 * time.Hour
	deps.Bundles = p.EmbedOpts.Bundles
	p.EmbedHost = &ui.EmbedHost{}
	deps.Observer = p.EmbedHost
	p.Embed = control.NewController(deps)
	if embedder != "" {
		p.EmbedOrigin = embedder
		p.EmbedListen = func(chat embed.Chat) (*embed.Bridge, error) { return embed.Listen(embedder, policy, chat) }
	}
	return p
}

// useRoot makes go-app route by the base found at run time. go-app reads
// GOAPP_ROOT_PREFIX (to strip it from the page's path before matching a
// route) and GOAPP_STATIC_RESOURCES_URL through the page's goappGetenv on
// every call; a static build that works from any folder has "./" there,
// which matches no path. The page's own function answers everything else.
func useRoot(root string) {
	g := js.Global()
	getenv := g.Get("goappGetenv")
	if getenv.Type() != js.TypeFunction {
		return // not go-app's page (a test harness): nothing to route
	}
	g.Set("goappGetenv", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 1 && args[0].Type() == js.TypeString {
			switch args[0].String() {
			case "GOAPP_ROOT_PREFIX":
				return root
			case "GOAPP_STATIC_RESOURCES_URL":
				return root + "web"
			}
		}
		in := make([]any, len(args))
		for i, a := range args {
			in[i] = a
		}
		return getenv.Invoke(in...)
	}))
}

// workerScript is the worker bootstrap (assets/go-worker.js) under the
// site's base path, running the program wasm beside it.
func workerScript(root, wasm string) string {
	return root + "web/go-worker.js?wasm=" + url.QueryEscape(wasm) + "&exec=" + url.QueryEscape(root+"wasm_exec.js")
}
