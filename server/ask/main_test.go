package ask

import (
	"context"
	"os"
	"testing"

	"tinyrag/app/nanogo/sandbox"
)

// TestMain lets the test binary stand in for the tinyrag binary when a
// test starts it as a child process: nanoGo's ChildRunner runs
// os.Executable() with the nanogo-child command, as cmd/tinyrag does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "nanogo-child" {
		if err := sandbox.ChildMain(context.Background(), os.Args[2:], os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
