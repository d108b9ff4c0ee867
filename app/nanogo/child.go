//go:build !js

package nanogo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// killGrace is how long past its own time limit the child may take to
// report before it is killed. The child normally stops the program itself
// at Timeout and sends what it printed; the kill is for a program stuck in
// native code, or a child that stopped answering.
const killGrace = 2 * time.Second

// ChildRunner runs each snippet in a fresh child process of a binary that
// hosts the sandbox (tinyrag nanogo-child, which calls sandbox.ChildMain).
// The snippet never runs in the caller's process. The child gets no
// environment from the parent (no API keys), caps its own memory at
// MemoryLimit, and is killed together with its process group when the time
// limit plus a short grace has passed or ctx is done.
type ChildRunner struct {
	// Exe is the binary to start, usually os.Executable().
	Exe string
	// Args select the child mode, e.g. []string{"nanogo-child"}; the
	// limits are appended as flags.
	Args []string
	// Timeout bounds the program's run time (DefaultTimeout if zero).
	Timeout time.Duration
	// MemoryLimit bounds the memory the child may commit, in bytes
	// (DefaultMemoryLimit if zero, no bound if negative).
	MemoryLimit int64
	// MaxOutput bounds stdout+stderr in bytes (DefaultMaxOutput if zero).
	MaxOutput int
}

// Run implements Runner.
func (r ChildRunner) Run(ctx context.Context, src string) (Output, error) {
	timeout, mem, maxOut := r.Timeout, r.MemoryLimit, r.MaxOutput
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if mem == 0 {
		mem = DefaultMemoryLimit
	}
	if mem < 0 {
		mem = 0
	}
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	if r.Exe == "" {
		return Output{}, errors.New("nanogo: ChildRunner has no executable to start")
	}
	if len(src) > DefaultMaxSource {
		return Output{}, fmt.Errorf("nanogo: the source is %d bytes, more than the %d-byte limit", len(src), DefaultMaxSource)
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout+killGrace)
	defer cancel()
	args := append(append([]string(nil), r.Args...),
		"-timeout="+timeout.String(),
		"-max-source="+strconv.Itoa(DefaultMaxSource),
		"-max-output="+strconv.Itoa(maxOut),
		"-memory-limit="+strconv.FormatInt(mem, 10))
	cmd := exec.CommandContext(runCtx, r.Exe, args...)
	cmd.Stdin = strings.NewReader(src)
	// JSON escaping can grow the output up to six-fold; anything beyond
	// that is not a well-behaved child.
	stdout := &boundedBuffer{max: 6*maxOut + 64<<10}
	stderr := &boundedBuffer{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = childEnv(mem)
	isolate(cmd)
	cmd.WaitDelay = killGrace
	runErr := cmd.Run()

	var out Output
	decodeErr := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out)
	switch {
	case ctx.Err() != nil:
		return out, fmt.Errorf("nanogo: the run was abandoned: %w", context.Cause(ctx))
	case runCtx.Err() != nil:
		return out, fmt.Errorf("nanogo: the program did not finish within %s and was killed: %w", timeout, ErrTimeout)
	case decodeErr == nil && runErr == nil:
		if out.TimedOut {
			return out, fmt.Errorf("nanogo: %s: %w", out.Error, ErrTimeout)
		}
		return out, nil
	}
	return out, crashError(runErr, stderr.String(), mem)
}

// crashError explains a child that died without a result.
func crashError(runErr error, stderr string, mem int64) error {
	switch {
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		return fmt.Errorf("nanogo: the program exceeded the %d MiB memory limit and was stopped", mem>>20)
	case strings.Contains(stderr, "panic: "):
		// A panic in a goroutine the program started cannot be
		// recovered by the interpreter; it ends the child.
		line := stderr[strings.Index(stderr, "panic: "):]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		return fmt.Errorf("nanogo: the program crashed: %s", line)
	}
	msg := strings.TrimSpace(stderr)
	if len(msg) > 500 {
		msg = msg[len(msg)-500:]
	}
	if runErr == nil {
		runErr = errors.New("no result")
	}
	return fmt.Errorf("nanogo: the sandbox process failed (%v): %s", runErr, msg)
}

// childEnv is the child's whole environment: nothing of the parent's
// (it may hold API keys) except the time zone, which the program may
// legitimately print. GOMAXPROCS=1 keeps a program that starts busy
// goroutines to one core; the time limit still works, since the runtime
// preempts a busy goroutine for the timer.
func childEnv(mem int64) []string {
	env := []string{"GOTRACEBACK=single", "GOMAXPROCS=1"}
	if mem > 0 {
		env = append(env, "GOMEMLIMIT="+strconv.FormatInt(mem/2, 10))
	}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	return env
}

// boundedBuffer keeps the first max bytes written to it and drops the
// rest, so a misbehaving child cannot make the parent buffer without end.
type boundedBuffer struct {
	bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
