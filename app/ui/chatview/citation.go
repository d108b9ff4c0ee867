package chatview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// CitationDialog shows one passage an answer drew on (or a search hit),
// modal, closed by Escape, ✕ or a click outside.
type CitationDialog struct {
	app.Compo
	Ctrl *control.Controller
	Lang string
	// LinkTarget is where "Open page" opens ("_top" in the embedded view).
	LinkTarget string

	cite uikit.CitationView
	ctx  app.Context
}

// OnMount observes the citation to show. Opening moves the keyboard focus
// into the dialog: the close button's autofocus attribute works on page
// load only, and with the focus left on the page behind, Escape never
// reached the dialog.
func (d *CitationDialog) OnMount(ctx app.Context) {
	d.ctx = ctx
	ctx.ObserveState(uikit.StateCitation, &d.cite).OnChange(func() {
		if d.cite.Open {
			ctx.Defer(func(app.Context) { uikit.FocusByID("cite-close") })
		}
	})
}

// close closes the dialog and gives the focus back to the control that
// opened it, so a keyboard user continues where they were. The focus
// move is deferred on the dialog's own context: go-app drops what is
// deferred on the context of an element the update removes.
func (d *CitationDialog) close() {
	from := d.cite.From
	d.ctx.SetState(uikit.StateCitation, uikit.CitationView{})
	d.ctx.Defer(func(app.Context) {
		if from != nil && from.Truthy() && from.Get("isConnected").Bool() {
			from.Call("focus")
		}
	})
}

// Render implements app.Composer.
func (d *CitationDialog) Render() app.UI {
	if !d.cite.Open {
		return app.Div().Class("citation-slot")
	}
	c := d.cite.Citation
	l := d.Lang
	link := uikit.SiteOf(d.Ctrl).PassageLink(c)
	closeFn := func(ctx app.Context, e app.Event) { d.close() }
	return app.Div().Class("modal-backdrop").OnClick(closeFn).Body(
		app.Div().Class("modal").Attr("role", "dialog").Aria("modal", true).Aria("labelledby", "cite-title").ID("citation-dialog").
			OnClick(func(ctx app.Context, e app.Event) { e.StopImmediatePropagation() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Escape" {
					d.close()
				}
			}).Body(
			app.Header().Class("modal-head").Body(
				app.H2().ID("cite-title").Text(c.Title),
				app.Button().Class("icon-btn").ID("cite-close").Type("button").Aria("label", i18n.T(l, "close")).AutoFocus(true).Body(uikit.Icon("close")).OnClick(closeFn),
			),
			app.P().Class("cite-source").Body(app.Code().Text(c.Source),
				app.If(passageLabel(l, c.ChunkID) != "", func() app.UI { return app.Span().Text(" · " + passageLabel(l, c.ChunkID)) }),
				app.If(link != "", func() app.UI {
					// The page opens at the passage (a text fragment).
					return app.Span().Body(app.Text(" · "), app.A().ID("cite-link").Class("cite-link").Href(link).Target(linkTarget(d.LinkTarget)).Rel("noopener").
						Body(app.Span().Text(i18n.T(l, "open_page")), uikit.Icon("external")))
				})),
			app.Blockquote().Class("cite-text").Text(c.Text),
		),
	)
}

// passageLabel names a passage by its place in its document ("passage
// 3"), not by its chunk's id ("00000001-24dc0e4c668d#2"), which means
// nothing to a reader; "" when the id carries no number.
func passageLabel(lang, chunkID string) string {
	i := strings.LastIndexByte(chunkID, '#')
	if i < 0 {
		return ""
	}
	n, err := strconv.Atoi(chunkID[i+1:])
	if err != nil || n < 0 {
		return ""
	}
	return fmt.Sprintf(i18n.T(lang, "passage_n"), n+1)
}
