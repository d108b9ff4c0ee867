package kbview

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/ui/i18n"
)

// BackupSection exports the whole knowledge base as one file
// (knowledge.KB.Export's versioned gzip JSON) and imports such a file.
type BackupSection struct {
	app.Compo
	Ctrl *control.Controller
	Lang string

	kn control.KnowledgeState
}

// OnMount observes the knowledge base, for whether there is anything to
// export and whether an import runs.
func (b *BackupSection) OnMount(ctx app.Context) { ctx.ObserveState(control.StateKnowledge, &b.kn) }

// Render implements app.Composer.
func (b *BackupSection) Render() app.UI {
	l := b.Lang
	return app.Details().Class("kb-add").ID("kb-backup-section").Body(
		app.Summary().Text(i18n.T(l, "backup")),
		app.P().Class("empty-hint").Text(i18n.T(l, "backup_hint")),
		app.Div().Class("pick-row").Body(
			app.Button().Class("btn small").ID("kb-export").Type("button").
				Disabled(b.kn.Importing || len(b.kn.Docs) == 0).Text(i18n.T(l, "export_kb")).
				OnClick(func(ctx app.Context, e app.Event) {
					// Not through ctx.Dispatch, which drops the call once
					// this button is unmounted: the panel re-renders while
					// the export runs (the last outcome line goes away,
					// which shifts the section), and an export that waits
					// for the browser (IndexedDB, its gzip stream) is still
					// running then. download touches no component.
					b.Ctrl.Knowledge.ExportKB(func(data []byte, name string) {
						download(data, name, "application/gzip")
					})
				}),
			app.Label().Class("btn small").For("kb-backup").Text(i18n.T(l, "import_backup")),
			app.Input().Type("file").ID("kb-backup").Class("sr-only").Accept(".gz,.tinyrag,application/gzip").
				OnChange(b.onPick),
		),
	)
}

// onPick imports the picked backup.
func (b *BackupSection) onPick(ctx app.Context, e app.Event) {
	if !b.kn.Importing {
		onFilesPicked(ctx, b.Ctrl.Knowledge.ImportBackup)
	}
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
