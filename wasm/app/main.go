//go:build js && wasm

// Command app is tinyRAG's browser entry point, compiled to app.wasm. It
// wires the browser-only parts (IndexedDB stores) into the UI; it only
// builds for js/wasm, where those parts exist.
package main

import (
	"context"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importrun"
	"tinyrag/app/nanogo"
	"tinyrag/app/storage"
	"tinyrag/app/ui"
)

func main() {
	ui.OpenChatStore = func(ctx context.Context) (chats.Store, error) { return chats.OpenIDB(ctx) }
	ui.OpenKnowledgeStore = func(ctx context.Context) (knowledge.Store, error) {
		return storage.OpenIndexedDB(ctx, "tinyrag-knowledge")
	}
	// The interpreter lives in its own worker wasm, loaded on first use.
	// Under the site's base path (a static site may live in a sub-folder).
	root := strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") + "/"
	ui.NanoGoRunner = &nanogo.WorkerRunner{ScriptURL: root + "web/nanogo-worker.js?exec=" + url.QueryEscape(root+"wasm_exec.js")}
	// The file importers too (their default URLs assume the site's root).
	importrun.WorkerScript = root + "web/importer-worker.js?exec=" + url.QueryEscape(root+"wasm_exec.js")
	ui.Routes()
	app.RunWhenOnBrowser()
}
