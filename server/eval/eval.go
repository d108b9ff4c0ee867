// Package eval is `tinyrag eval`: the knowledge base indexes BEIR
// collections with the browser's code and prints retrieval quality
// (nDCG@10, Recall@100) and speed.
package eval

import (
	"context"

	"errors"
	"flag"
	"fmt"
	"github.com/andybalholm/brotli"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/rank"
	"tinyrag/server/compress"
	"tinyrag/server/exitcode"
)

// collection is one BEIR collection to evaluate.
type collection struct {
	name                   string
	corpus, queries, qrels string
}

func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tinyrag eval [flags] [BEIR-DIR ...]")
		fmt.Fprintln(stderr, "Each BEIR-DIR holds corpus.jsonl, queries-test.jsonl (or queries.jsonl) and qrels-test.tsv (or qrels/test.tsv); --corpus, --queries and --qrels name one more collection file by file.")
		fs.PrintDefaults()
	}
	corpus := fs.String("corpus", "", "corpus.jsonl (BEIR: {\"_id\",\"title\",\"text\"} per line)")
	queries := fs.String("queries", "", "queries.jsonl (BEIR: {\"_id\",\"text\"} per line)")
	qrels := fs.String("qrels", "", "qrels .tsv (query-id, corpus-id, score)")
	runs := fs.String("runs", "", "write each query's top 100 to this file in TREC run format (with several collections: one file each, the collection's name before the extension)")
	lang := fs.String("lang", "en", "knowledge-base language: en or de")
	chunk := fs.Int("chunk-size", 0, "chunk size in bytes (0: the knowledge base default)")
	overlap := fs.Int("chunk-overlap", 0, "chunk overlap in bytes (0: the default; -1: none)")
	boost := fs.Float64("title-boost", 0, "weight of a title bonus, the title scored as a field of its own (0: none, the default; the title always counts as part of the body)")
	rm3 := fs.Bool("rm3", true, "pseudo-relevance feedback (RM3) for short queries")
	rm3Max := fs.Int("rm3-max-terms", 0, "RM3 only for queries of at most this many terms (0: the default, 3; -1: every query)")
	prox := fs.Bool("proximity", false, "term-proximity re-ranking (sequential dependence model)")
	proxDepth := fs.Int("proximity-depth", 0, "documents re-ranked by proximity (0: the default, 100)")
	docScore := fs.Bool("doc-score", true, "a document's score adds its whole text's to its best chunk's (false: best chunk only)")
	docIDF := fs.Bool("doc-idf", true, "idf counted over documents (false: over chunks)")
	delta := fs.Float64("bm25plus-delta", 0, "BM25+ lower bound δ on a matching term's tf part (0: plain BM25)")
	rrf := fs.Bool("rrf", false, "fuse the best chunk's and the whole document's rankings by reciprocal rank (k 60) instead of adding their scores")
	formula := fs.String("bm25", "lucene", "BM25 formula: lucene (Robertson's, k1 1.2, b 0.75), anserini (Robertson's, k1 0.9, b 0.4) or bleve (bleve's own)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of indexing and querying to this file")
	checkBundle := fs.Bool("check-bundle", false, "also write each collection as a site bundle, check that it ranks every query's top 10 exactly as the in-memory index does (with the ranking flags given; chunking and language are the bundle's defaults) and print what a query fetches")
	shardBytes := fs.Int("shard-bytes", 0, "with --check-bundle: the bundle's term shard size (0: as tinyrag bundle chooses)")
	// Flags may follow the directories too.
	var dirs []string
	for rest := args; ; rest = fs.Args()[1:] {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		dirs = append(dirs, fs.Arg(0))
	}
	var cols []collection
	if *corpus != "" || *queries != "" || *qrels != "" {
		if *corpus == "" || *queries == "" || *qrels == "" {
			fs.Usage()
			return &exitcode.Error{Code: 2, Err: errors.New("--corpus, --queries and --qrels are all required together")}
		}
		cols = append(cols, collection{name: filepath.Base(filepath.Dir(*corpus)), corpus: *corpus, queries: *queries, qrels: *qrels})
	}
	for _, dir := range dirs {
		c := beir.DirFiles(dir)
		cols = append(cols, collection{name: filepath.Base(filepath.Clean(dir)), corpus: c[0], queries: c[1], qrels: c[2]})
	}
	// Run files are named after collections: make the names distinct.
	seen := map[string]int{}
	for i := range cols {
		if seen[cols[i].name]++; seen[cols[i].name] > 1 {
			cols[i].name = fmt.Sprintf("%s-%d", cols[i].name, seen[cols[i].name])
		}
	}
	if len(cols) == 0 {
		fs.Usage()
		return &exitcode.Error{Code: 2, Err: errors.New("no collection: give BEIR directories or --corpus, --queries and --qrels")}
	}
	if *delta < 0 {
		fs.Usage()
		return &exitcode.Error{Code: 2, Err: errors.New("--bm25plus-delta must be 0 or more")}
	}
	bm25, err := rank.ParseFormula(*formula)
	if err != nil {
		fs.Usage()
		return &exitcode.Error{Code: 2, Err: err}
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
	cfg := knowledge.Config{Language: *lang, ChunkSize: *chunk, ChunkOverlap: *overlap, TitleBoost: *boost,
		Feedback:  rank.Feedback{Off: !*rm3, MaxQueryTerms: *rm3Max},
		Proximity: rank.Proximity{On: *prox, Depth: *proxDepth},
		Scoring:   rank.Scoring{ChunkOnly: !*docScore, ChunkIDF: !*docIDF, Delta: *delta, Formula: bm25, Fusion: fusion(*rrf)}}
	var sumNDCG, sumRecall float64
	for i, c := range cols {
		rep, err := evalOne(ctx, cfg, c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if len(cols) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "collection:         %s\n", c.name)
		}
		printReport(stdout, rep)
		if *checkBundle {
			if err := checkBundleRanking(ctx, c, cfg, *shardBytes, stdout); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		sumNDCG += rep.NDCG10
		sumRecall += rep.Recall100
		if *runs != "" {
			path := *runs
			if len(cols) > 1 {
				path = runPath(*runs, c.name)
			}
			if err := writeRun(path, rep.Rankings, "tinyrag"); err != nil {
				return err
			}
		}
	}
	if len(cols) > 1 {
		n := float64(len(cols))
		fmt.Fprintf(stdout, "\nmean over %d collections: nDCG@10 %.4f, Recall@100 %.4f\n", len(cols), sumNDCG/n, sumRecall/n)
	}
	return nil
}

