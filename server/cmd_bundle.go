package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/bundle/publish"
)

func init() {
	register("bundle", "index files, folders or a built site's HTML into one knowledge bundle", runBundle)
}

func runBundle(ctx context.Context, args []string) error {
	return bundleCommand(ctx, args, os.Stdout, os.Stderr)
}

// bundleCommand is `tinyrag bundle -o FILE PATH...` with its output
// streams passed in, so tests run it in-process.
func bundleCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the bundle file to write (required)")
	title := fs.String("title", "", "the bundle's name in the knowledge panel (default: the file name)")
	lang := fs.String("lang", "en", "analyzer language: en or de")
	prefix := fs.String("prefix", "", "put before every page's relative path, e.g. docs/ when the pages are served under docs/ next to the app")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tinyrag bundle -o FILE [flags] PATH...\n\nIndexes files and folders (a built site's HTML by its readable text and title)\ninto one knowledge bundle; each document is cited by its path relative to the\nfolder given, which for a site is the page's URL relative to the site.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("need -o FILE and at least one PATH")}
	}
	if *title == "" {
		*title = filepath.Base(*out)
	}
	ins, skipped, err := publish.Inputs(ctx, fs.Args(), *prefix)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "skipped: %v\n", s)
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	info, err := bundle.Build(ctx, &buf, ins, bundle.Options{Title: *title, Language: *lang})
	if err != nil {
		return err
	}
	// Written whole or not at all: a half-written bundle would only be
	// refused later by every visitor's browser.
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", *out, err)
	}
	fmt.Fprintf(stdout, "%s: %d documents, %d chunks, %d bytes, sha256 %s\n", *out, info.Documents, info.Chunks, buf.Len(), bundle.Digest(buf.Bytes()))
	return nil
}
