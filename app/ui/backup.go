package ui

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/knowledge"
)

// renderBackup is the knowledge panel's export / import of the whole
// knowledge base as one file (knowledge.KB.Export's versioned gzip JSON).
func (s *Shell) renderBackup() app.UI {
	l := s.lang()
	k := &s.kn
	return app.Details().Class("kb-add").ID("kb-backup-section").Body(
		app.Summary().Text(T(l, "backup")),
		app.P().Class("empty-hint").Text(T(l, "backup_hint")),
		app.Div().Class("pick-row").Body(
			app.Button().Class("btn small").ID("kb-export").Type("button").
				Disabled(k.importing || len(k.docs) == 0).Text(T(l, "export_kb")).
				OnClick(func(ctx app.Context, e app.Event) { s.exportKB() }),
			app.Label().Class("btn small").For("kb-backup").Text(T(l, "import_backup")),
			app.Input().Type("file").ID("kb-backup").Class("sr-only").Accept(".gz,.tinyrag,application/gzip").
				OnChange(s.onPickBackup),
		),
	)
}

// exportKB writes the export off the UI goroutine and hands it to the
// browser as a download; nothing leaves the machine.
func (s *Shell) exportKB() {
	rt, l, ctx := s.rt, s.lang(), s.ctx
	if rt == nil {
		return
	}
	s.kn.errText, s.kn.result = "", ""
	ctx.Async(func() {
		var buf bytes.Buffer
		err := rt.KB.Export(context.Background(), &buf)
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				s.kn.errText = err.Error()
				return
			}
			download(buf.Bytes(), "tinyrag-knowledge-"+time.Now().Format("2006-01-02")+".tinyrag.gz", "application/gzip")
			s.kn.result = sprintf("%s: %d (%s)", T(l, "exported"), len(s.kn.docs), humanSize(buf.Len()))
		})
	})
}

// onPickBackup imports a file made by exportKB, with the same progress
// bar as any import. A damaged file changes nothing (KB.Import checks it
// before replacing anything).
func (s *Shell) onPickBackup(ctx app.Context, e app.Event) {
	el := ctx.JSSrc()
	list := el.Get("files")
	if !list.Truthy() || list.Length() == 0 || s.kn.importing || s.rt == nil {
		return
	}
	k, rt, l := &s.kn, s.rt, s.lang()
	k.importing, k.errText, k.result = true, "", ""
	k.phase, k.progress = T(l, "importing")+"…", knowledge.Progress{}
	ctx.Defer(func(app.Context) { el.Set("value", "") })
	// The Shell's context, not the input's: the input may be re-created
	// while the import runs, and updates sent to a gone element's context
	// are dropped.
	ctx = s.ctx
	ctx.Async(func() {
		files := readFileList(list)
		var docs []knowledge.Document
		var err error
		if len(files) > 0 {
			if files[0].Err != "" {
				err = errors.New(files[0].Err)
			} else {
				docs, err = rt.KB.Import(context.Background(), bytes.NewReader(files[0].Data), k.progressTo(ctx))
			}
		}
		ctx.Dispatch(func(app.Context) {
			k.importing = false
			k.refresh(rt)
			s.searchKB()
			if err != nil {
				k.errText = err.Error()
				return
			}
			k.result = sprintf("%s: %d", T(l, "imported"), len(docs))
		})
	})
}

// download offers bytes to the user as a file through an object URL.
func download(data []byte, name, mime string) {
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	parts := app.Window().Get("Array").New()
	parts.Call("push", u8)
	blob := app.Window().Get("Blob").New(parts, map[string]any{"type": mime})
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	doc := app.Window().Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	// Revoke later: the download reads the URL after this returns.
	var revoke app.Func
	revoke = app.FuncOf(func(app.Value, []app.Value) any {
		app.Window().Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	app.Window().Call("setTimeout", revoke, 60000)
}
