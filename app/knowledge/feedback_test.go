package knowledge

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"tinyrag/app/knowledge/rank"
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
		fb       rank.Feedback
		query    string
		wantFind bool
	}{
		{"on for a one-word query", rank.Feedback{}, "penguins", true},
		{"off", rank.Feedback{Off: true}, "penguins", false},
		{"not for queries longer than MaxQueryTerms", rank.Feedback{MaxQueryTerms: 1}, "penguins emperor", false},
		{"for every query with MaxQueryTerms negative", rank.Feedback{MaxQueryTerms: -1}, "penguins emperor", true},
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
	on, off := newKB(t, Config{}), newKB(t, Config{Feedback: rank.Feedback{Off: true}})
	mustAdd(t, on, polar...)
	mustAdd(t, off, polar...)
	if a, b := scored(find(t, on, "penguins")), scored(find(t, off, "penguins")); !reflect.DeepEqual(a, b) {
		t.Errorf("with feedback %v, without %v: want the same", a, b)
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
		prox rank.Proximity
		want string
	}{
		{"off: a tie, index order", rank.Proximity{}, "scattered"},
		{"on", rank.Proximity{On: true}, "adjacent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{Proximity: tt.prox, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			got := find(t, kb, "vitamin deficiency")
			if len(got) < 2 || got[0].Source != tt.want {
				t.Errorf("first hit %v, want %s", sources(got), tt.want)
			}
		})
	}
}
