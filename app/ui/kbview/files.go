package kbview

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
)

// maxPickedFiles bounds one import so a dropped home folder cannot freeze
// the page; the importer bounds each file's size.
const maxPickedFiles = 2000

// pickedFile is a File object taken out of a FileList, with its name.
type pickedFile struct {
	name string
	file app.Value
}

// filesOf takes the File objects out of a FileList (from <input
// type=file> or a drop). It must run in the event handler: the list is
// emptied when the input is reset and gone once a drop handler returns,
// while the File objects stay readable.
func filesOf(list app.Value) []pickedFile {
	n := min(list.Length(), maxPickedFiles)
	out := make([]pickedFile, 0, n)
	for i := 0; i < n; i++ {
		f := list.Index(i)
		name := f.Get("webkitRelativePath").String()
		if name == "" || f.Get("webkitRelativePath").IsUndefined() {
			name = f.Get("name").String()
		}
		out = append(out, pickedFile{name, f})
	}
	return out
}

// readFiles reads picked files. It waits for the browser's callbacks, so
// it must run off the UI goroutine.
func readFiles(files []pickedFile) []control.File {
	out := make([]control.File, 0, len(files))
	for _, f := range files {
		out = append(out, readFile(f.name, f.file))
	}
	return out
}

// readFile reads one File object. A file the browser cannot read (moved,
// permission lost) comes back with Err set instead of hanging the import.
func readFile(name string, f app.Value) control.File {
	ch := make(chan control.File, 1)
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		u8 := app.Window().Get("Uint8Array").New(args[0])
		b := make([]byte, u8.Length())
		app.CopyBytesToGo(b, u8)
		ch <- control.File{Name: name, Data: b}
		release()
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		ch <- control.File{Name: name, Err: name + ": the browser could not read the file: " + msg}
		release()
		return nil
	})
	f.Call("arrayBuffer").Call("then", ok, fail)
	return <-ch
}

// droppedEntries takes the FileSystemEntry of every dropped item. It must
// run inside the drop handler: the items are gone once it returns.
func droppedEntries(e app.Event) []app.Value {
	items := e.Get("dataTransfer").Get("items")
	if !items.Truthy() {
		return nil
	}
	var out []app.Value
	for i := 0; i < items.Length(); i++ {
		it := items.Index(i)
		if it.Get("kind").String() != "file" {
			continue
		}
		if ent := it.Call("webkitGetAsEntry"); ent.Truthy() {
			out = append(out, ent)
		}
	}
	return out
}

// readEntries walks dropped files and folders, depth first. Off the UI
// goroutine only.
func readEntries(entries []app.Value) []control.File {
	var out []control.File
	var walk func(ent app.Value)
	walk = func(ent app.Value) {
		if len(out) >= maxPickedFiles {
			return
		}
		path := trimSlash(ent.Get("fullPath").String())
		if ent.Get("isFile").Bool() {
			ch := make(chan app.Value, 1)
			ok := app.FuncOf(func(this app.Value, args []app.Value) any { ch <- args[0]; return nil })
			fail := app.FuncOf(func(this app.Value, args []app.Value) any { ch <- nil; return nil })
			ent.Call("file", ok, fail)
			f := <-ch
			ok.Release()
			fail.Release()
			if f == nil {
				out = append(out, control.File{Name: path, Err: "could not be read"})
				return
			}
			out = append(out, readFile(path, f))
			return
		}
		if !ent.Get("isDirectory").Bool() {
			return
		}
		reader := ent.Call("createReader")
		for {
			// readEntries returns at most ~100 entries per call.
			ch := make(chan []app.Value, 1)
			ok := app.FuncOf(func(this app.Value, args []app.Value) any {
				list := args[0]
				batch := make([]app.Value, list.Length())
				for i := range batch {
					batch[i] = list.Index(i)
				}
				ch <- batch
				return nil
			})
			fail := app.FuncOf(func(this app.Value, args []app.Value) any { ch <- nil; return nil })
			reader.Call("readEntries", ok, fail)
			batch := <-ch
			ok.Release()
			fail.Release()
			if len(batch) == 0 {
				return
			}
			for _, c := range batch {
				walk(c)
			}
		}
	}
	for _, ent := range entries {
		walk(ent)
	}
	return out
}

func trimSlash(p string) string {
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	return p
}
