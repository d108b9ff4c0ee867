// Command precompress copies web assets into the server's embed folder and
// writes .gz and .br siblings for each one that compresses well, so the
// server never compresses at request time.
//
//	go run ./server/precompress -out server/webapp/dist/web assets/web bin/app.wasm
//
// A directory argument is copied recursively; a file lands at the top of -out.
//
// WebAssembly files get brotli's best setting (quality 11, a 16 MB window):
// app.wasm is most of a first visit's bytes, and the best setting makes it
// about 13 % smaller than quality 9, at about ten times the compression
// time. With -cache DIR the compressed variants are kept by content hash, so
// a build whose wasm did not change does not pay that again.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"

	"tinyrag/server/compress"
)

// settings are how the files are compressed, from the command line.
type settings struct {
	// text and wasm are the brotli quality for the files other than
	// .wasm and for .wasm files.
	text, wasm int
	// cacheDir, if set, keeps compressed variants by content hash.
	cacheDir string
}

func main() {
	var set settings
	flag.IntVar(&set.text, "brotli", 9, "brotli quality 0-11 for files other than .wasm")
	flag.IntVar(&set.wasm, "brotli-wasm", 11, "brotli quality 0-11 for .wasm files (with a 16 MB window from 10 on)")
	flag.StringVar(&set.cacheDir, "cache", "", "keep compressed variants in this folder by content hash")
	out := flag.String("out", "", "destination folder (required)")
	size := flag.String("size", "", "only print the raw, gzip and brotli size of this file")
	flag.Parse()
	if *size != "" {
		if err := set.printSize(*size); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
		return
	}
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: precompress -out DIR PATH...")
		os.Exit(2)
	}
	if err := set.run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
}

type job struct{ src, dst string }

func (set settings) run(out string, inputs []string) error {
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
			if err := set.compressOne(j); err != nil {
				errs <- fmt.Errorf("%s: %w", j.src, err)
			}
		}(j)
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// printSize prints one line of `make size`.
func (set settings) printSize(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	gz, br, err := set.variants(path, b)
	if err != nil {
		return err
	}
	fmt.Printf("%-14s %12s %12s %12s\n", filepath.Base(path), humanSize(len(b)), humanSize(len(gz)), humanSize(len(br)))
	return nil
}

// humanSize writes a byte count in MB, or in KB below one MB, where the
// wasm sizes' two decimals would hide a small script's size (embed.js).
func humanSize(n int) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}

// variants returns the gzip and brotli variants of b, the contents of
// file name, from the cache when it has them.
func (set settings) variants(name string, b []byte) (gz, br []byte, err error) {
	opt := brotli.WriterOptions{Quality: set.text}
	if strings.HasSuffix(name, ".wasm") {
		opt.Quality = set.wasm
		if opt.Quality >= 10 {
			opt.LGWin = 24
		}
	}
	var key string
	if set.cacheDir != "" {
		sum := sha256.Sum256(b)
		key = filepath.Join(set.cacheDir, fmt.Sprintf("%s-q%d-w%d", hex.EncodeToString(sum[:]), opt.Quality, opt.LGWin))
		gz, err1 := os.ReadFile(key + ".gz")
		br, err2 := os.ReadFile(key + ".br")
		if err1 == nil && err2 == nil {
			return gz, br, nil
		}
	}
	gz, br, err = compressNow(b, opt)
	if err == nil && key != "" {
		// A cache that cannot be written only costs time next build.
		if os.MkdirAll(set.cacheDir, 0o755) == nil && os.WriteFile(key+".gz.tmp", gz, 0o644) == nil && os.WriteFile(key+".br.tmp", br, 0o644) == nil {
			os.Rename(key+".gz.tmp", key+".gz")
			os.Rename(key+".br.tmp", key+".br")
		}
	}
	return gz, br, err
}

func compressNow(b []byte, opt brotli.WriterOptions) (gz, br []byte, err error) {
	return compress.BytesWith(b, opt)
}

func (set settings) compressOne(j job) error {
	b, err := os.ReadFile(j.src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(j.dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(j.dst, b, 0o644); err != nil {
		return err
	}
	// Stale variants from an earlier build must not outlive a new original.
	os.Remove(j.dst + ".gz")
	os.Remove(j.dst + ".br")

	gz, br, err := set.variants(j.src, b)
	if err != nil {
		return err
	}
	// Already-compressed formats (PNG) gain nothing; keep only ≥10% savings.
	if len(gz) > len(b)*9/10 {
		return nil
	}
	if err := os.WriteFile(j.dst+".gz", gz, 0o644); err != nil {
		return err
	}
	return os.WriteFile(j.dst+".br", br, 0o644)
}
