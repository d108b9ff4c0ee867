//go:build js && wasm

// Command app is tinyRAG's browser entry point, compiled to app.wasm. It
// builds the controller with the browser-only parts (IndexedDB stores, the
// nanoGo worker, localStorage for the settings) and hands it to the UI; it
// only builds for js/wasm, where those parts exist.
package main

import (
	"context"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
	"tinyrag/app/nanogo"
	"tinyrag/app/siteconfig"
	"tinyrag/app/storage"
	"tinyrag/app/ui"
)

func main() {
	var ctrl *ui.Controller
	if app.IsClient {
		origin := app.Window().URL()
		origin.Path, origin.RawQuery, origin.Fragment = "", "", ""
		// The site's base path: a static site may live in a sub-folder,
		// with tinyrag.json next to its index.html.
		root := strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") + "/"
		ctrl = ui.NewController(ui.Deps{
			Origin:    origin.String(),
			ConfigURL: origin.String() + root + siteconfig.FileName,
			OpenChats: func(ctx context.Context) (chats.Store, error) { return chats.OpenIDB(ctx) },
			OpenKnowledge: func(ctx context.Context) (knowledge.Store, error) {
				return storage.OpenIndexedDB(ctx, "tinyrag-knowledge")
			},
			// The interpreter lives in its own worker wasm, loaded on first use.
			NanoGo: &nanogo.WorkerRunner{ScriptURL: root + "web/nanogo-worker.js?exec=" + url.QueryEscape(root+"wasm_exec.js")},
			Prefs:  ui.LocalStoragePrefs{},
			Online: ui.BrowserOnline,
			Log:    func(s string) { app.Log(s) },
		})
	}
	ui.RoutesFor(ui.Pages{App: ctrl})
	app.RunWhenOnBrowser()
}
