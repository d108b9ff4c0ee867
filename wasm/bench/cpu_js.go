//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// cpuTime is the CPU time Node has used so far (process.cpuUsage): on a
// shared machine it shows how much work a phase took, whatever the
// wall-clock time says.
func cpuTime() time.Duration {
	p := js.Global().Get("process")
	if p.IsUndefined() {
		return 0
	}
	u := p.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
