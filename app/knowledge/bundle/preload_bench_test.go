package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
)

// benchIndex opens the bundle folder TINYRAG_BENCH_BUNDLE names (make
// bench-site writes bin/bench-site/50k/bundle/scifact) with its files
// read from disk, or skips the benchmark without one.
func benchIndex(b *testing.B) func() *Index {
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
	return func() *Index {
		ix, err := Open(context.Background(), base+name, "", fetch)
		if err != nil {
			b.Fatal(err)
		}
		return ix
	}
}

// BenchmarkPreload measures what the app does with a bundle while it
// starts (Index.Preload): making the segment's tables, reading the map
// pages and the group table (here from files), preparing
// the ranker.
func BenchmarkPreload(b *testing.B) {
	open := benchIndex(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		ix := open()
		b.StartTimer()
		if err := ix.Preload(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstSearch measures a visit's first search once the bundle is
// preloaded (Preload), as the knowledge panel runs it: decoding the
// query's term shards, ranking with feedback, reading the fragments of
// the hits and highlighting them. Each iteration opens the bundle afresh
// and runs the next SciFact test query (TINYRAG_BENCH_QUERIES, by
// default the shared data's queries-test.jsonl).
func BenchmarkFirstSearch(b *testing.B) {
	open := benchIndex(b)
	qpath := os.Getenv("TINYRAG_BENCH_QUERIES")
	if qpath == "" {
		qpath = "../../../../shared/data/scifact/queries-test.jsonl"
	}
	f, err := os.Open(qpath)
	if err != nil {
		b.Skipf("no queries: %v", err)
	}
	queries, err := beir.ReadQueries(f)
	f.Close()
	if err != nil || len(queries) == 0 {
		b.Fatalf("queries %s: %d, %v", qpath, len(queries), err)
	}
	ctx := context.Background()
	i := 0
	for b.Loop() {
		b.StopTimer()
		ix := open()
		if err := ix.Preload(ctx); err != nil {
			b.Fatal(err)
		}
		q := queries[i%len(queries)].Text
		i++
		b.StartTimer()
		hits, err := ix.Search(ctx, q, knowledge.SearchOptions{K: 8, Highlight: true})
		if err != nil || len(hits) == 0 {
			b.Fatalf("Search(%q) = %d hits, %v", q, len(hits), err)
		}
	}
}
