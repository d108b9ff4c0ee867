//go:build !js

package nanogo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"tinyrag/app/nanogo"
	"tinyrag/app/nanogo/sandbox"
)

// TestMain lets the test binary double as the sandbox child, the way
// os/exec's tests re-run themselves: "nanogo-child" runs sandbox.ChildMain
// exactly as tinyrag nanogo-child does; "nanogo-child-stubborn" does the
// same but ignores the time limit it is given, so only the parent's kill
// can stop it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "nanogo-child") {
		args := os.Args[2:]
		if os.Args[1] == "nanogo-child-stubborn" {
			args = append(args, "-timeout=1h")
		}
		if err := sandbox.ChildMain(context.Background(), args, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func childRunner(mode string, timeout time.Duration) nanogo.ChildRunner {
	return nanogo.ChildRunner{Exe: os.Args[0], Args: []string{mode}, Timeout: timeout}
}

func TestChildRunner_RunsSnippetsInAChildProcess(t *testing.T) {
	tests := []struct {
		name, src, wantOut, wantErr string
	}{
		{"bare statement", "fmt.Println(2 + 2)", "4\n", ""},
		{"full program", "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc main() {\n\tfmt.Println(strings.Repeat(\"ab\", 3))\n}\n", "ababab\n", ""},
		{"forbidden import", "import \"os\"\nos.Exit(3)", "", `import "os" is not allowed`},
		{"panic", "fmt.Println(\"half\")\npanic(\"boom\")", "half\n", "panic: boom"},
		{"compile error", "fmt.Println(1)\nnope()", "", "snippet.go:2:1: undefined: nope"},
	}
	r := childRunner("nanogo-child", 10*time.Second)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := r.Run(context.Background(), tt.src)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if out.Stdout != tt.wantOut {
				t.Errorf("Stdout = %q, want %q", out.Stdout, tt.wantOut)
			}
			if !strings.Contains(out.Error, tt.wantErr) || (tt.wantErr == "") != (out.Error == "") {
				t.Errorf("Error = %q, want %q", out.Error, tt.wantErr)
			}
		})
	}
}

func TestChildRunner_InfiniteLoopEndsAtTheTimeout(t *testing.T) {
	tests := []struct {
		name, mode, wantErr, wantOut string
	}{
		// The child stops the program itself and still reports what it printed.
		{"child stops it", "nanogo-child", "did not finish within 1s", "started\n"},
		// A child that does not stop in time is killed with its process group.
		{"parent kills it", "nanogo-child-stubborn", "did not finish within 1s and was killed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := childRunner(tt.mode, time.Second).Run(context.Background(),
				"fmt.Println(\"started\")\nfor {}")
			if !errors.Is(err, nanogo.ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %q, want it to contain %q", err, tt.wantErr)
			}
			if out.Stdout != tt.wantOut {
				t.Errorf("Stdout = %q, want %q", out.Stdout, tt.wantOut)
			}
		})
	}
}

func TestChildRunner_CallersDeadlineKillsTheChild(t *testing.T) {
	// The child would run for an hour; only the caller's context ends it.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := childRunner("nanogo-child-stubborn", time.Hour).Run(ctx, "for {}")
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nanogo.ErrTimeout) {
		t.Errorf("err = %v, want the caller's deadline, not the runner's time limit", err)
	}
}

func TestChildRunner_MemoryIsBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the address-space bound is set with Linux setrlimit")
	}
	r := childRunner("nanogo-child", 10*time.Second)
	r.MemoryLimit = 256 << 20
	out, err := r.Run(context.Background(),
		"var keep [][]byte\nfor i := 0; i < 16; i++ {\n\tkeep = append(keep, make([]byte, 64<<20))\n}\nfmt.Println(len(keep))")
	if err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Errorf("err = %v, Stdout = %q; want the memory limit error", err, out.Stdout)
	}
}

func TestChildRunner_GoroutinePanicIsReported(t *testing.T) {
	_, err := childRunner("nanogo-child", 10*time.Second).Run(context.Background(),
		"go func() { panic(\"in the background\") }()\nselect {}")
	if err == nil || !strings.Contains(err.Error(), "panic: in the background") {
		t.Errorf("err = %v, want the goroutine's panic", err)
	}
}
