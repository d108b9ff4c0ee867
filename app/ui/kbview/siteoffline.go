package kbview

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui/i18n"
)

// SiteOffline says whether the site's knowledge is stored for offline use:
// the service worker stores it in the background once the app is ready
// (server/pwa/worker.js, storeSite), and the page script relays how far it
// is (assets/web/pwa.js, tinyragPWA.onSite). It says only what the worker
// reported: before any report, that nothing is stored yet.
type SiteOffline struct {
	app.Compo

	Lang string

	st    offlineStatus
	fn    app.Func
	unsub app.Value
}

// offlineStatus is one report of the worker's download.
type offlineStatus struct {
	State         string
	Stored, Total int
	Err           string
	Need, Quota   float64 // bytes, for the quota message
}

// OnMount subscribes to the page script's reports.
func (s *SiteOffline) OnMount(ctx app.Context) {
	if app.IsServer {
		return
	}
	pwa := app.Window().Get("tinyragPWA")
	if !pwa.Truthy() {
		return
	}
	s.fn = app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) == 0 || !args[0].Truthy() {
			return nil
		}
		v := args[0]
		st := offlineStatus{State: str(v, "state"), Stored: num(v, "stored"), Total: num(v, "total"), Err: str(v, "error")}
		st.Need, st.Quota = float64(num(v, "need")), float64(num(v, "quota"))
		ctx.Dispatch(func(app.Context) { s.st = st })
		return nil
	})
	s.unsub = pwa.Call("onSite", s.fn)
}

// OnDismount stops the reports.
func (s *SiteOffline) OnDismount() {
	if s.unsub != nil && s.unsub.Truthy() {
		s.unsub.Invoke()
	}
	if s.fn != nil {
		s.fn.Release()
	}
}

func str(v app.Value, key string) string {
	if x := v.Get(key); x.Truthy() {
		return x.String()
	}
	return ""
}

func num(v app.Value, key string) int {
	if x := v.Get(key); x.Truthy() {
		return x.Int()
	}
	return 0
}

// Render implements app.Composer.
func (s *SiteOffline) Render() app.UI {
	l, st := s.Lang, s.st
	var text string
	switch st.State {
	case "storing":
		pct := 0
		if st.Total > 0 {
			pct = st.Stored * 100 / st.Total
		}
		text = fmt.Sprintf(i18n.T(l, "site_offline_storing"), pct, st.Stored, st.Total)
	case "done":
		text = fmt.Sprintf(i18n.T(l, "site_offline_done"), st.Total)
	case "save-data":
		text = i18n.T(l, "site_offline_save_data")
	case "quota":
		if st.Quota > 0 {
			text = fmt.Sprintf(i18n.T(l, "site_offline_quota_mb"), st.Quota/1e6, st.Need/1e6)
		} else {
			text = i18n.T(l, "site_offline_quota")
		}
	case "error":
		text = fmt.Sprintf(i18n.T(l, "site_offline_error"), st.Err)
	case "unsupported":
		text = i18n.T(l, "site_offline_unsupported")
	case "none":
		return app.Text("")
	default:
		text = i18n.T(l, "site_offline_not_yet")
	}
	state := st.State
	if state == "" {
		state = "not-yet"
	}
	return app.P().Class("site-status site-offline").Attr("data-offline", state).Text(text)
}
