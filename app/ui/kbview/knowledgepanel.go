// Package kbview is the knowledge panel of the app's sidebar, in
// components: the search box and its hits, the imports (files and folders
// picked or dropped, pasted text, a web address, a Wikipedia article), the
// backup, the site's read-only knowledge and whether it is stored for
// offline use, and the sources. What it shows comes from the controller's
// knowledge states (app/control), translated as it renders.
package kbview

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/control/kbinput"
	"tinyrag/app/knowledge"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// docPage is how many sources the list renders at a time: a knowledge base
// of thousands of documents must not become thousands of DOM nodes at once.
const docPage = 100

// KnowledgePanel is the knowledge base: search, import (files, folders,
// pasted text, a URL, a Wikipedia article, a backup) and the sources.
type KnowledgePanel struct {
	app.Compo
	Ctrl *control.Controller
	Lang string

	kn     control.KnowledgeState
	search control.SearchState

	query                 string
	pasteTitle, pasteText string
	url, wiki             string
	dragging              bool
	pasteErr              string
	shown                 int // how many sources the list renders; 0 means docPage
}

// OnMount observes the sources, the import under way and the search hits.
func (k *KnowledgePanel) OnMount(ctx app.Context) {
	ctx.ObserveState(control.StateKnowledge, &k.kn)
	ctx.ObserveState(control.StateSearch, &k.search)
	// Back from the chats tab, the box shows the search still listed.
	k.query = k.search.Query
}

// Render implements app.Composer.
func (k *KnowledgePanel) Render() app.UI {
	l := k.Lang
	dropCls := "dropzone"
	if k.dragging {
		dropCls += " over"
	}
	shown := k.shown
	if shown <= 0 {
		shown = docPage
	}
	var docs []app.UI
	for i, d := range k.kn.Docs {
		if i == shown {
			break
		}
		docs = append(docs, k.renderDoc(d))
	}
	more := len(k.kn.Docs) - shown
	errText := importErrText(l, k.kn)
	if k.pasteErr != "" {
		errText = k.pasteErr
	}
	return app.Div().Class("side-panel kb-panel").Attr("role", "tabpanel").ID("panel-knowledge").Aria("labelledby", "tab-knowledge").Body(
		// Search
		app.Input().Type("search").Class("side-search").ID("kb-search").
			Placeholder(i18n.T(l, "search_kb")).Aria("label", i18n.T(l, "search_kb")).Value(k.query).
			OnInput(func(ctx app.Context, e app.Event) {
				k.query = ctx.JSSrc().Get("value").String()
				k.Ctrl.Knowledge.SearchKB(k.query)
			}),
		app.If(strings.TrimSpace(k.query) != "", func() app.UI { return k.renderHits() }),

		// Import
		app.Div().Class(dropCls).ID("kb-drop").
			On("dragover", func(ctx app.Context, e app.Event) { e.PreventDefault(); k.dragging = true }).
			On("dragleave", func(ctx app.Context, e app.Event) { k.dragging = false }).
			On("drop", func(ctx app.Context, e app.Event) {
				e.PreventDefault()
				k.dragging = false
				if k.kn.Importing {
					return
				}
				if entries := droppedEntries(e); len(entries) > 0 {
					k.Ctrl.Knowledge.ImportFiles(func() []control.File { return readEntries(entries) })
					return
				}
				// Some sources (other apps, scripted drops) give files
				// without file-system entries.
				if files := e.Get("dataTransfer").Get("files"); files.Truthy() && files.Length() > 0 {
					picked := filesOf(files)
					k.Ctrl.Knowledge.ImportFiles(func() []control.File { return readFiles(picked) })
				}
			}).
			Body(
				app.Span().Class("drop-icon").Body(uikit.Icon("upload")),
				app.Span().Text(i18n.T(l, "drop")),
				app.Div().Class("pick-row").Body(
					app.Label().Class("btn small").For("kb-files").Text(i18n.T(l, "files")),
					app.Input().Type("file").ID("kb-files").Class("sr-only").Multiple(true).
						OnChange(k.onPick),
					app.Label().Class("btn small").For("kb-folder").Text(i18n.T(l, "folder")),
					app.Input().Type("file").ID("kb-folder").Class("sr-only").Multiple(true).
						Attr("webkitdirectory", true).OnChange(k.onPick),
				),
			),
		app.If(k.kn.Importing, func() app.UI { return k.renderProgress() }),
		app.If(errText != "", func() app.UI {
			return app.P().Class("form-error").Attr("role", "alert").Text(errText)
		}),
		app.If(k.kn.Outcome != nil && !k.kn.Importing, func() app.UI {
			return app.P().Class("form-ok").Attr("role", "status").ID("kb-result").Text(outcomeText(l, k.kn.Outcome))
		}),

		app.Details().Class("kb-add").Body(
			app.Summary().Text(i18n.T(l, "paste")),
			app.Input().Class("field-input").ID("paste-title").Placeholder(i18n.T(l, "paste_title")).Aria("label", i18n.T(l, "paste_title")).
				Value(k.pasteTitle).OnInput(func(ctx app.Context, e app.Event) { k.pasteTitle = ctx.JSSrc().Get("value").String() }),
			app.Textarea().Class("field-input").ID("paste-text").Rows(4).Aria("label", i18n.T(l, "paste")).Text(k.pasteText).
				OnInput(func(ctx app.Context, e app.Event) { k.pasteText = ctx.JSSrc().Get("value").String() }),
			app.Button().Class("btn small primary").ID("paste-add").Type("button").Disabled(k.kn.Importing).Text(i18n.T(l, "add_text")).
				OnClick(func(ctx app.Context, e app.Event) {
					if err := k.Ctrl.Knowledge.ImportText(k.pasteTitle, k.pasteText); err != nil {
						k.pasteErr = err.Error()
						return
					}
					k.pasteTitle, k.pasteText, k.pasteErr = "", "", ""
				}),
		),
		app.If(!uikit.SiteOf(k.Ctrl).WebImports(), func() app.UI {
			return app.P().Class("empty-hint").ID("kb-url-off").Text(i18n.T(l, "url_off"))
		}).Else(func() app.UI {
			return k.renderFetchRow("kb-url", i18n.T(l, "url"), &k.url, k.Ctrl.Knowledge.ImportURL)
		}),
		k.renderFetchRow("kb-wiki", i18n.T(l, "wikipedia"), &k.wiki, k.Ctrl.Knowledge.ImportWikipedia),

		&BackupSection{Ctrl: k.Ctrl, Lang: l},

		k.renderSiteKnowledge(),

		// Sources
		app.Div().Class("side-section-title").Text(i18n.T(l, "sources_title")+fmt.Sprintf(" (%d)", len(k.kn.Docs))),
		app.If(len(k.kn.Docs) == 0, func() app.UI { return app.P().Class("empty-hint").Text(i18n.T(l, "no_docs")) }),
		app.Ul().Class("doc-list").ID("doc-list").Body(docs...),
		app.If(more > 0, func() app.UI {
			return app.Button().Class("btn small").ID("doc-more").Type("button").
				Text(fmt.Sprintf(i18n.T(l, "show_more"), min(more, docPage), more)).
				OnClick(func(ctx app.Context, e app.Event) { k.shown = max(k.shown, docPage) + docPage })
		}),
	)
}

