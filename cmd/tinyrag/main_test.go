package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for the tinyrag binary when a test
// starts it as a child process (nanoGo's ChildRunner runs os.Executable()
// with the nanogo-child command).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "nanogo-child" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}
