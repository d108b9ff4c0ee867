//go:build js && wasm

// Command nanogo is the nanoGo Web Worker's program, compiled to
// nanogo.wasm and started by assets/go-worker.js?wasm=nanogo.wasm. It holds the yaegi
// interpreter so the main app wasm does not, and it runs inside a dedicated
// worker so the page can terminate it: the Go scheduler in wasm cannot
// preempt an interpreted busy loop, so terminating the worker is the only
// reliable way to stop one.
//
// Protocol (structured-clone messages):
//
//	page → worker  {type: "run", id, source, timeoutMs, maxOutput}
//	worker → page  {type: "output", id, stderr, data, cut}   as the program prints
//	worker → page  {type: "result", id, output}   output: nanogo.Output as JSON
//
// The "output" messages (data: a Uint8Array of what the program wrote, cut:
// the byte budget cut it) let the page keep what a program printed before
// it had to be terminated.
//
// The bootstrap script (app/worker's protocol) hands this program every
// message through workerRun, adds {type: "ready"} once the program called
// workerReady and {type: "exit", message} if it ever stops.
package main

import (
	"context"
	"encoding/json"
	"syscall/js"
	"time"

	"tinyrag/app/nanogo/sandbox"
)

func main() {
	run := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Get("type").String() != "run" {
			return nil
		}
		msg := args[0]
		id := msg.Get("id").Int()
		src := msg.Get("source").String()
		lim := sandbox.Limits{
			Timeout:   time.Duration(intField(msg, "timeoutMs")) * time.Millisecond,
			MaxOutput: intField(msg, "maxOutput"),
			Output: func(stderr bool, kept []byte, cut bool) {
				data := js.Global().Get("Uint8Array").New(len(kept))
				js.CopyBytesToJS(data, kept)
				m := js.Global().Get("Object").New()
				m.Set("type", "output")
				m.Set("id", id)
				m.Set("stderr", stderr)
				m.Set("data", data)
				m.Set("cut", cut)
				js.Global().Call("postMessage", m)
			},
		}
		// A js.Func must not block: the program runs in a goroutine and
		// posts its result when done.
		go func() {
			out := sandbox.Run(context.Background(), src, lim)
			b, err := json.Marshal(out)
			if err != nil {
				b = []byte(`{"error":"the sandbox could not encode its result"}`)
			}
			reply := js.Global().Get("Object").New()
			reply.Set("type", "result")
			reply.Set("id", id)
			reply.Set("output", string(b))
			js.Global().Call("postMessage", reply)
		}()
		return nil
	})
	js.Global().Set("workerRun", run)
	// The first run in a fresh worker is several times slower than the
	// next ones (the engine compiles the interpreter's wasm lazily, and
	// yaegi compiles its generic packages). Pay that before reporting ready,
	// so it counts as loading time rather than against the user's program.
	sandbox.Run(context.Background(), "fmt.Println(strings.ToUpper(\"warm\"))", sandbox.Limits{})
	if ready := js.Global().Get("workerReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func intField(v js.Value, name string) int {
	f := v.Get(name)
	if f.Type() != js.TypeNumber {
		return 0
	}
	return f.Int()
}