func (k *KnowledgePanel) renderFetchRow(id, label string, v *string, submit func(string) bool) app.UI {
	l := k.Lang
	do := func() {
		if strings.TrimSpace(*v) == "" || k.kn.Importing {
			return
		}
		if submit(*v) {
			*v = ""
		}
	}
	return app.Div().Class("fetch-row").Body(
		app.Input().Class("field-input").ID(id).Placeholder(label).Aria("label", label).Value(*v).
			OnInput(func(ctx app.Context, e app.Event) { *v = ctx.JSSrc().Get("value").String() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" {
					*v = ctx.JSSrc().Get("value").String()
					do()
				}
			}),
		app.Button().Class("btn small").ID(id+"-add").Type("button").Text(i18n.T(l, "add")).
			OnClick(func(ctx app.Context, e app.Event) { do() }),
	)
}

func (k *KnowledgePanel) renderProgress() app.UI {
	p := k.kn.Progress
	phase := i18n.T(k.Lang, "importing") + "…"
	pct := 0.0
	if p.Total > 0 {
		pct = 100 * float64(p.Done) / float64(p.Total)
	}
	return app.Div().Class("import-progress").ID("kb-progress").Body(
		app.Div().Class("progress-label").Body(
			app.Span().Text(phase),
			app.Span().Class("progress-nums").Text(progressText(k.Lang, p)),
		),
		app.Div().Class("progress").Attr("role", "progressbar").
			Aria("valuemin", 0).Aria("valuemax", 100).Aria("valuenow", int(pct)).Aria("label", phase).
			Body(app.Div().Style("width", fmt.Sprintf("%.0f%%", pct))),
	)
}

