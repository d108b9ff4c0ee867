package beir

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"tinyrag/app/knowledge"
)

func TestNDCG_MatchesHandComputedValues(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1}
	tests := []struct {
		name    string
		ranking []string
		want    float64
	}{
		{"ideal", []string{"a", "b", "x"}, 1},
		{"reversed relevant order is still ideal", []string{"b", "a"}, 1},
		{"one relevant at rank 2", []string{"x", "a"}, (1 / math.Log2(3)) / (1 + 1/math.Log2(3))},
		{"nothing relevant", []string{"x", "y"}, 0},
		{"relevant beyond k does not count", []string{"x", "y", "a"}, 0},
	}
	for _, tt := range tests {
		if got := NDCG(tt.ranking, rel, 2); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: NDCG = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRecall_CountsRelevantFound(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1, "c": 0}
	if got := Recall([]string{"c", "a", "x"}, rel, 100); got != 0.5 {
		t.Errorf("Recall = %v, want 0.5", got)
	}
	if got := Recall([]string{"x", "a"}, rel, 1); got != 0 {
		t.Errorf("Recall@1 = %v, want 0", got)
	}
}

func TestPercentile_NearestRank(t *testing.T) {
	var ds []time.Duration
	for i := 10; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	if p := Percentile(ds, 50); p != 5*time.Millisecond {
		t.Errorf("p50 = %v, want 5ms", p)
	}
	if p := Percentile(ds, 95); p != 10*time.Millisecond {
		t.Errorf("p95 = %v, want 10ms", p)
	}
}

func TestPercentile_EdgesOfTheNearestRank(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var ds []time.Duration
		for _, x := range v {
			ds = append(ds, time.Duration(x)*time.Millisecond)
		}
		return ds
	}
	cases := []struct {
		name string
		v    []time.Duration
		p    float64
		want time.Duration
	}{
		{"none", nil, 90, 0},
		{"one value is every percentile", ms(7), 50, 7 * time.Millisecond},
		{"max is the 100th", ms(3, 9, 1, 5), 100, 9 * time.Millisecond},
		{"90th of ten is the ninth smallest", ms(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 90, 9 * time.Millisecond},
		{"50th of four is the second smallest", ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"a tiny p is the smallest", ms(4, 1, 3), 0.1, 1 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Percentile(c.v, c.p); got != c.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", c.v, c.p, got, c.want)
			}
		})
	}
}

func TestReaders_ParseBEIRAndRejectBadLines(t *testing.T) {
	docs, err := ReadCorpus(strings.NewReader(`{"_id":"d1","title":"T","text":"x"}` + "\n\n" + `{"_id":"d2","title":"","text":"y"}`))
	if err != nil || len(docs) != 2 || docs[1].ID != "d2" {
		t.Fatalf("corpus: %+v, %v", docs, err)
	}
	if _, err := ReadCorpus(strings.NewReader(`{"_id":"d1"}` + "\n" + `{broken`)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("broken corpus line: got %v, want an error naming line 2", err)
	}
	qrels, err := ReadQrels(strings.NewReader("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\n"))
	if err != nil || qrels["q1"]["d2"] != 2 || len(qrels["q1"]) != 2 {
		t.Fatalf("qrels: %+v, %v", qrels, err)
	}
	if _, err := ReadQrels(strings.NewReader("q1\td1\n")); err == nil {
		t.Error("qrels line with two fields: want an error")
	}
	if _, err := ReadQrels(strings.NewReader("h\th\th\nq1\td1\tx\n")); err == nil {
		t.Error("qrels score that is not a number: want an error")
	}
}

func TestRun_PerfectCollectionScoresOne(t *testing.T) {
	s := Set{
		Corpus: []Doc{
			{ID: "d1", Title: "Penguins", Text: "Penguins live in the southern hemisphere and cannot fly."},
			{ID: "d2", Title: "Camels", Text: "Camels store fat in their humps and cross deserts."},
			{ID: "d3", Title: "Owls", Text: "Owls hunt at night with silent flight."},
		},
		Queries: []Query{{ID: "q1", Text: "flightless southern penguins"}, {ID: "q2", Text: "desert camels"}, {ID: "q3", Text: "unjudged"}},
		Qrels:   Qrels{"q1": {"d1": 1}, "q2": {"d2": 1}},
	}
	rep, kb, err := Run(context.Background(), knowledge.Config{}, s)
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if rep.Queries != 2 || rep.Docs != 3 || rep.NDCG10 != 1 || rep.Recall100 != 1 || rep.DocsPerSecond <= 0 {
		t.Fatalf("report %+v, want 2 queries, 3 docs, perfect scores", rep)
	}
}
