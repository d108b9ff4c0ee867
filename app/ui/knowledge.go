package ui

import (
	"context"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/knowledge"
	"tinyrag/app/web"
)

// knowledgeView is the view state of the knowledge panel.
type knowledgeView struct {
	docs []knowledge.Document

	pasteTitle, pasteText string
	url, wiki             string
	dragging              bool

	importing bool
	phase     string
	progress  knowledge.Progress
	result    string // last import's outcome
	errText   string

	query     string
	hits      []knowledge.Hit
	qErr      string
	searchSeq int // numbers searches, so only the latest one's hits show

	shown int // how many sources the list renders; 0 means docPage

	siteErrs []string // site bundles that could not be loaded, and config warnings
}

// docPage is how many sources the list renders at a time: a knowledge base
// of thousands of documents must not become thousands of DOM nodes at once.
const docPage = 100

func (k *knowledgeView) refresh(rt *Runtime) {
	if rt != nil && rt.KB != nil {
		docs := rt.KB.Documents()
		// Newest first: what was just imported is what one looks for.
		for i, j := 0, len(docs)-1; i < j; i, j = i+1, j-1 {
			docs[i], docs[j] = docs[j], docs[i]
		}
		k.docs = docs
	}
}

func (s *Shell) renderKnowledge() app.UI {
	l := s.lang()
	k := &s.kn
	dropCls := "dropzone"
	if k.dragging {
		dropCls += " over"
	}
	shown := k.shown
	if shown <= 0 {
		shown = docPage
	}
	var docs []app.UI
	for i, d := range k.docs {
		if i == shown {
			break
		}
		docs = append(docs, s.renderDoc(d))
	}
	more := len(k.docs) - shown
	return app.Div().Class("side-panel kb-panel").Attr("role", "tabpanel").ID("panel-knowledge").Aria("labelledby", "tab-knowledge").Body(
		// Search
		app.Input().Type("search").Class("side-search").ID("kb-search").
			Placeholder(T(l, "search_kb")).Aria("label", T(l, "search_kb")).Value(k.query).
			OnInput(func(ctx app.Context, e app.Event) {
				k.query = ctx.JSSrc().Get("value").String()
				s.searchKB()
			}),
		app.If(strings.TrimSpace(k.query) != "", func() app.UI { return s.renderHits() }),

		// Import
		app.Div().Class(dropCls).ID("kb-drop").
			On("dragover", func(ctx app.Context, e app.Event) { e.PreventDefault(); k.dragging = true }).
			On("dragleave", func(ctx app.Context, e app.Event) { k.dragging = false }).
			On("drop", func(ctx app.Context, e app.Event) {
				e.PreventDefault()
				k.dragging = false
				if k.importing {
					return
				}
				if entries := droppedEntries(e); len(entries) > 0 {
					s.importFiles(func() []fileData { return readEntries(entries) })
					return
				}
				// Some sources (other apps, scripted drops) give files
				// without file-system entries.
				if files := e.Get("dataTransfer").Get("files"); files.Truthy() && files.Length() > 0 {
					s.importFiles(func() []fileData { return readFileList(files) })
				}
			}).
			Body(
				app.Span().Class("drop-icon").Aria("hidden", true).Text("⇪"),
				app.Span().Text(T(l, "drop")),
				app.Div().Class("pick-row").Body(
					app.Label().Class("btn small").For("kb-files").Text(T(l, "files")),
					app.Input().Type("file").ID("kb-files").Class("sr-only").Multiple(true).
						OnChange(s.onPick),
					app.Label().Class("btn small").For("kb-folder").Text(T(l, "folder")),
					app.Input().Type("file").ID("kb-folder").Class("sr-only").Multiple(true).
						Attr("webkitdirectory", true).OnChange(s.onPick),
				),
			),
		app.If(k.importing, func() app.UI { return s.renderProgress() }),
		app.If(k.errText != "", func() app.UI {
			return app.P().Class("form-error").Attr("role", "alert").Text(k.errText)
		}),
		app.If(k.result != "" && !k.importing, func() app.UI {
			return app.P().Class("form-ok").Attr("role", "status").ID("kb-result").Text(k.result)
		}),

		app.Details().Class("kb-add").Body(
			app.Summary().Text(T(l, "paste")),
			app.Input().Class("field-input").ID("paste-title").Placeholder(T(l, "paste_title")).Aria("label", T(l, "paste_title")).
				Value(k.pasteTitle).OnInput(func(ctx app.Context, e app.Event) { k.pasteTitle = ctx.JSSrc().Get("value").String() }),
			app.Textarea().Class("field-input").ID("paste-text").Rows(4).Aria("label", T(l, "paste")).Text(k.pasteText).
				OnInput(func(ctx app.Context, e app.Event) { k.pasteText = ctx.JSSrc().Get("value").String() }),
			app.Button().Class("btn small primary").ID("paste-add").Type("button").Disabled(k.importing).Text(T(l, "add_text")).
				OnClick(func(ctx app.Context, e app.Event) {
					in, err := pastedInput(k.pasteTitle, k.pasteText, time.Now())
					if err != nil {
						k.errText = err.Error()
						return
					}
					k.pasteTitle, k.pasteText = "", ""
					s.importInputs(func(context.Context) ([]knowledge.Input, []string, error) { return []knowledge.Input{in}, nil, nil })
				}),
		),
		app.If(s.rt != nil && s.rt.Proxy() == "", func() app.UI {
			return app.P().Class("empty-hint").ID("kb-url-off").Text(T(l, "url_off"))
		}).Else(func() app.UI {
			return s.renderFetchRow("kb-url", T(l, "url"), &k.url, func(v string) {
				rt := s.rt
				s.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
					in, err := urlInput(ctx, web.ProxyFetcher{Base: rt.Proxy(), Client: rt.HTTP}, v)
					return []knowledge.Input{in}, nil, err
				})
			})
		}),
		s.renderFetchRow("kb-wiki", T(l, "wikipedia"), &k.wiki, func(v string) {
			cfg := s.rt.wikiConfig(s.settings)
			s.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
				in, err := wikiInput(ctx, cfg, v)
				return []knowledge.Input{in}, nil, err
			})
		}),

		s.renderBackup(),

		s.renderSiteKnowledge(),

		// Sources
		app.Div().Class("side-section-title").Text(T(l, "sources_title")+sprintf(" (%d)", len(k.docs))),
		app.If(len(k.docs) == 0, func() app.UI { return app.P().Class("empty-hint").Text(T(l, "no_docs")) }),
		app.Ul().Class("doc-list").ID("doc-list").Body(docs...),
		app.If(more > 0, func() app.UI {
			return app.Button().Class("btn small").ID("doc-more").Type("button").
				Text(sprintf(T(l, "show_more"), min(more, docPage), more)).
				OnClick(func(ctx app.Context, e app.Event) { k.shown = shown + docPage })
		}),
	)
}