// checkBundleRanking writes a collection as a bundle (in memory) and
// compares, query by query, its top 10 with the in-memory index's built
// from the same documents, both ranking with cfg's switches (feedback,
// proximity, scoring, title boost): documents, chunks and scores must be
// equal.
// It also reports what the bundle's files weigh as a host sends them
// (brotli at its best, as `tinyrag bundle` writes the .br siblings) and
// what a query makes the bundle fetch: the first query of a visit (a
// fresh index per query, the manifest counted apart), and each query of a
// visit that asks the first twenty queries in turn.
func checkBundleRanking(ctx context.Context, c collection, cfg knowledge.Config, shardBytes int, stdout io.Writer) error {
	set, err := beir.Load(c.corpus, c.queries, c.qrels)
	if err != nil {
		return err
	}
	// The bundle is written as tinyrag bundle writes it (default chunks,
	// English); only the ranking is the caller's.
	kb, err := knowledge.New(knowledge.Config{Yield: func() {}, TitleBoost: cfg.TitleBoost,
		Feedback: cfg.Feedback, Proximity: cfg.Proximity, Scoring: cfg.Scoring})
	if err != nil {
		return err
	}
	defer kb.Close()
	ins := beir.Inputs(set.Corpus)
	// In the order the bundle numbers them, which decides ties.
	if _, err := kb.AddBatch(ctx, bundle.Order(ins, nil), nil); err != nil {
		return err
	}
	out, err := bundle.Write(ctx, ins, bundle.Options{Title: c.name, ShardBytes: shardBytes})
	if err != nil {
		return err
	}
	ranking := cfg.Ranking()
	// The bundle fetches a query's files at once: count under a lock.
	var mu sync.Mutex
	sizes := map[string]int{}
	brSize := func(name string) int {
		if n, ok := sizes[name]; ok {
			return n
		}
		_, br, _ := compress.BytesWith(out.Files[name], brotli.WriterOptions{Quality: 11})
		sizes[name] = min(len(br), len(out.Files[name]))
		return sizes[name]
	}
	var fetched, files int
	fetch := func(_ context.Context, u string) ([]byte, error) {
		b, ok := out.Files[u]
		if !ok {
			return nil, fmt.Errorf("no file %s", u)
		}
		mu.Lock()
		defer mu.Unlock()
		if u != out.ManifestName {
			fetched += brSize(u)
			files++
		}
		return b, nil
	}
	same, total := 0, 0
	var bytesPer, filesPer []int
	var queries []beir.Query
	for _, q := range set.Queries {
		if _, ok := set.Qrels[q.ID]; !ok {
			continue
		}
		queries = append(queries, q)
		ix, err := bundle.OpenRanked(ctx, out.ManifestName, out.SHA256, fetch, ranking)
		if err != nil {
			return err
		}
		fetched, files = 0, 0
		got, err := ix.Search(ctx, q.Text, knowledge.SearchOptions{K: 10})
		if err != nil {
			return err
		}
		bytesPer, filesPer = append(bytesPer, fetched), append(filesPer, files)
		want, err := kb.Search(ctx, q.Text, knowledge.SearchOptions{K: 10})
		if err != nil {
			return err
		}
		total++
		if sameHits(got, want) {
			same++
		} else {
			fmt.Fprintf(stdout, "bundle ranking differs for query %s\n", q.ID)
		}
	}
	// A visit: one index, the first twenty queries in turn.
	ix, err := bundle.OpenRanked(ctx, out.ManifestName, out.SHA256, fetch, ranking)
	if err != nil {
		return err
	}
	fetched, files = 0, 0
	visit := queries[:min(20, len(queries))]
	for _, q := range visit {
		if _, err := ix.Search(ctx, q.Text, knowledge.SearchOptions{K: 10}); err != nil {
			return err
		}
	}
	var all int
	for name := range out.Files {
		all += brSize(name)
	}
	sort.Ints(bytesPer)
	sort.Ints(filesPer)
	m := out.Manifest
	fmt.Fprintf(stdout, "bundle ranking:     identical top 10 for %d of %d queries\n", same, total)
	fmt.Fprintf(stdout, "bundle files:       %d, %.2f MB as brotli (%.2f MB before); manifest %d bytes; %d term shards\n",
		len(out.Files), float64(all)/1e6, float64(m.Files.Bytes)/1e6, brSize(out.ManifestName), termShards(out))
	fmt.Fprintf(stdout, "first query:        p50 %d bytes in %d files, p90 %d bytes (brotli, the manifest apart)\n",
		bytesPer[len(bytesPer)/2], filesPer[len(filesPer)/2], bytesPer[len(bytesPer)*9/10])
	fmt.Fprintf(stdout, "a visit:            %d queries, %d bytes in %d files, %d bytes per query\n", len(visit), fetched, files, fetched/max(1, len(visit)))
	if same != total {
		return fmt.Errorf("the bundle ranks %d of %d queries differently", total-same, total)
	}
	return nil
}

