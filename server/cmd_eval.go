package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
)

func init() {
	register("eval", "measure knowledge-base retrieval on a BEIR collection (nDCG@10, Recall@100, speed)", runEval)
}

// runEval indexes a BEIR collection with the browser's knowledge code and
// prints retrieval quality and speed.
func runEval(ctx context.Context, args []string) error {
	return evalMain(ctx, args, os.Stdout, os.Stderr)
}

func evalMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus.jsonl (BEIR: {\"_id\",\"title\",\"text\"} per line)")
	queries := fs.String("queries", "", "queries.jsonl (BEIR: {\"_id\",\"text\"} per line)")
	qrels := fs.String("qrels", "", "qrels .tsv (query-id, corpus-id, score)")
	lang := fs.String("lang", "en", "knowledge-base language: en or de")
	chunk := fs.Int("chunk-size", 0, "chunk size in bytes (0: the knowledge base default)")
	overlap := fs.Int("chunk-overlap", 0, "chunk overlap in bytes (0: the default; -1: none)")
	boost := fs.Float64("title-boost", 0, "title weight over body (0: the knowledge base default)")
	rm3 := fs.Bool("rm3", true, "pseudo-relevance feedback (RM3) for short queries")
	rm3Max := fs.Int("rm3-max-terms", 0, "RM3 only for queries of at most this many terms (0: the default, 3; -1: every query)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of indexing and querying to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *corpus == "" || *queries == "" || *qrels == "" {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("--corpus, --queries and --qrels are all required")}
	}
	set, err := beir.Load(*corpus, *queries, *qrels)
	if err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rep, kb, err := beir.Run(ctx, knowledge.Config{Language: *lang, ChunkSize: *chunk, ChunkOverlap: *overlap, TitleBoost: *boost, Feedback: knowledge.Feedback{Off: !*rm3, MaxQueryTerms: *rm3Max}}, set)
	if err != nil {
		return err
	}
	defer kb.Close()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Fprintf(stdout, "documents indexed:  %d in %.2f s (%.0f docs/s)\n", rep.Docs, rep.IndexTime.Seconds(), rep.DocsPerSecond)
	fmt.Fprintf(stdout, "queries evaluated:  %d\n", rep.Queries)
	fmt.Fprintf(stdout, "nDCG@10:            %.4f\n", rep.NDCG10)
	fmt.Fprintf(stdout, "Recall@100:         %.4f\n", rep.Recall100)
	fmt.Fprintf(stdout, "query latency:      p50 %.2f ms, p95 %.2f ms\n", ms(rep.QueryP50), ms(rep.QueryP95))
	return nil
}
