// Command tinyrag serves the tinyRAG progressive web app and proxies the few
// requests a browser cannot make itself (LLM, URL fetch, web search). Its
// other commands run the same client engine natively (ask, eval), write
// knowledge bundles (bundle) and the app as a static site (static).
//
// This package is only the command line: the table of commands below, and
// the flags of serve and static read into the config structs of the
// packages that do the work (server, server/webapp). ask, eval and bundle
// read their own flags (server/ask, server/eval, server/bundler).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"tinyrag/server/ask"
	"tinyrag/server/bundler"
	"tinyrag/server/eval"
	"tinyrag/server/exitcode"
)

// command is one subcommand. run gets the arguments after the subcommand's
// name, a context cancelled on SIGINT/SIGTERM, and the process's streams
// and environment.
type command struct {
	name    string
	summary string // "" for internal commands, which usage does not list
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error
}

// commands is every command, in the order usage lists them.
var commands = []command{
	{"ask", "answer one question with the tinyRAG engine, natively", ask.Command},
	{"bundle", "index files, folders or a built site's HTML into a knowledge bundle folder",
		func(ctx context.Context, args []string, stdout, stderr io.Writer, _ func(string) string) error {
			return bundler.Command(ctx, args, stdout, stderr)
		}},
	{"eval", "measure knowledge-base retrieval on BEIR collections (nDCG@10, Recall@100, speed)",
		func(ctx context.Context, args []string, stdout, stderr io.Writer, _ func(string) string) error {
			return eval.Command(ctx, args, stdout, stderr)
		}},
	{"serve", "serve the tinyRAG app and its API proxies (default)", runServe},
	{"static", "write the app as a static site any static host can serve", runStatic},
	// nanogo-child is not for people: nanogo.ChildRunner starts the
	// tinyrag binary itself with it, so a snippet runs in a killable
	// process with its own memory bound and never in the CLI's or
	// server's process.
	{"nanogo-child", "", runNanogoChild},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(stderr)
		return 0
	}
	var cmd *command
	for i := range commands {
		if commands[i].name == name {
			cmd = &commands[i]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "tinyrag: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := cmd.run(ctx, args, stdout, stderr, getenv)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "tinyrag %s: %v\n", name, err)
	var ee *exitcode.Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tinyrag [command] [flags]\n\ncommands:")
	for _, c := range commands {
		if c.summary != "" {
			fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w, "\nRun 'tinyrag COMMAND -h' for the flags of a command. The default command is serve.")
}
