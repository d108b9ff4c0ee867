// Command app is tinyRAG's browser entry point, compiled to app.wasm.
package main

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/ui"
)

func main() {
	ui.OpenChatStore = func(ctx context.Context) (chats.Store, error) { return chats.OpenIDB(ctx) }
	ui.Routes()
	app.RunWhenOnBrowser()
}
