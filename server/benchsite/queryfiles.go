package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/beir"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/knowledge/highlight"
	"tinyrag/app/knowledge/rank"
)

// A query's site data under other rankings than the app's is measured
// natively, from the bundle folder the browser visits read: the app
// always ranks with the defaults, so its visits cannot show what RM3
// feedback's second, dependent round of files (the ten best documents'
// fragments, then the expansion terms' shards) costs. Each query is a
// first query (a fresh index), counted as a precompressed host sends it
// (a file's .br sibling), the manifest apart; the map pages and group
// table a visit reads while the app starts are counted with the query,
// as the visits count them.

// queryFilesRow is one query set under one ranking, by median and 90th
// percentile over its queries.
type queryFilesRow struct {
	Queries  string `json:"queries"`
	Ranking  string `json:"ranking"`
	Count    int    `json:"count"`
	Feedback int    `json:"feedback"` // queries that had feedback's round
	Bytes    int64  `json:"bytes"`
	BytesP90 int64  `json:"bytes_p90"`
	Files    int64  `json:"files"`
	Postings int64  `json:"postings"` // term shards (t/)
	Texts    int64  `json:"texts"`    // fragments (f/)
	Others   int64  `json:"others"`   // map pages and the group table
}

// queryRanking is a ranking measured, by the name the table gives it.
type queryRanking struct {
	name string
	cfg  rank.Config
}

var queryRankings = []queryRanking{
	{"feedback off", rank.Config{Feedback: rank.Feedback{Off: true}}},
	{"default (feedback for ≤ 3 terms)", rank.Config{}},
	{"feedback on every query", rank.Config{Feedback: rank.Feedback{MaxQueryTerms: -1}}},
}

// shortQuery is q's first words up to its third distinct term, as a
// visitor's short question: the queries feedback is on for by default.
func shortQuery(an analysis.Analyzer, q string) string {
	words := strings.Fields(q)
	var kept []string
	for _, w := range words {
		next := append(kept[:len(kept):len(kept)], w)
		if len(highlight.QueryTerms(an, strings.Join(next, " "))) > 3 {
			break
		}
		kept = next
	}
	return strings.Join(kept, " ")
}

// measureQueryFiles reads, for each query set and ranking, what each
// query's first search of the bundle in dir fetches.
func measureQueryFiles(ctx context.Context, dir string, queries []beir.Query) ([]queryFilesRow, error) {
	name, err := bundle.FindManifest(dir)
	if err != nil {
		return nil, err
	}
	an, err := analyze.New("en")
	if err != nil {
		return nil, err
	}
	claims := make([]string, len(queries))
	short := make([]string, len(queries))
	for i, q := range queries {
		claims[i], short[i] = q.Text, shortQuery(an, q.Text)
	}
	var rows []queryFilesRow
	for _, set := range []struct {
		name string
		qs   []string
	}{{"SciFact claims", claims}, {"their first three terms", short}} {
		for _, r := range queryRankings {
			row, err := queryFiles(ctx, dir, name, an, set.qs, r)
			if err != nil {
				return nil, err
			}
			row.Queries = set.name
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// queryFiles measures one query set under one ranking.
func queryFiles(ctx context.Context, dir, manifest string, an analysis.Analyzer, qs []string, r queryRanking) (queryFilesRow, error) {
	row := queryFilesRow{Ranking: r.name, Count: len(qs)}
	var mu sync.Mutex
	var by map[string]int64
	var files int64
	fetch := func(_ context.Context, u string) ([]byte, error) {
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(u, "/")))
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		n := int64(len(data))
		if fi, err := os.Stat(p + ".br"); err == nil {
			n = fi.Size()
		}
		kind := strings.SplitN(strings.TrimPrefix(u, "/"), "/", 2)[0]
		mu.Lock()
		defer mu.Unlock()
		if !strings.HasPrefix(kind, "manifest-") {
			by[kind] += n
			files++
		}
		return data, nil
	}
	var total, postings, texts, others, nfiles []int64
	for _, q := range qs {
		ix, err := bundle.OpenRanked(ctx, "/"+manifest, "", fetch, r.cfg)
		if err != nil {
			return row, err
		}
		mu.Lock()
		by, files = map[string]int64{}, 0
		mu.Unlock()
		_, err = ix.Search(ctx, q, knowledge.SearchOptions{K: 8})
		if err != nil {
			return row, fmt.Errorf("%q, %s: %w", q, r.name, err)
		}
		if r.cfg.Feedback.Applies(len(highlight.QueryTerms(an, q))) {
			row.Feedback++
		}
		mu.Lock()
		var sum int64
		for _, n := range by {
			sum += n
		}
		total = append(total, sum)
		postings = append(postings, by["t"])
		texts = append(texts, by["f"])
		others = append(others, sum-by["t"]-by["f"])
		nfiles = append(nfiles, files)
		mu.Unlock()
	}
	row.Bytes, row.BytesP90 = median(total), percentile(total, 0.9)
	row.Postings, row.Texts, row.Others = median(postings), median(texts), median(others)
	row.Files = median(nfiles)
	return row, nil
}

// percentile is the value at share p of the sorted values (nearest rank).
func percentile(v []int64, p float64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// printQueryFiles writes the table of a site's native measurements.
func printQueryFiles(w io.Writer, rows []queryFilesRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "What a first query reads of the bundle, by ranking (natively, from the bundle folder; each file as its .br sibling, the manifest apart; 8 hits; medians):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| queries | ranking | with feedback's round | site data | p90 | files | term shards | fragments | map pages, group table |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, x := range rows {
		fmt.Fprintf(w, "| %s | %s | %d of %d | %s | %s | %d | %s | %s | %s |\n", x.Queries, x.Ranking, x.Feedback, x.Count,
			kbs(x.Bytes), kbs(x.BytesP90), x.Files, kbs(x.Postings), kbs(x.Texts), kbs(x.Others))
	}
	fmt.Fprintln(w)
}
