package knowledge

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// fillers are documents about nothing in particular, so that the words of
// the documents under test are rare enough to be feedback terms (in at
// most a tenth of all chunks).
func fillers(n int) []Input {
	var out []Input
	for i := 0; i < n; i++ {
		out = append(out, Input{Title: fmt.Sprintf("Note %d", i), Source: fmt.Sprintf("note/%d", i),
			Text: fmt.Sprintf("Filler note number %d about office routine, meetings and schedules.", i)})
	}
	return out
}

var polar = []Input{
	{Title: "Emperor penguins", Source: "polar/emperor", Text: "Emperor penguins breed on the Antarctic sea ice during the polar winter."},
	{Title: "Adelie penguins", Source: "polar/adelie", Text: "Adelie penguins nest on rocky Antarctic coasts and hunt krill under the sea ice."},
	{Title: "Ice shelves", Source: "polar/shelves", Text: "Antarctic ice shelves float on the sea; krill swarm beneath the ice."},
}

func TestFeedback_ShortQueryFindsDocumentsSharingTheTopDocumentsWords(t *testing.T) {
	tests := []struct {
		name     string
		fb       Feedback
		query    string
		wantFind bool
	}{
		{"on for a one-word query", Feedback{}, "penguins", true},
		{"off", Feedback{Off: true}, "penguins", false},
		{"not for queries longer than MaxQueryTerms", Feedback{MaxQueryTerms: 1}, "penguins emperor", false},
		{"for every query with MaxQueryTerms negative", Feedback{MaxQueryTerms: -1}, "penguins emperor", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{Feedback: tt.fb})
			mustAdd(t, kb, append(fillers(40), polar...)...)
			got := sources(find(t, kb, tt.query))
			if !slices.Contains(got, "polar/emperor") {
				t.Fatalf("%q: %v lacks the document that has the words", tt.query, got)
			}
			if found := slices.Contains(got, "polar/shelves"); found != tt.wantFind {
				t.Errorf("%q found the penguin-less ice shelf document: %v, want %v (hits %v)", tt.query, found, tt.wantFind, got)
			}
			if got[0] == "polar/shelves" {
				t.Errorf("%q: the expanded query put a document without the query's words first: %v", tt.query, got)
			}
		})
	}
}

func TestFeedback_TinyKnowledgeBaseHasNoTermsRareEnoughToExpandWith(t *testing.T) {
	on, off := newKB(t, Config{}), newKB(t, Config{Feedback: Feedback{Off: true}})
	mustAdd(t, on, polar...)
	mustAdd(t, off, polar...)
	if a, b := scored(find(t, on, "penguins")), scored(find(t, off, "penguins")); !reflect.DeepEqual(a, b) {
		t.Errorf("with feedback %v, without %v: want the same", a, b)
	}
}

func TestExpand_InterpolatesQueryAndModelWithOriginalWeight(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, append(fillers(40), polar...)...)
	kb.mu.RLock()
	idx := kb.idx
	kb.mu.RUnlock()
	terms := kb.queryTokens("penguins")
	first, err := kb.rankTerms(ctx, idx, terms, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := kb.expand(ctx, idx, terms, first)
	if err != nil || !ok {
		t.Fatalf("expand: %v, %v; want an expanded query", ok, err)
	}
	sum, orig := 0.0, 0.0
	for _, qt := range got {
		sum += qt.weight
		if qt.term == terms[0].term {
			orig = qt.weight
		}
	}
	if len(got) < 2 || len(got) > 1+kb.cfg.Feedback.Terms {
		t.Fatalf("expanded query %v: want the query term and 1..%d others", got, kb.cfg.Feedback.Terms)
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("weights sum to %v, want 1", sum)
	}
	// The query term has its original half and whatever share the model
	// gives it.
	if orig < 0.5 {
		t.Errorf("original term weight %v, want at least OriginalWeight 0.5", orig)
	}
	for _, qt := range got {
		if qt.term == "note" || qt.term == "filler" {
			t.Errorf("expansion term %q is in most documents; feedback must skip such terms", qt.term)
		}
	}
}

func TestProximity_AdjacentQueryWordsRankAboveScatteredOnes(t *testing.T) {
	docs := append(fillers(20),
		// Same words, same lengths; only the distance differs. The
		// scattered one is indexed first, so it wins a tie.
		Input{Title: "Report A", Source: "scattered", Text: "Vitamin levels were measured in spring. Patients later showed iron deficiency only."},
		Input{Title: "Report B", Source: "adjacent", Text: "Patients showed vitamin deficiency only. Iron levels were measured in spring later."},
	)
	for _, tt := range []struct {
		name string
		prox Proximity
		want string
	}{
		{"off: a tie, index order", Proximity{}, "scattered"},
		{"on", Proximity{On: true}, "adjacent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{Proximity: tt.prox, Feedback: Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			got := find(t, kb, "vitamin deficiency")
			if len(got) < 2 || got[0].Source != tt.want {
				t.Errorf("first hit %v, want %s", sources(got), tt.want)
			}
		})
	}
}

func TestPairCounts_OrderedIsAdjacentInOrderUnorderedIsWithinTheWindow(t *testing.T) {
	tests := []struct {
		a, b        []int
		ordered, uw int
	}{
		{[]int{3}, []int{4}, 1, 1},
		{[]int{4}, []int{3}, 0, 1},
		{[]int{1}, []int{1 + sdmWindow - 1}, 0, 1},
		{[]int{1}, []int{1 + sdmWindow}, 0, 0},
		{[]int{1, 10}, []int{2, 11}, 2, 2},
		{nil, []int{2}, 0, 0},
	}
	for _, tt := range tests {
		if o, u := pairCounts(tt.a, tt.b); o != tt.ordered || u != tt.uw {
			t.Errorf("pairCounts(%v, %v) = %d, %d, want %d, %d", tt.a, tt.b, o, u, tt.ordered, tt.uw)
		}
	}
}

func TestEachTerm_GivesAnalyzesTermsAndPositions(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		kb := newKB(t, Config{Language: lang})
		for _, text := range []string{"The cats' toys, e.g. 3.5 balls and 10,000 mice!", "Die Häuser der Städte", "東京 and Zürich", ""} {
			var want, got []string
			for _, tok := range kb.analyzer.Analyze([]byte(text)) {
				want = append(want, fmt.Sprintf("%s@%d", tok.Term, tok.Position))
			}
			eachTerm(kb.analyzer, []byte(text), func(term string, pos int) {
				got = append(got, fmt.Sprintf("%s@%d", term, pos))
			})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: eachTerm %v, Analyze %v", lang, text, got, want)
			}
		}
	}
}
