// Package uikit holds what the component packages of app/ui share: the
// view states they set for one another (the main area's page, the sidebar
// on a narrow screen, the passage the citation dialog shows), the menu
// button, the icons, two page helpers (the clipboard, the focus), and the
// controller's Site part as the server's prerender, which has no
// controller, sees it.
package uikit

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
)

// View states: set by components for components, never by the
// controller (whose states are app/control's).
const (
	StateView     = "tinyrag/view"     // View
	StateCitation = "tinyrag/citation" // CitationView
)

// Pages of the main area.
const (
	PageChat     = "chat"
	PageSettings = "settings"
)

// View is which page the main area shows and whether the sidebar is open
// on a narrow screen.
type View struct {
	Page    string // PageChat ("" too) or PageSettings
	NavOpen bool
}

// SetView changes the shared view state.
func SetView(ctx app.Context, change func(*View)) {
	var v View
	ctx.GetState(StateView, &v)
	change(&v)
	ctx.SetState(StateView, v)
}

// CitationView is the passage the citation dialog shows, if Open.
type CitationView struct {
	Open     bool
	Citation chats.Citation
	// From is the control that opened the dialog; it gets the focus
	// back on close.
	From app.Value
}

// OpenCitation shows c in the citation dialog.
func OpenCitation(ctx app.Context, c chats.Citation) {
	ctx.SetState(StateCitation, CitationView{Open: true, Citation: c, From: ctx.JSSrc()})
}

// SiteOf is ctrl's Site part; nil (whose methods answer "nothing") on the
// server's prerender.
func SiteOf(ctrl *control.Controller) *control.Site {
	if ctrl == nil {
		return nil
	}
	return ctrl.Site
}
