// Package bundler is `tinyrag bundle`: files, folders or a built site's
// HTML indexed into a knowledge bundle folder, with compressed siblings.
package bundler

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/bundle/publish"
	"tinyrag/server/compress"
	"tinyrag/server/exitcode"
)

// Command is `tinyrag bundle -o DIR PATH...` with its output
// streams passed in, so tests run it in-process.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the bundle folder to write (required; empty, new, or an earlier bundle, which is replaced)")
	title := fs.String("title", "", "the bundle's name in the knowledge panel (default: the folder's name)")
	lang := fs.String("lang", "en", "analyzer language: en or de")
	prefix := fs.String("prefix", "", "put before every page's relative path, e.g. docs/ when the pages are served under docs/ next to the app")
	shard := fs.Int("shard-bytes", 0, "size at which term shards are cut (before compression); 0: 4 KB, doubled until the term map is small enough for the app to read while it starts")
	previousDir := fs.String("previous", "", "an earlier build of this bundle, whose pages keep their numbers so that visitors fetch only what changed (default: the bundle -o replaces, if any)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tinyrag bundle -o DIR [flags] PATH...\n\nIndexes files and folders (a built site's HTML by its readable text and title)\ninto a knowledge bundle: a folder of files a browser fetches as queries need\nthem, each named by its content, with .gz and .br siblings for hosts that\nserve precompressed files. Each document is cited by its path relative to the\nfolder given, which for a site is the page's URL relative to the site.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return &exitcode.Error{Code: 2, Err: errors.New("need -o DIR and at least one PATH")}
	}
	if *title == "" {
		*title = filepath.Base(filepath.Clean(*out))
	}
	started := time.Now()
	ins, skipped, err := publish.Inputs(ctx, fs.Args(), *prefix)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "skipped: %v\n", s)
	}
	if err != nil {
		return err
	}
	// An earlier build gives the pages their numbers: they keep them, new
	// pages come after, and a republished site's files that list no
	// changed page keep their names.
	var previous []string
	if *previousDir != "" {
		if previous, err = bundle.Sources(*previousDir); err != nil {
			return fmt.Errorf("-previous: %w", err)
		}
	} else if _, err := bundle.FindManifest(*out); err == nil {
		if previous, err = bundle.Sources(*out); err != nil {
			fmt.Fprintf(stderr, "numbering the pages afresh: the earlier bundle in %s cannot be read (%v)\n", *out, err)
			previous = nil
		}
	}
	o, err := bundle.Write(ctx, ins, bundle.Options{Title: *title, Language: *lang, ShardBytes: *shard, Previous: previous})
	if err != nil {
		return err
	}
	// Written into a fresh folder and then put in place, so a half-written
	// bundle never stands where a complete one did.
	tmp := filepath.Clean(*out) + ".tmp"
	os.RemoveAll(tmp)
	if err := writeBundleDir(tmp, o); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("write %s: %w", *out, err)
	}
	if err := replaceDir(tmp, *out); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("write %s: %w", *out, err)
	}
	m := o.Manifest
	fmt.Fprintf(stdout, "%s: %d documents, %d chunks, %d files, %d bytes (before compression) in %.1f s\nmanifest %s, sha256 %s\n",
		*out, m.Docs, m.Chunks, m.Files.Count+1, m.Files.Bytes, time.Since(started).Seconds(), o.ManifestName, o.SHA256)
	return nil
}

// writeBundleDir writes the bundle's files and their .gz and .br siblings
// into dir, a fresh folder, each file and its siblings by one of a few
// workers: compressing is most of the work, and a site has thousands of
// small files.
func writeBundleDir(dir string, o *bundle.Output) error {
	names := make([]string, 0, len(o.Files))
	dirs := map[string]bool{}
	for n := range o.Files {
		names = append(names, n)
		dirs[filepath.Dir(filepath.Join(dir, filepath.FromSlash(n)))] = true
	}
	for d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return compress.Parallel(names, func(n string) error {
		return compress.WriteNewWithSiblings(filepath.Join(dir, filepath.FromSlash(n)), o.Files[n], compress.BundleBrotli)
	})
}

// replaceDir puts the folder tmp where dst is, replacing an earlier
// bundle there and refusing to replace anything else.
func replaceDir(tmp, dst string) error {
	if entries, err := os.ReadDir(dst); err == nil && len(entries) > 0 {
		if _, err := bundle.FindManifest(dst); err != nil {
			return fmt.Errorf("%s is not empty and holds no earlier bundle; choose an empty or new folder", dst)
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
