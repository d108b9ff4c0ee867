//go:build js && wasm

// Command app is tinyRAG's browser entry point, compiled to app.wasm. It
// builds the controller with the browser-only parts (IndexedDB stores, the
// nanoGo worker, localStorage for the settings) and hands it to the UI; it
// only builds for js/wasm, where those parts exist.
package main

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
	"tinyrag/app/nanogo"
	"tinyrag/app/storage"
	"tinyrag/app/ui"
)

func main() {
	var ctrl *ui.Controller
	if app.IsClient {
		origin := app.Window().URL()
		origin.Path, origin.RawQuery, origin.Fragment = "", "", ""
		ctrl = ui.NewController(ui.Deps{
			Origin:    origin.String(),
			OpenChats: func(ctx context.Context) (chats.Store, error) { return chats.OpenIDB(ctx) },
			OpenKnowledge: func(ctx context.Context) (knowledge.Store, error) {
				return storage.OpenIndexedDB(ctx, "tinyrag-knowledge")
			},
			// The interpreter lives in its own worker wasm, loaded on first use.
			NanoGo: &nanogo.WorkerRunner{},
			Prefs:  ui.LocalStoragePrefs{},
		})
	}
	ui.RoutesFor(ctrl)
	app.RunWhenOnBrowser()
}