func (s *Shell) renderFetchRow(id, label string, v *string, submit func(string)) app.UI {
	l := s.lang()
	do := func() {
		if strings.TrimSpace(*v) == "" || s.kn.importing {
			return
		}
		val := *v
		*v = ""
		submit(val)
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
		app.Button().Class("btn small").ID(id+"-add").Type("button").Text(T(l, "add")).
			OnClick(func(ctx app.Context, e app.Event) { do() }),
	)
}

func (s *Shell) renderProgress() app.UI {
	k := &s.kn
	pct := 0.0
	if k.progress.Total > 0 {
		pct = 100 * float64(k.progress.Done) / float64(k.progress.Total)
	}
	return app.Div().Class("import-progress").ID("kb-progress").Body(
		app.Div().Class("progress-label").Body(
			app.Span().Text(k.phase),
			app.Span().Class("progress-nums").Text(progressText(s.lang(), k.progress)),
		),
		app.Div().Class("progress").Attr("role", "progressbar").
			Aria("valuemin", 0).Aria("valuemax", 100).Aria("valuenow", int(pct)).Aria("label", k.phase).
			Body(app.Div().Style("width", sprintf("%.0f%%", pct))),
	)
}

func (s *Shell) renderDoc(d knowledge.Document) app.UI {
	l := s.lang()
	id := d.ID
	refetch := d.Type == "url" || d.Type == "wikipedia"
	return app.Li().Class("doc").Body(
		app.Div().Class("doc-main").Body(
			app.Span().Class("doc-title").Title(d.Source).Text(d.Title),
			app.Span().Class("doc-meta").Text(humanSize(d.Size)+" · "+sprintf("%d %s", d.Chunks, T(l, "chunks"))+" · "+d.Added.Local().Format("2006-01-02")),
		),
		app.If(refetch, func() app.UI {
			return app.Button().Class("row-btn").Type("button").Title(T(l, "reimport")).Aria("label", T(l, "reimport")+": "+d.Title).Text("↻").
				OnClick(func(ctx app.Context, e app.Event) {
					rt, src, title, typ := s.rt, d.Source, d.Title, d.Type
					cfg := rt.wikiConfig(s.settings)
					s.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
						var in knowledge.Input
						var err error
						if typ == "wikipedia" {
							in, err = wikiInput(ctx, cfg, title)
						} else {
							in, err = urlInput(ctx, web.ProxyFetcher{Base: rt.Proxy(), Client: rt.HTTP}, src)
						}
						return []knowledge.Input{in}, nil, err
					})
				}, app.EventScope(id))
		}),
		app.Button().Class("row-btn danger").Type("button").Title(T(l, "delete")).Aria("label", T(l, "delete")+": "+d.Title).Text("🗑").
			OnClick(func(ctx app.Context, e app.Event) {
				rt := s.rt
				s.ctx.Async(func() {
					// Delete saves the index snapshot too.
					err := rt.KB.Delete(context.Background(), id)
					s.ctx.Dispatch(func(app.Context) {
						if err != nil {
							s.kn.errText = err.Error()
						}
						s.kn.refresh(rt)
						s.searchKB()
					})
				})
			}, app.EventScope(id)),
	)
}

