// Command app is tinyRAG's browser entry point, compiled to app.wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui"
)

func main() {
	ui.Routes()
	app.RunWhenOnBrowser()
}