// termShards counts a bundle's term shards.
func termShards(out *bundle.Output) int {
	n := 0
	for name := range out.Files {
		if strings.HasPrefix(name, "t/") {
			n++
		}
	}
	return n
}

// sameHits reports whether two result lists name the same chunks with
// the same scores, in the same order.
func sameHits(a, b []knowledge.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ChunkID != b[i].ChunkID || a[i].Score != b[i].Score {
			return false
		}
	}
	return true
}

// fusion maps the --rrf flag to a fusion.
func fusion(rrf bool) rank.Fusion {
	if rrf {
		return rank.FusionRRF
	}
	return rank.FusionSum
}

// evalOne loads, indexes and evaluates one collection.
func evalOne(ctx context.Context, cfg knowledge.Config, c collection) (beir.Report, error) {
	set, err := beir.Load(c.corpus, c.queries, c.qrels)
	if err != nil {
		return beir.Report{}, err
	}
	rep, kb, err := beir.Run(ctx, cfg, set)
	if kb != nil {
		kb.Close()
	}
	return rep, err
}

func printReport(w io.Writer, rep beir.Report) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Fprintf(w, "documents indexed:  %d in %.2f s (%.0f docs/s)\n", rep.Docs, rep.IndexTime.Seconds(), rep.DocsPerSecond)
	fmt.Fprintf(w, "queries evaluated:  %d\n", rep.Queries)
	fmt.Fprintf(w, "nDCG@10:            %.4f\n", rep.NDCG10)
	fmt.Fprintf(w, "Recall@100:         %.4f\n", rep.Recall100)
	fmt.Fprintf(w, "query latency:      p50 %.2f ms, p95 %.2f ms\n", ms(rep.QueryP50), ms(rep.QueryP95))
}

// runPath puts a collection's name before the extension of path:
// runs.txt → runs.scifact.txt.
func runPath(path, name string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + name + ext
}

func writeRun(path string, rankings []beir.Ranking, tag string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	if err := beir.WriteRun(f, rankings, tag); err != nil {
		f.Close()
		return fmt.Errorf("runs %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("runs %s: %w", path, err)
	}
	return nil
}