func (s *Shell) renderHits() app.UI {
	l := s.lang()
	k := &s.kn
	if k.qErr != "" {
		return app.P().Class("form-error").Text(k.qErr)
	}
	if len(k.hits) == 0 {
		return app.P().Class("empty-hint").Text(T(l, "no_hits"))
	}
	var items []app.UI
	for _, h := range k.hits {
		frag := strings.Join(h.Fragments, " … ")
		if frag == "" {
			frag = clip(h.Text, 200)
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
				s.openCitation(ctx, citationOfHit(hit))
			}, app.EventScope(hit.ChunkID)),
		))
	}
	return app.Ul().Class("hit-list").ID("kb-hits").Aria("label", T(l, "search_kb")).Body(items...)
}

// searchKB runs the knowledge search box's query off the UI goroutine. A
// search can wait on IndexedDB (chunk text is loaded on first use); run in
// the input handler, it held back the keystrokes typed meanwhile, and the
// re-render after it wrote the stale query back into the box, losing them.
func (s *Shell) searchKB() {
	k := &s.kn
	k.searchSeq++
	seq := k.searchSeq
	q := strings.TrimSpace(k.query)
	if q == "" || s.rt == nil {
		k.hits, k.qErr = nil, ""
		return
	}
	kb, ctx := s.rt.Retriever(), s.ctx
	ctx.Async(func() {
		hits, err := kb.Search(context.Background(), q, knowledge.SearchOptions{K: 8, Highlight: true})
		ctx.Dispatch(func(app.Context) {
			if seq != k.searchSeq {
				return // a newer query's search is under way
			}
			k.hits, k.qErr = hits, ""
			if err != nil && err != knowledge.ErrEmptyQuery {
				k.qErr = err.Error()
			}
		})
	})
}

func (s *Shell) onPick(ctx app.Context, e app.Event) {
	el := ctx.JSSrc()
	list := el.Get("files")
	if !list.Truthy() || list.Length() == 0 || s.kn.importing {
		return
	}
	// The files are read later, off the UI goroutine, after the Defer
	// below has emptied the input, which empties its live FileList too:
	// keep them in an array of their own.
	files := app.Window().Get("Array").Call("from", list)
	s.importFiles(func() []fileData {
		return readFileList(files)
	})
	// Picking the same file again must fire change again.
	ctx.Defer(func(app.Context) { el.Set("value", "") })
}

// importFiles reads files off the UI goroutine and imports them.
func (s *Shell) importFiles(read func() []fileData) {
	l := s.lang()
	s.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
		s.ctx.Dispatch(func(app.Context) { s.kn.phase = T(l, "importing") + "…" })
		ins, skipped := fileInputs(read())
		return ins, skipped, nil
	})
}

// importInputs gathers inputs off the UI goroutine, then adds them in
// batches with a progress bar.
func (s *Shell) importInputs(gather func(ctx context.Context) ([]knowledge.Input, []string, error)) {
	k := &s.kn
	if k.importing || s.rt == nil {
		return
	}
	rt, l, ctx := s.rt, s.lang(), s.ctx
	k.importing, k.errText, k.result = true, "", ""
	k.phase, k.progress = T(l, "importing")+"…", knowledge.Progress{}
	ctx.Async(func() {
		bg := context.Background()
		ins, skipped, err := gather(bg)
		err = offlineImportErr(l, err)
		var docs []knowledge.Document
		if err == nil && len(ins) > 0 {
			docs, err = rt.KB.AddBatch(bg, ins, k.progressTo(ctx))
		}
		ctx.Dispatch(func(app.Context) {
			k.importing = false
			k.refresh(rt)
			s.searchKB()
			var msgs []string
			if err != nil {
				msgs = append(msgs, err.Error())
			}
			if len(skipped) > 0 {
				msgs = append(msgs, strings.Join(skipped, "; "))
			}
			k.errText = strings.Join(msgs, " — ")
			if len(docs) > 0 {
				names := make([]string, 0, 3)
				for i, d := range docs {
					if i == 3 {
						names = append(names, "…")
						break
					}
					names = append(names, d.Title)
				}
				k.result = sprintf("%s: %d (%s)", T(l, "imported"), len(docs), strings.Join(names, ", "))
			}
		})
	})
}

// progressTo returns a progress callback that shows the import's progress
// at most every 100 ms (and always its end): each update re-renders.
func (k *knowledgeView) progressTo(ctx app.Context) func(knowledge.Progress) {
	var last time.Time
	return func(p knowledge.Progress) {
		if time.Since(last) < 100*time.Millisecond && p.Done < p.Total {
			return
		}
		last = time.Now()
		ctx.Dispatch(func(app.Context) { k.progress = p })
	}
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