func (k *KnowledgePanel) renderDoc(d knowledge.Document) app.UI {
	l := k.Lang
	refetch := d.Type == "url" || d.Type == "wikipedia"
	return app.Li().Class("doc").Body(
		app.Div().Class("doc-main").Body(
			app.Span().Class("doc-title").Title(d.Source).Text(d.Title),
			app.Span().Class("doc-meta").Text(humanSize(d.Size)+" · "+chunkCount(l, d.Chunks)+" · "+d.Added.Local().Format("2006-01-02")),
		),
		app.If(refetch, func() app.UI {
			return app.Button().Class("row-btn").Type("button").Title(i18n.T(l, "reimport")).Aria("label", i18n.T(l, "reimport")+": "+d.Title).Body(uikit.Icon("refresh")).
				OnClick(func(ctx app.Context, e app.Event) { k.Ctrl.Knowledge.Reimport(d) }, app.EventScope(d.ID))
		}),
		app.Button().Class("row-btn danger").Type("button").Title(i18n.T(l, "delete")).Aria("label", i18n.T(l, "delete")+": "+d.Title).Body(uikit.Icon("trash")).
			OnClick(func(ctx app.Context, e app.Event) { k.Ctrl.Knowledge.DeleteDoc(d.ID) }, app.EventScope(d.ID)),
	)
}

func (k *KnowledgePanel) renderHits() app.UI {
	l := k.Lang
	s := k.search
	// A search that could not read part of the knowledge (the site's,
	// offline or damaged) says so above what it found.
	var errUI app.UI = app.Text("")
	if s.Err != "" {
		errUI = app.P().Class("form-error").ID("kb-search-err").Attr("role", "alert").Text(s.Err)
	}
	if len(s.Hits) == 0 {
		if s.Err != "" {
			return errUI
		}
		return app.P().Class("empty-hint").Text(i18n.T(l, "no_hits"))
	}
	var items []app.UI
	for _, h := range s.Hits {
		if h.Pending {
			// Its place is known, its text on its way: a row of the
			// same height keeps the hits below from jumping when it
			// comes.
			items = append(items, app.Li().Class("hit-pending").Aria("busy", "true").Body(
				app.Span().Class("sr-only").Text(i18n.T(l, "hit_loading")),
				app.Span().Class("bar"), app.Span().Class("bar"), app.Span().Class("bar"),
			))
			continue
		}
		frag := strings.Join(h.Fragments, " … ")
		if frag == "" {
			frag = kbinput.Clip(h.Text, 200)
			frag = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(frag)
		}
		hit := h
		items = append(items, app.Li().Class("hit").Body(
			app.Button().Class("hit-btn").Type("button").Body(
				app.Strong().Text(h.Title),
				// Fragments are HTML-escaped by the knowledge base with
				// only <mark> added; one root element for app.Raw.
				app.Raw("<span class=\"hit-frag\">"+sanitizeMarks(frag)+"</span>"),
			).OnClick(func(ctx app.Context, e app.Event) {
				uikit.OpenCitation(ctx, control.CitationOfHit(hit))
			}, app.EventScope(hit.ChunkID)),
		))
	}
	return app.Div().Body(errUI, app.Ul().Class("hit-list").ID("kb-hits").Aria("label", i18n.T(l, "search_kb")).Body(items...))
}

func (k *KnowledgePanel) onPick(ctx app.Context, e app.Event) {
	if !k.kn.Importing {
		onFilesPicked(ctx, k.Ctrl.Knowledge.ImportFiles)
	}
}

// onFilesPicked hands the files of the <input type=file> that changed to
// importFn, to be read off the UI goroutine.
func onFilesPicked(ctx app.Context, importFn func(read func() []control.File) bool) {
	el := ctx.JSSrc()
	list := el.Get("files")
	if !list.Truthy() || list.Length() == 0 {
		return
	}
	picked := filesOf(list)
	importFn(func() []control.File { return readFiles(picked) })
	// Picking the same file again must fire change again.
	ctx.Defer(func(app.Context) { el.Set("value", "") })
}

// sanitizeMarks keeps the knowledge base's highlighting: the fragment is
// already escaped text with <mark> and </mark> as the only tags. Anything
// else that looks like a tag is escaped again, in case that ever changes.
func sanitizeMarks(s string) string {
	const open, closeTag = "\x00m\x00", "\x00/m\x00"
	s = strings.ReplaceAll(s, "<mark>", open)
	s = strings.ReplaceAll(s, "</mark>", closeTag)
	s = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
	s = strings.ReplaceAll(s, open, "<mark>")
	return strings.ReplaceAll(s, closeTag, "</mark>")
}
