// Package sandbox runs one Go snippet with yaegi against the restricted
// standard library in nanogo/sandbox/symbols. It is imported only by the
// programs that are meant to host the interpreter and may be killed at any
// moment: the nanoGo Web Worker (wasm/nanogo) and the native child process
// (tinyrag nanogo-child). Never call Run in a process whose freezing
// matters: a program stuck inside a native call (a huge math/big
// computation) only stops when its host is killed.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"

	"tinyrag/app/nanogo"
	"tinyrag/app/nanogo/sandbox/symbols"
	"tinyrag/app/nanogo/snippet"
)

// Limits bound one run. Zero fields take the nanogo defaults.
type Limits struct {
	// Timeout bounds the program's run time. In js/wasm it can only stop
	// a program that blocks or calls into the runtime; the worker's
	// terminate() stops busy loops.
	Timeout time.Duration
	// MaxSource bounds the snippet's size in bytes.
	MaxSource int
	// MaxOutput bounds stdout and stderr together, in bytes.
	MaxOutput int
	// Output, if set, is called with each piece of output as the program
	// writes it (what fits the MaxOutput budget; cut says the budget cut
	// this write). A caller that may have to kill the program, as the
	// browser's worker does, keeps what it printed this way. It is called
	// in order, one write at a time, and must not block.
	Output func(stderr bool, kept []byte, cut bool)
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = nanogo.DefaultTimeout
	}
	if l.MaxSource <= 0 {
		l.MaxSource = nanogo.DefaultMaxSource
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = nanogo.DefaultMaxOutput
	}
	return l
}

// genericPackages are the packages yaegi compiles from its own embedded
// source once fmt is in the symbol table; they import only cmp and each
// other, so they are as safe as the table.
var genericPackages = map[string]string{"cmp": "cmp", "maps": "maps", "slices": "slices"}

// Allowed maps every import path a snippet may use to its package name.
func Allowed() map[string]string {
	m := map[string]string{}
	for k := range symbols.Symbols {
		if k == "." {
			continue
		}
		m[path.Dir(k)] = path.Base(k)
	}
	for p, n := range genericPackages {
		m[p] = n
	}
	return m
}

// AllowedPaths lists Allowed's import paths, sorted, for documentation and
// error messages.
func AllowedPaths() []string {
	var out []string
	for p := range Allowed() {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Run prepares and interprets src. It never panics and always returns the
// output captured so far; Output.Error explains a refused, uncompilable or
// panicking program, Output.TimedOut a program stopped at the time limit.
func Run(ctx context.Context, src string, lim Limits) nanogo.Output {
	lim = lim.withDefaults()
	if len(src) > lim.MaxSource {
		return nanogo.Output{Error: fmt.Sprintf("the source is %d bytes, more than the %d-byte limit", len(src), lim.MaxSource)}
	}
	prog, err := snippet.Prepare(src, Allowed())
	if err != nil {
		return nanogo.Output{Error: err.Error()}
	}
	out := &capture{max: lim.MaxOutput, onOutput: lim.Output}
	i := interp.New(interp.Options{
		Stdout: out.stream(&out.stdout),
		Stderr: out.stream(&out.stderr),
		Stdin:  strings.NewReader(""),
		// An empty file system: an import that slipped past the
		// allowlist must not be loadable from GOPATH source.
		SourcecodeFilesystem: fstest.MapFS{},
		Args:                 []string{"snippet"},
		Env:                  []string{},
	})
	if err := i.Use(symbols.Symbols); err != nil {
		return nanogo.Output{Error: "sandbox setup failed: " + err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	_, err = i.EvalWithContext(ctx, prog.Source)
	res := out.close()
	if err != nil {
		res.Error, res.TimedOut = describe(err, lim.Timeout, ctx)
	}
	return res
}

// describe turns an interpreter error into the message the user sees.
func describe(err error, timeout time.Duration, ctx context.Context) (msg string, timedOut bool) {
	var p interp.Panic
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == context.DeadlineExceeded:
		return fmt.Sprintf("the program did not finish within %s and was stopped", timeout), true
	case errors.Is(err, context.Canceled):
		return "the run was cancelled", false
	case errors.As(err, &p):
		return "panic: " + p.Error(), false
	}
	return "compile error: " + strings.ReplaceAll(err.Error(), "_.go:", ""), false
}

// capture collects stdout and stderr under one shared byte budget. Writes
// past the budget are dropped but reported as written, so fmt keeps going
// and the program is not disturbed; a goroutine still printing after the
// run ended writes into nothing.
type capture struct {
	mu             sync.Mutex
	max            int
	stdout, stderr strings.Builder
	truncated      bool
	closed         bool
	onOutput       func(stderr bool, kept []byte, cut bool)
}

type captureStream struct {
	c   *capture
	dst *strings.Builder
}

func (c *capture) stream(dst *strings.Builder) io.Writer { return captureStream{c, dst} }

func (s captureStream) Write(p []byte) (int, error) {
	c := s.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return len(p), nil
	}
	room := max(c.max-c.stdout.Len()-c.stderr.Len(), 0)
	kept, cut := p, len(p) > room
	if cut {
		kept = p[:room]
	}
	s.dst.Write(kept)
	// Each kept piece is reported, and the first cut once.
	if c.onOutput != nil && (len(kept) > 0 || cut && !c.truncated) {
		c.onOutput(s.dst == &c.stderr, kept, cut)
	}
	c.truncated = c.truncated || cut
	return len(p), nil
}

func (c *capture) close() nanogo.Output {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	// A cut at the byte budget may split a rune; drop the broken tail
	// rather than hand invalid UTF-8 to JSON and the model.
	return nanogo.Output{
		Stdout:    strings.ToValidUTF8(c.stdout.String(), ""),
		Stderr:    strings.ToValidUTF8(c.stderr.String(), ""),
		Truncated: c.truncated,
	}
}
