package sandbox

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"

	"tinyrag/app/nanogo"
)

// ChildMain is the body of the native sandbox process (tinyrag
// nanogo-child): it reads one snippet from stdin, runs it and writes its
// nanogo.Output as one JSON object to stdout. nanogo.ChildRunner passes
// the limits as flags: -timeout, -max-source, -max-output and
// -memory-limit (bytes; the process caps its own memory with RLIMIT_DATA before it
// reads the snippet, so a runaway allocation kills only this process).
func ChildMain(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("nanogo-child", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	timeout := fs.Duration("timeout", nanogo.DefaultTimeout, "time limit of the program")
	maxSource := fs.Int("max-source", nanogo.DefaultMaxSource, "source size bound in bytes")
	maxOutput := fs.Int("max-output", nanogo.DefaultMaxOutput, "stdout+stderr bound in bytes")
	memLimit := fs.Int64("memory-limit", nanogo.DefaultMemoryLimit, "committed-memory bound in bytes (0: none)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("nanogo-child: %w", err)
	}
	if *memLimit > 0 {
		if err := limitMemory(*memLimit); err != nil {
			return fmt.Errorf("nanogo-child: cannot bound memory to %d bytes: %w", *memLimit, err)
		}
	}
	// One P, as in the browser: yaegi does not synchronise every access to
	// a closure's frame between the goroutines an interpreted program starts,
	// so they must never run in parallel. Snippets are small; one core is
	// also all a sandbox should take from the machine.
	runtime.GOMAXPROCS(1)
	src, err := io.ReadAll(io.LimitReader(stdin, int64(*maxSource)+1))
	if err != nil {
		return fmt.Errorf("nanogo-child: reading the snippet from stdin: %w", err)
	}
	out := Run(ctx, string(src), Limits{Timeout: *timeout, MaxSource: *maxSource, MaxOutput: *maxOutput})
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		return fmt.Errorf("nanogo-child: writing the result: %w", err)
	}
	return nil
}

// softLimit is the Go heap target under a hard address-space bound of
// limit bytes: the collector works hard before the kernel refuses memory.
func softLimit(limit int64) int64 { return limit / 2 }
