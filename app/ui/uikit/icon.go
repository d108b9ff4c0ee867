package uikit

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/icons"
)

// Icon is one of the interface's icons (app/icons): an inline SVG in
// currentColor, aria-hidden — the control it sits on carries the label.
func Icon(name string) app.UI { return app.Raw(icons.SVG(name)) }
