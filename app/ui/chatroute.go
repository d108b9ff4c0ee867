package ui

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/ui/i18n"
)

// Chats have addresses in the full app: the URL's fragment names the open
// chat (#chat=ID), so a reload returns to it, a bookmark opens it, and
// back and forward move between the chats one opened. A fragment works on
// any static host and under any folder: it never reaches the server. (The
// embedded view keeps its own rule: it resumes its latest conversation.)

// chatHash is the fragment naming chat id; "" names none (a new chat).
func chatHash(id string) string {
	if id == "" {
		return ""
	}
	return "#chat=" + url.QueryEscape(id)
}

// hashChat is the chat a fragment names ("#chat=ID"), "" for none.
func hashChat(hash string) string {
	v, err := url.ParseQuery(strings.TrimPrefix(hash, "#"))
	if err != nil {
		return ""
	}
	return v.Get("chat")
}

// chatRoute keeps the address and the open chat in step. There is one per
// page: go-app may mount the app's root again, the address stays.
var chatRoute struct {
	started bool
	current string // the open chat, as last written to the address
	popping bool   // the change comes from back or forward
	pop     app.Func
}

// routeStart runs once the app is ready: it opens the chat the address
// names (an unknown one leaves a new chat open, with a note), puts a
// question that came with the address (?q=) in, and from then on follows
// back and forward.
func routeStart(ctx app.Context, ctrl *Controller) {
	if chatRoute.started {
		return
	}
	chatRoute.started = true
	u := app.Window().URL()
	if id := hashChat("#" + u.Fragment); id != "" && !ctrl.Chat.OpenChat(id) {
		ctrl.ShowNotice(i18n.T(ctrl.Model.Settings().Lang, "chat_unknown"))
		chatRoute.popping = true // the address is replaced, not added to
	}
	if q := linkQuestion(u.Query()); q != "" {
		// Asked (or put in) once: a reload must not ask it again.
		v := u.Query()
		v.Del("q")
		u.RawQuery = v.Encode()
		setAddress(u.Path+querySuffix(u.RawQuery)+"#"+u.Fragment, false)
		askFromLink(ctx, ctrl, q)
	}
	chatRoute.pop = app.FuncOf(func(app.Value, []app.Value) any {
		id := hashChat(app.Window().Get("location").Get("hash").String())
		ctx.Dispatch(func(app.Context) {
			chatRoute.popping = true
			switch {
			case id == "":
				ctrl.Chat.NewChat()
			case !ctrl.Chat.OpenChat(id):
				ctrl.Chat.NewChat()
				ctrl.ShowNotice(i18n.T(ctrl.Model.Settings().Lang, "chat_unknown"))
			}
		})
		return nil
	})
	app.Window().Call("addEventListener", "popstate", chatRoute.pop)
	routeFollow(ctrl.Chat.List())
}

// routeFollow writes the open chat into the address: a chat one opened is
// a new history entry (back returns to the one before); the same chat
// getting stored, or a change from back and forward, replaces the entry.
// A chat not stored yet (new, empty) has no address: it would not be
// found after a reload.
func routeFollow(list control.ChatList) {
	if !chatRoute.started {
		return
	}
	want := ""
	for _, it := range list.Items {
		if it.ID == list.Current {
			want = chatHash(list.Current)
			break
		}
	}
	loc := app.Window().Get("location")
	if loc.Get("hash").String() != want {
		push := !chatRoute.popping && list.Current != chatRoute.current
		setAddress(loc.Get("pathname").String()+loc.Get("search").String()+want, push)
	}
	chatRoute.current, chatRoute.popping = list.Current, false
}

// setAddress changes the page's address without loading anything: a new
// history entry (push) or in place of the current one.
func setAddress(u string, push bool) {
	if strings.HasSuffix(u, "#") {
		u = strings.TrimSuffix(u, "#")
	}
	h := app.Window().Get("history")
	if push {
		h.Call("pushState", nil, "", u)
	} else {
		h.Call("replaceState", h.Get("state"), "", u)
	}
}

func querySuffix(raw string) string {
	if raw == "" {
		return ""
	}
	return "?" + raw
}
