package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"tinyrag/app/knowledge/rank"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
)

// benchSet loads the BEIR collection in $TINYRAG_BEIR (default: the shared
// SciFact copy next to the checkout), or skips.
func benchSet(b *testing.B) beir.Set {
	b.Helper()
	dir := os.Getenv("TINYRAG_BEIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data", "scifact")
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus.jsonl")); err != nil {
		b.Skipf("no BEIR collection in %s (set TINYRAG_BEIR): %v", dir, err)
	}
	set, err := beir.LoadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	return set
}

// BenchmarkKB_Index imports the whole collection, as the browser does
// (with a store, so the snapshot is part of it); the target in WASM is
// 1,800 docs/s. Under WASM give it -benchtime=3x or more: V8 optimises the
// hot code only after it has run a while (wasm/bench warms up instead).
func BenchmarkKB_Index(b *testing.B) {
	set := benchSet(b)
	ctx := context.Background()
	for b.Loop() {
		kb, err := knowledge.New(knowledge.Config{Store: knowledge.NewMemStore()})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := beir.Index(ctx, kb, set.Corpus); err != nil {
			b.Fatal(err)
		}
		kb.Close()
	}
	b.ReportMetric(float64(len(set.Corpus)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkKB_Search runs the collection's queries (top 100, as the
// evaluation does) round-robin, with the default scoring and with the best
// chunk alone; the target in WASM is a 2 ms median.
func BenchmarkKB_Search(b *testing.B) {
	set := benchSet(b)
	ctx := context.Background()
	for _, bb := range []struct {
		name    string
		scoring rank.Scoring
	}{
		{"default", rank.Scoring{}},
		{"best chunk only, chunk idf", rank.Scoring{ChunkOnly: true, ChunkIDF: true}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			kb, err := knowledge.New(knowledge.Config{Scoring: bb.scoring})
			if err != nil {
				b.Fatal(err)
			}
			defer kb.Close()
			if _, err := beir.Index(ctx, kb, set.Corpus); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				if _, err := kb.Search(ctx, set.Queries[i%len(set.Queries)].Text, knowledge.SearchOptions{K: 100}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
