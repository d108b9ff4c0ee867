package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPreload measures what a large bundle's first query waits for
// once its figure shards have arrived: decoding them, laying out the
// segment and preparing the ranker. TINYRAG_BENCH_BUNDLE names a bundle
// folder (make bench-site writes bin/bench-site/50k/bundle/scifact);
// without it the benchmark is skipped.
func BenchmarkPreload(b *testing.B) {
	dir := os.Getenv("TINYRAG_BENCH_BUNDLE")
	if dir == "" {
		b.Skip("TINYRAG_BENCH_BUNDLE names no bundle folder")
	}
	name, err := FindManifest(dir)
	if err != nil {
		b.Fatal(err)
	}
	const base = "bundle:///"
	fetch := func(_ context.Context, url string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(url, base))))
	}
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		ix, err := Open(ctx, base+name, "", fetch)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := ix.loadFigures(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
