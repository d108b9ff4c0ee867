// Package nanogo is the "nanogo" tool: it runs a Go snippet written by the
// model or the user in the yaegi sandbox and returns what it printed.
//
// The interpreter itself never runs in the caller's process. A Runner hands
// the snippet to an isolated executor that can be killed: in the browser a
// dedicated Web Worker holding its own wasm (WorkerRunner), natively a child
// process of the same binary (ChildRunner). A runaway program therefore costs
// at most the runner's timeout (plus a grace of a second or two), after
// which the worker is terminated or the process group killed. This package does not import yaegi, so the main app
// wasm stays free of the interpreter; the sandbox lives in nanogo/sandbox.
package nanogo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tinyrag/app/tool"
)

// Default limits.
const (
	// DefaultTimeout bounds one program's run time.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxSource bounds the snippet's size in bytes.
	DefaultMaxSource = 64 << 10
	// DefaultMaxOutput bounds stdout and stderr together, in bytes.
	DefaultMaxOutput = 64 << 10
	// DefaultMemoryLimit bounds the native child's committed memory.
	DefaultMemoryLimit = 512 << 20
)

// TruncatedMarker ends output that hit the bound.
const TruncatedMarker = "[output truncated]"

// ErrTimeout is wrapped by the error a runner returns when a program had to
// be stopped at its time limit.
var ErrTimeout = errors.New("time limit exceeded")

// Output is what one run of a snippet produced. It is also the JSON the
// sandbox child process and the worker send back.
type Output struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
	// Truncated is set when the output hit the bound and the rest was
	// dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Error says why the program failed, if it did: refused import,
	// compile error or panic, with snippet.go:LINE:COL positions of the
	// user's code.
	Error string `json:"error,omitempty"`
	// TimedOut is set when the sandbox stopped the program at its time
	// limit.
	TimedOut bool `json:"timed_out,omitempty"`
}

// Text renders the output for the model and the tool card: stdout, then
// stderr under a heading, then the truncation marker.
func (o Output) Text() string {
	var b strings.Builder
	b.WriteString(o.Stdout)
	if o.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(o.Stdout, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n")
		b.WriteString(o.Stderr)
	}
	if o.Truncated {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(TruncatedMarker)
	}
	if b.Len() == 0 {
		return "(no output)"
	}
	return b.String()
}

// Runner runs one snippet in isolation. A non-nil error means the program
// was stopped (time limit, memory limit, crash) or could not be started;
// failures of the program itself are reported in Output.Error with a nil
// error. Output holds whatever was captured either way.
type Runner interface {
	Run(ctx context.Context, src string) (Output, error)
}

// ProgramError is the error the tool returns for a program that ran (or
// tried to) and failed; Output carries what it printed before failing.
type ProgramError struct {
	Output Output
	Err    error
}

// Error returns the failure's message, e.g. a compile error with its line.
func (e *ProgramError) Error() string { return e.Err.Error() }

// Unwrap gives errors.Is access to the cause, e.g. ErrTimeout.
func (e *ProgramError) Unwrap() error { return e.Err }

// Name is the tool's protocol name.
const Name = "nanogo"

// Tool returns the "nanogo" tool backed by r. Register it disabled unless
// the user allowed nanoGo (tool.Registry.SetEnabled(Name, false)).
func Tool(r Runner) tool.Tool {
	return tool.Func{
		ToolName: Name,
		Elem:     tool.Source,
		Desc: "Run a short Go program and return what it prints. Bare statements like " +
			"fmt.Println(2 + 2) or a full package main; only a pure standard-library subset " +
			"(fmt, strings, strconv, math, math/big, sort, slices, maps, regexp, time, encoding/json, …), " +
			"no files, network or sleeping; " + DefaultTimeout.String() + " limit.",
		Fn: func(ctx context.Context, src string) (tool.Result, error) {
			return runTool(ctx, r, src)
		},
	}
}

func runTool(ctx context.Context, r Runner, src string) (tool.Result, error) {
	if len(src) > DefaultMaxSource {
		return tool.Result{}, fmt.Errorf("nanogo: the source is %d bytes, more than the %d-byte limit",
			len(src), DefaultMaxSource)
	}
	out, err := r.Run(ctx, src)
	res := tool.Result{Content: out.Text(), Source: "nanogo"}
	switch {
	case err != nil:
		return res, &ProgramError{Output: out, Err: err}
	case out.Error != "":
		return res, &ProgramError{Output: out, Err: errors.New(out.Error)}
	}
	return res, nil
}
