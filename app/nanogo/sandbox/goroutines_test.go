//go:build !race

package sandbox

import (
	"context"
	"testing"
)

// A snippet that starts goroutines is outside -race: yaegi v0.16.1 reads a
// closure's frame slot without the frame's mutex (interp/run.go, getFunc)
// while the goroutine the interpreted program started writes it under that
// mutex, so the race detector flags the interpreter, not this package. The
// browser runs the interpreter on wasm's single thread and the native child
// process on one P (ChildMain), where that access never overlaps.
func TestRun_GoroutinesWithSyncPrintTheirSum(t *testing.T) {
	src := "var wg sync.WaitGroup\nvar mu sync.Mutex\nsum := 0\nfor i := 1; i <= 10; i++ {\n\twg.Add(1)\n\tgo func(n int) { defer wg.Done(); mu.Lock(); sum += n; mu.Unlock() }(i)\n}\nwg.Wait()\nfmt.Println(sum)"
	out := Run(context.Background(), src, Limits{})
	if out.Error != "" {
		t.Fatalf("Error = %q (stdout %q)", out.Error, out.Stdout)
	}
	if out.Stdout != "55\n" {
		t.Errorf("Stdout = %q, want %q", out.Stdout, "55\n")
	}
}
