package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/beir"
	"tinyrag/app/knowledge/bundle"
)

func TestShortQuery_KeepsTheWordsUpToTheThirdDistinctTerm(t *testing.T) {
	an, err := analyze.New("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ q, want string }{
		{"the cat and the cat sat on a mat today", "the cat and the cat sat on a mat"},
		{"apple pear", "apple pear"},
		{"Apples, pears and plums grow in orchards", "Apples, pears and plums"},
		{"", ""},
	} {
		if got := shortQuery(an, tt.q); got != tt.want {
			t.Errorf("shortQuery(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestPercentile_NearestRank(t *testing.T) {
	v := []int64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, tt := range []struct {
		p    float64
		want int64
	}{{0.9, 9}, {0.5, 5}, {1, 10}, {0, 1}} {
		if got := percentile(v, tt.p); got != tt.want {
			t.Errorf("percentile(%v) = %d, want %d", tt.p, got, tt.want)
		}
	}
	if got := percentile(nil, 0.9); got != 0 {
		t.Errorf("percentile of nothing = %d, want 0", got)
	}
}

// A bundle folder whose .br siblings are one byte each: a query's site
// data, counted as the host sends it, is then its number of files.
func TestMeasureQueryFiles_CountsEachFileAsItsBrotliSiblingAndFeedbackApart(t *testing.T) {
	var ins []knowledge.Input
	words := strings.Fields("orchard apple pear cherry plum blossom frost pruning graft soil compost mulch cider juice")
	for i := 0; i < 120; i++ {
		var b strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "%s ", words[(i*7+j*j)%len(words)])
		}
		ins = append(ins, knowledge.Input{Title: fmt.Sprintf("Page %d", i), Source: fmt.Sprintf("docs/p%d.html", i), Type: "text", Text: b.String()})
	}
	out, err := bundle.Write(context.Background(), ins, bundle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "b")
	if err := out.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for name := range out.Files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name))+".br", []byte{0}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	queries := []beir.Query{{ID: "1", Text: "apple frost"}, {ID: "2", Text: "cherry plum blossom pruning graft and cider"}}
	rows, err := measureQueryFiles(context.Background(), dir, queries)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*len(queryRankings) {
		t.Fatalf("%d rows, want %d", len(rows), 2*len(queryRankings))
	}
	byName := map[string]queryFilesRow{}
	for _, r := range rows {
		byName[r.Queries+", "+r.Ranking] = r
		if r.Bytes != r.Files {
			t.Errorf("%s, %s: %d bytes in %d files: not counted as their one-byte .br siblings", r.Queries, r.Ranking, r.Bytes, r.Files)
		}
		if r.Bytes != r.Postings+r.Texts+r.Others || r.Postings == 0 || r.Texts == 0 {
			t.Errorf("%s, %s: %d bytes = %d postings + %d texts + %d others?", r.Queries, r.Ranking, r.Bytes, r.Postings, r.Texts, r.Others)
		}
	}
	for _, tt := range []struct {
		row      string
		feedback int
	}{
		{"SciFact claims, feedback off", 0},
		{"SciFact claims, default (feedback for ≤ 3 terms)", 1},
		{"SciFact claims, feedback on every query", 2},
		{"their first three terms, default (feedback for ≤ 3 terms)", 2},
	} {
		if got := byName[tt.row].Feedback; got != tt.feedback {
			t.Errorf("%s: %d queries with feedback's round, want %d", tt.row, got, tt.feedback)
		}
	}
	off, on := byName["SciFact claims, feedback off"], byName["SciFact claims, feedback on every query"]
	if on.Files <= off.Files {
		t.Errorf("feedback on every query reads %d files, off %d: its second round is not counted", on.Files, off.Files)
	}
}
