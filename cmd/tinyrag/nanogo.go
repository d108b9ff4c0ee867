package main

import (
	"context"
	"io"
	"os"

	"tinyrag/app/nanogo/sandbox"
)

// runNanogoChild runs one snippet for nanogo.ChildRunner, reading it from
// stdin and streaming what it prints to stdout.
func runNanogoChild(ctx context.Context, args []string, stdout, _ io.Writer, _ func(string) string) error {
	return sandbox.ChildMain(ctx, args, os.Stdin, stdout)
}
