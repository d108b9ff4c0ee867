// Package worker is the page's side of a dedicated Web Worker running a
// Go wasm program through the one bootstrap assets/go-worker.js: nanoGo's
// sandbox (wasm/nanogo) and the file importers (wasm/importer). A Client
// starts the worker on first use, serves one call at a time, routes the
// worker's messages to the call they belong to, and terminates the worker
// when it crashed, overran a call's limit or was given up on — the only
// way to stop a Go program that never yields.
//
// The client itself is browser glue (client_js.go); what is here explains
// a worker that stopped, and is the same on every platform.
package worker

import (
	"errors"
	"strings"
)

// ErrOverran is a call that got no result within its limit: the worker
// was terminated.
var ErrOverran = errors.New("no result within the limit; the worker was terminated")

// Exit is a worker whose Go program ended or could not start, with the
// tail of what it logged (a Go panic is printed there).
type Exit struct {
	Message string // from the bootstrap: why the program is gone
	Log     string // the last lines the program logged
}

// Error returns the bootstrap's message.
func (e *Exit) Error() string { return e.Message }

// Panic returns the first line of a Go panic in the log ("panic: …"), or
// "" when the program did not panic.
func (e *Exit) Panic() string {
	i := strings.Index(e.Log, "panic: ")
	if i < 0 {
		return ""
	}
	line := e.Log[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return line
}

// Tail returns the log's last n lines joined by " | ", "" for no log.
func (e *Exit) Tail(n int) string {
	log := strings.TrimSpace(e.Log)
	if log == "" {
		return ""
	}
	lines := strings.Split(log, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}
