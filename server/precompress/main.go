// Command precompress copies web assets into the server's embed folder and
// writes .gz and .br siblings for each one that compresses well, so the
// server never compresses at request time.
//
//	go run ./server/precompress -out server/dist/web assets/web bin/app.wasm
//
// A directory argument is copied recursively; a file lands at the top of -out.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"tinyrag/server/compress"
)

func main() {
	out := flag.String("out", "", "destination folder (required)")
	level := flag.Int("brotli", compress.DefaultBrotli, "brotli quality 0-11 (11 is ~5x slower for ~3% less)")
	size := flag.String("size", "", "only print the raw, gzip and brotli size of this file")
	flag.Parse()
	if *size != "" {
		if err := printSize(*size, *level); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
		return
	}
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: precompress -out DIR PATH...")
		os.Exit(2)
	}
	if err := run(*out, *level, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
}

type job struct{ src, dst string }

func run(out string, level int, inputs []string) error {
	var jobs []job
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return err
		}
		if !st.IsDir() {
			jobs = append(jobs, job{in, filepath.Join(out, filepath.Base(in))})
			continue
		}
		err = filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return err
			}
			rel, _ := filepath.Rel(in, p)
			jobs = append(jobs, job{p, filepath.Join(out, rel)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(jobs))
	for _, j := range jobs {
		wg.Add(1)
		go func(j job) {
			defer wg.Done()
			if err := compressOne(j, level); err != nil {
				errs <- fmt.Errorf("%s: %w", j.src, err)
			}
		}(j)
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// printSize prints one line of `make size`.
func printSize(path string, level int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	gz, br, err := compress.Bytes(b, level)
	if err != nil {
		return err
	}
	mb := func(n int) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }
	fmt.Printf("%-14s %12s %12s %12s\n", filepath.Base(path), mb(len(b)), mb(len(gz)), mb(len(br)))
	return nil
}

func compressOne(j job, level int) error {
	b, err := os.ReadFile(j.src)
	if err != nil {
		return err
	}
	return compress.WriteFile(j.dst, b, level)
}
