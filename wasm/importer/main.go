//go:build js && wasm

// Command importer is the importer Web Worker's program, compiled to
// importer.wasm and started by assets/go-worker.js?wasm=importer.wasm. It holds the file
// importers (HTML readability, PDF, character sets, …) so that app.wasm does
// not: they are about a fifth of what app.wasm was, and only someone who
// imports a file or a URL needs them.
//
// Protocol (structured-clone messages):
//
//	page → worker  {type: "import", id, name, data}              a file's bytes
//	page → worker  {type: "import", id, url, contentType, data}  a body from /api/fetch?raw=1
//	worker → page  {type: "result", id, doc}    doc: importer.Document as JSON
//	worker → page  {type: "result", id, error}  the importer's message
//
// The bootstrap script (app/worker's protocol) hands this program every
// message through workerRun, adds {type: "ready"} once the program called
// workerReady and {type: "exit", message} if it ever stops.
package main

import (
	"encoding/json"
	"syscall/js"

	"tinyrag/app/knowledge/importer"
)

func main() {
	run := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Get("type").String() != "import" {
			return nil
		}
		msg := args[0]
		id := msg.Get("id").Int()
		d := msg.Get("data")
		data := make([]byte, d.Get("byteLength").Int())
		js.CopyBytesToGo(data, d)
		name, url := str(msg, "name"), str(msg, "url")
		// A js.Func must not block: the import runs in a goroutine and
		// posts its result when done.
		go func() {
			var doc importer.Document
			var err error
			if url != "" {
				doc, err = importer.FromFetched(url, str(msg, "contentType"), data)
			} else {
				doc, err = importer.Import(name, data)
			}
			reply := js.Global().Get("Object").New()
			reply.Set("type", "result")
			reply.Set("id", id)
			if err != nil {
				reply.Set("error", err.Error())
			} else if b, jerr := json.Marshal(doc); jerr != nil {
				reply.Set("error", "the importer could not encode its result: "+jerr.Error())
			} else {
				reply.Set("doc", string(b))
			}
			js.Global().Call("postMessage", reply)
		}()
		return nil
	})
	js.Global().Set("workerRun", run)
	if ready := js.Global().Get("workerReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func str(v js.Value, name string) string {
	f := v.Get(name)
	if f.Type() != js.TypeString {
		return ""
	}
	return f.String()
}
