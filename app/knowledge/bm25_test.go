package knowledge

import (
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
	"tinyrag/app/knowledge/rank"
)

func TestScoring_FormulaWeighsTermFrequencyAgainstLength(t *testing.T) {
	// A short chunk says "orca" once; a long one says it several times
	// among filler. Robertson's BM25 at Lucene's defaults (b 0.75)
	// prefers the short chunk until the long one repeats the word often
	// enough; Anserini's b 0.4 normalises length less and prefers the
	// long one sooner; bleve's formula (√tf, and an "average length" of a
	// handful of tokens) prefers the short one throughout.
	tests := []struct {
		name    string
		formula rank.Formula
		repeats int
		want    []string
	}{
		{"Lucene's defaults (the default), three times", rank.FormulaLucene, 3, []string{"short", "long"}},
		{"Lucene's defaults, eight times", rank.FormulaLucene, 8, []string{"long", "short"}},
		{"Anserini's defaults, three times", rank.FormulaAnserini, 3, []string{"long", "short"}},
		{"bleve's, three times", rank.FormulaBleve, 3, []string{"short", "long"}},
		{"bleve's, eight times", rank.FormulaBleve, 8, []string{"short", "long"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{ChunkSize: 4000, Scoring: rank.Scoring{Formula: tt.formula}, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, append(fillers(20),
				Input{Title: "Short", Source: "short", Text: "An orca swam."},
				Input{Title: "Long", Source: "long", Text: strings.Repeat("The orca swam. ", tt.repeats) + filler(4)},
			)...)
			if got := sources(find(t, kb, "orca")); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("orca: %v, want %v", got, tt.want)
			}
		})
	}
}

func TestScoring_OnlyBlevesFormulaScalesByTheShareOfQueryWordsMatched(t *testing.T) {
	// bleve multiplies a score by the share of the query's words a chunk
	// matches (coord); Robertson's BM25 adds term scores and nothing else,
	// so a word no chunk has leaves the scores as they are.
	for _, tt := range []struct {
		formula rank.Formula
		ratio   float64 // score for "orca" over score for "orca zyzzyva"
	}{
		{rank.FormulaLucene, 1}, {rank.FormulaAnserini, 1}, {rank.FormulaBleve, 2},
	} {
		kb := newKB(t, Config{Scoring: rank.Scoring{Formula: tt.formula}, Feedback: rank.Feedback{Off: true}})
		mustAdd(t, kb, append(fillers(5), Input{Title: "Whales", Source: "whales", Text: "An orca swam."})...)
		one, two := find(t, kb, "orca"), find(t, kb, "orca zyzzyva")
		if len(one) != 1 || len(two) != 1 {
			t.Fatalf("%q: %v and %v, want the whale note alone", tt.formula, sources(one), sources(two))
		}
		if got := one[0].Score / two[0].Score; math.Abs(got-tt.ratio) > 1e-9 {
			t.Errorf("%q: score ratio %v, want %v", tt.formula, got, tt.ratio)
		}
	}
}

func TestParseFormula_NamesEachFormulaAndRefusesOthers(t *testing.T) {
	tests := []struct {
		in      string
		want    rank.Formula
		wantErr bool
	}{
		{"", rank.FormulaLucene, false},
		{"lucene", rank.FormulaLucene, false},
		{"anserini", rank.FormulaAnserini, false},
		{"bleve", rank.FormulaBleve, false},
		{"okapi", "", true},
	}
	for _, tt := range tests {
		got, err := rank.ParseFormula(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("rank.ParseFormula(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestScoring_RRFRanksByTheReciprocalRanksOfBestChunkAndWholeDocument(t *testing.T) {
	// The specification: each document scores 1/(60 + its rank by best
	// chunk) + 1/(60 + its rank by whole document). Both rankings are
	// read from the knowledge base itself (best chunk alone; the default
	// score less the best chunk's) and fused here.
	docs := append(fillers(10),
		Input{Title: "Log", Source: "log", Text: "A walrus rested on the floe. " + filler(3) + "\n\n" + "Lichen grew on the cliffs. " + filler(3) + "\n\n" + "The walrus left. " + filler(2)},
		Input{Title: "Diary", Source: "diary", Text: "A walrus rested on the floe. " + filler(1)},
		Input{Title: "Survey", Source: "survey", Text: "Lichen and moss on the cliffs, a walrus colony below. " + filler(6)},
		Input{Title: "Letter", Source: "letter", Text: "Dear crew, the lichen samples arrived. " + filler(2)},
	)
	for _, q := range []string{"walrus lichen", "walrus floe", "lichen cliffs"} {
		scores := map[rank.Scoring]map[string]float64{}
		for _, s := range []rank.Scoring{{}, {ChunkOnly: true}, {Fusion: rank.FusionRRF}} {
			kb := newKB(t, Config{ChunkSize: 200, ChunkOverlap: -1, Scoring: s, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			hits, err := kb.Search(ctx, q, SearchOptions{K: 100})
			if err != nil {
				t.Fatal(err)
			}
			scores[s] = map[string]float64{}
			for _, h := range hits {
				scores[s][h.Source] = h.Score
			}
		}
		chunk := scores[rank.Scoring{ChunkOnly: true}]
		whole := map[string]float64{}
		for src, sc := range scores[rank.Scoring{}] {
			whole[src] = sc - chunk[src]
		}
		want := map[string]float64{}
		for _, ranking := range []map[string]float64{chunk, whole} {
			var srcs []string
			for src := range ranking {
				srcs = append(srcs, src)
			}
			sort.Slice(srcs, func(i, j int) bool { return ranking[srcs[i]] > ranking[srcs[j]] })
			for r, src := range srcs {
				want[src] += 1 / float64(60+r+1)
			}
		}
		got := scores[rank.Scoring{Fusion: rank.FusionRRF}]
		if len(got) != len(want) {
			t.Fatalf("%q: fused %v, want %v", q, got, want)
		}
		for src, w := range want {
			if math.Abs(got[src]-w) > 1e-12 {
				t.Errorf("%q: %s scores %v, want %v", q, src, got[src], w)
			}
		}
	}
}

func TestScoring_RRFIsNothingWithoutTheWholeDocument(t *testing.T) {
	// With the best chunk alone there is one ranking and nothing to fuse:
	// the scores stay BM25's.
	a := newKB(t, Config{Scoring: rank.Scoring{ChunkOnly: true}})
	b := newKB(t, Config{Scoring: rank.Scoring{ChunkOnly: true, Fusion: rank.FusionRRF}})
	mustAdd(t, a, corpus...)
	mustAdd(t, b, corpus...)
	for _, q := range []string{"express delivery days", "warranty defects"} {
		if got, want := scored(find(t, b, q)), scored(find(t, a, q)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}
