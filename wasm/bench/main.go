// Command bench measures the knowledge base compiled to js/wasm, on a BEIR
// collection, with the code the browser runs. Run it in Node with Go's
// wasm_exec (which gives it the real file system):
//
//	GOOS=js GOARCH=wasm go build -o bin/bench.wasm ./wasm/bench
//	$(go env GOROOT)/lib/wasm/go_js_wasm_exec bin/bench.wasm -data ../shared/data/scifact
//
// It prints one line: index_docs_per_s, query_ms_p50, query_ms_p95, ndcg10,
// recall100 and reload_ms (time to open the saved knowledge base again and
// answer a first query), then CPU-time versions, the snapshot size, and the
// memory after indexing: heap_sys_mb (what the heap took from the system,
// which WASM never gives back), heap_live_mb and gc_cycles so far, and
// live_after_queries_mb, the heap still in use after the queries.
// Before timing it warms up on the first 500 documents (-warmup).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
	"tinyrag/app/knowledge/rank"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	data := flag.String("data", "../shared/data/scifact", "directory of a BEIR collection (corpus.jsonl, queries-test.jsonl, qrels-test.tsv)")
	warm := flag.Int("warmup", 500, "documents to index (and queries to run) untimed first, so V8's optimising compiler has compiled the hot code")
	batch := flag.Int("batch", 0, "chunks per index batch (0: the knowledge base default)")
	boost := flag.Float64("title-boost", 0, "title bonus weight (0: none, the default)")
	rm3 := flag.Bool("rm3", true, "pseudo-relevance feedback (RM3) for short queries")
	rm3Max := flag.Int("rm3-max-terms", 0, "RM3 only for queries of at most this many terms (0: the default; -1: every query)")
	prox := flag.Bool("proximity", false, "term-proximity re-ranking")
	docScore := flag.Bool("doc-score", true, "add the whole document's score to its best chunk's (false: best chunk only)")
	docIDF := flag.Bool("doc-idf", true, "idf counted over documents (false: over chunks)")
	rrf := flag.Bool("rrf", false, "fuse best chunk and whole document by reciprocal rank instead of adding scores")
	formula := flag.String("bm25", "lucene", "BM25 formula: lucene, anserini or bleve")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file (native runs)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	bm25, err := rank.ParseFormula(*formula)
	if err != nil {
		return err
	}
	fusion := rank.FusionSum
	if *rrf {
		fusion = rank.FusionRRF
	}
	set, err := beir.LoadDir(*data)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if err := warmUp(ctx, set, *warm); err != nil {
		return err
	}
	// The browser's knowledge base always has a store; a MemStore stands
	// in for IndexedDB so the snapshot work is part of the measurement.
	store := knowledge.NewMemStore()
	cfg := knowledge.Config{Store: store, TitleBoost: *boost, BatchSize: *batch,
		Feedback: rank.Feedback{Off: !*rm3, MaxQueryTerms: *rm3Max}, Proximity: rank.Proximity{On: *prox},
		Scoring: rank.Scoring{ChunkOnly: !*docScore, ChunkIDF: !*docIDF, Formula: bm25, Fusion: fusion}}
	kb, err := knowledge.New(cfg)
	if err != nil {
		return err
	}
	cpu0 := cpuTime()
	took, err := beir.Index(ctx, kb, set.Corpus)
	if err != nil {
		return err
	}
	cpuIndex := cpuTime() - cpu0
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 = cpuTime()
	rep, err := beir.Evaluate(ctx, kb, set)
	if err != nil {
		return err
	}
	cpuQuery := (cpuTime() - cpu0) / time.Duration(rep.Queries)
	rep.Docs = len(set.Corpus)
	rep.DocsPerSecond = float64(rep.Docs) / took.Seconds()
	// What the knowledge base keeps after answering the queries (chunks,
	// index), once the garbage is gone.
	var ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	kb.Close()

	snap, err := store.Index(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	cpu0 = cpuTime()
	cfg.BatchSize = 0
	again, err := knowledge.Open(ctx, cfg)
	if err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	hits, err := again.Search(ctx, set.Queries[0].Text, knowledge.SearchOptions{K: 10})
	reload := time.Since(start)
	cpuReload := cpuTime() - cpu0
	if err != nil {
		return fmt.Errorf("search after reload: %w", err)
	}
	if len(hits) == 0 {
		return fmt.Errorf("search after reload found nothing for %q", set.Queries[0].Text)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	// The cpu_ fields divide by CPU time instead of wall-clock time: on a
	// busy shared machine they show what the code costs.
	fmt.Printf("index_docs_per_s=%.0f query_ms_p50=%.2f query_ms_p95=%.2f ndcg10=%.4f recall100=%.4f reload_ms=%.0f"+
		" docs=%d queries=%d cpu_index_docs_per_s=%.0f cpu_query_ms_mean=%.2f cpu_reload_ms=%.0f snapshot_bytes=%d"+
		" heap_sys_mb=%.0f heap_live_mb=%.0f gc_cycles=%d live_after_queries_mb=%.0f\n",
		rep.DocsPerSecond, ms(rep.QueryP50), ms(rep.QueryP95), rep.NDCG10, rep.Recall100, ms(reload),
		rep.Docs, rep.Queries, float64(rep.Docs)/cpuIndex.Seconds(), ms(cpuQuery), ms(cpuReload), len(snap),
		float64(ms0.HeapSys)/(1<<20), float64(ms0.HeapAlloc)/(1<<20), ms0.NumGC, float64(ms1.HeapAlloc)/(1<<20))
	return nil
}

// warmUp indexes the first n documents into a throwaway knowledge base and
// runs n/10 queries on it. V8 compiles WASM in tiers, optimising hot
// functions in the background after they have run a while; without a warm-up
// the first timed phase pays for that compilation.
func warmUp(ctx context.Context, set beir.Set, n int) error {
	if n <= 0 {
		return nil
	}
	n = min(n, len(set.Corpus))
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		return err
	}
	defer kb.Close()
	if _, err := beir.Index(ctx, kb, set.Corpus[:n]); err != nil {
		return err
	}
	for _, q := range set.Queries[:min(n/10, len(set.Queries))] {
		if _, err := kb.Search(ctx, q.Text, knowledge.SearchOptions{K: 100}); err != nil {
			return err
		}
	}
	return nil
}
