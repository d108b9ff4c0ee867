package ui

import "tinyrag/app/control"

// Controller is the logic the views drive (app/control): its parts Chat,
// Knowledge, Model and Site. A nil Controller is the server's prerender,
// which shows the empty pages.
type Controller = control.Controller

// canRunGo reports whether nanoGo runs with settings s (false on the
// server's prerender).
func canRunGo(ctrl *Controller, s control.Settings) bool {
	return ctrl != nil && ctrl.Model.CanRunGo(s)
}
