package main

import (
	"context"
	"os"

	"tinyrag/app/nanogo/sandbox"
)

// nanogo-child is not for people: nanogo.ChildRunner starts the tinyrag
// binary itself with it, so a snippet runs in a killable process with its
// own memory bound and never in the CLI's or server's process.
func init() {
	register("nanogo-child", "", runNanogoChild)
}

func runNanogoChild(ctx context.Context, args []string) error {
	return sandbox.ChildMain(ctx, args, os.Stdin, os.Stdout)
}
