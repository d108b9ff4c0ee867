// Package compress writes precompressed siblings (.gz, .br) of web assets,
// for the server's embedded assets (server/precompress) and for a static
// site (`tinyrag static`): static hosts that understand them serve them
// instead of compressing at request time.
package compress

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/andybalholm/brotli"
)

// DefaultBrotli is the brotli quality used unless asked otherwise (11 is
// about 5× slower for about 3% less).
const DefaultBrotli = 9

// BundleBrotli is the quality for a knowledge bundle's files: thousands
// of files of a few kilobytes, which quality 5 makes as small as quality 9
// (SciFact's bundle, 6,679 files: 8,696,631 bytes against 8,705,587) in
// half the time (1.9 s against 4.0 s on one core, 2026-12-06): quality
// 9's hasher costs more to set up for each file than it saves.
const BundleBrotli = 5

// Bytes returns b gzip- and brotli-compressed.
func Bytes(b []byte, level int) (gz, br []byte, err error) {
	return BytesWith(b, brotli.WriterOptions{Quality: level})
}

// BytesWith is Bytes with brotli's options in full (a larger window for
// big wasm files). Without a window (LGWin 0) it picks the smallest that
// holds b, as brotli's own one-shot encoder does: a small file then gets
// a small hash table instead of clearing megabytes for every file, which
// made compressing a bundle's thousands of small shards the slowest part
// of building it.
func BytesWith(b []byte, opt brotli.WriterOptions) (gz, br []byte, err error) {
	var g bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&g)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	if opt.LGWin == 0 {
		opt.LGWin = window(len(b))
	}
	var r bytes.Buffer
	pool := brotliWriters(opt)
	bw := pool.Get().(*brotli.Writer)
	bw.Reset(&r)
	bw.Write(b)
	err = bw.Close()
	pool.Put(bw)
	if err != nil {
		return nil, nil, err
	}
	return g.Bytes(), r.Bytes(), nil
}

// brotliPools keeps brotli's writers for the next file, one pool for each
// set of options: a writer keeps the match finder its options chose
// (Reset clears it, and the ring buffer, for the next stream), and making
// them anew for each of a bundle's thousands of small files was a tenth
// of building it. The output is byte for byte a new writer's.
var brotliPools sync.Map // brotli.WriterOptions → *sync.Pool

// brotliWriters returns the pool of writers made with opt.
func brotliWriters(opt brotli.WriterOptions) *sync.Pool {
	if p, ok := brotliPools.Load(opt); ok {
		return p.(*sync.Pool)
	}
	p, _ := brotliPools.LoadOrStore(opt, &sync.Pool{New: func() any { return brotli.NewWriterOptions(nil, opt) }})
	return p.(*sync.Pool)
}

// WriteFile writes b to dst and, when compression saves at least 10%,
// dst.gz and dst.br beside it. Already-compressed formats (PNG) gain
// nothing and get no siblings; stale siblings of an earlier build are
// removed.
func WriteFile(dst string, b []byte, level int) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	os.Remove(dst + ".gz")
	os.Remove(dst + ".br")
	return WriteNew(dst, b, level)
}

// WriteNew is WriteFile for a file new to a folder that exists: nothing
// to remove, no folder to make. A bundle's tens of thousands of files are
// written so, into a fresh folder; on some file systems the calls saved
// cost as much as the writes.
func WriteNew(dst string, b []byte, level int) error {
	return writeNew(dst, b, level, false)
}

// WriteNewWithSiblings is WriteNew that writes dst.gz and dst.br whatever
// they save: for the files of a knowledge bundle, which the app asks for
// by their .gz sibling's name on a host that sends files as they lie on
// disk (server/pwa/worker.js, assets/web/site-prefetch.js), so every one
// of them must have one. The few that do not shrink (tables of content
// hashes) grow by some twenty bytes.
func WriteNewWithSiblings(dst string, b []byte, level int) error {
	return writeNew(dst, b, level, true)
}

// writeNew writes b to dst and its siblings when they save a tenth, or
// always.
func writeNew(dst string, b []byte, level int, always bool) error {
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return err
	}
	gz, br, err := Bytes(b, level)
	if err != nil {
		return err
	}
	if !always && len(gz) > len(b)*9/10 {
		return nil
	}
	if err := os.WriteFile(dst+".gz", gz, 0o644); err != nil {
		return err
	}
	return os.WriteFile(dst+".br", br, 0o644)
}

// Parallel runs fn on each name, on every core, and joins the errors:
// compressing many files is CPU-bound and each file is independent.
func Parallel(names []string, fn func(string) error) error {
	work := make(chan string)
	errs := make(chan error, len(names))
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				if err := fn(n); err != nil {
					errs <- err
				}
			}
		}()
	}
	for _, n := range names {
		work <- n
	}
	close(work)
	wg.Wait()
	close(errs)
	return errors.Join(func() (all []error) {
		for e := range errs {
			all = append(all, e)
		}
		return
	}()...)
}

// gzipWriters keeps gzip's writers (about a megabyte each at its best
// compression) for the next file.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

// window is the smallest brotli window (log2 of its size, 10 to 22, the
// default) whose span, less brotli's 16 bytes, holds n bytes.
func window(n int) int {
	lg := 10
	for lg < 22 && 1<<lg-16 < n {
		lg++
	}
	return lg
}
