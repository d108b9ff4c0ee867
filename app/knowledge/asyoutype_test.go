package knowledge

import (
	"slices"
	"strings"
	"testing"
)

var proteins = append(append([]Input{}, corpus...),
	Input{Title: "Proteins", Source: "bio/proteins.md", Text: "Proteins fold into shapes that decide what they do in the cell."},
	Input{Title: "Protection", Source: "bio/protection.md", Text: "Sunscreen gives protection against ultraviolet light."},
	Input{Title: "Diabetes", Source: "bio/diabetes.md", Text: "Diabetes changes how the body handles sugar."},
)

func TestSearchAsYouType_PrefixesAndNearMissesFindTheirPages(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, proteins...)
	tests := []struct {
		name, query string
		want        []string // sources that must be found
		not         []string // sources that must not
	}{
		{"the last word is a prefix while typing", "prote", []string{"bio/proteins.md", "bio/protection.md"}, nil},
		{"a finished word is no prefix", "prote ", nil, []string{"bio/proteins.md", "bio/protection.md"}},
		{"a prefix after whole words", "cell prot", []string{"bio/proteins.md"}, nil},
		{"a swapped pair of letters", "protien shapes", []string{"bio/proteins.md"}, nil},
		{"a missing letter", "diabets ", []string{"bio/diabetes.md"}, nil},
		{"a short word is not corrected", "sugr ", nil, []string{"bio/diabetes.md"}},
		{"a word the index holds is taken as it is", "express ", []string{"policy/shipping.md"}, []string{"bio/proteins.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := kb.Search(ctx, tt.query, SearchOptions{K: 10, Highlight: true, AsYouType: true})
			if err != nil {
				t.Fatal(err)
			}
			got := sources(hits)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q found %v, want %s among them", tt.query, got, w)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(got, n) {
					t.Errorf("%q found %v, want no %s", tt.query, got, n)
				}
			}
		})
	}
}

func TestSearchAsYouType_HighlightsTheWordsAPrefixStandsFor(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, proteins...)
	hits, err := kb.Search(ctx, "protei", SearchOptions{K: 1, Highlight: true, AsYouType: true})
	if err != nil || len(hits) == 0 {
		t.Fatalf("no hit: %v", err)
	}
	if f := strings.Join(hits[0].Fragments, " "); !strings.Contains(f, "<mark>Proteins</mark>") {
		t.Errorf("fragments %q: want the completed word marked", f)
	}
}

func TestSearchAsYouType_PlainSearchDoesNotExpand(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, proteins...)
	if got := sources(find(t, kb, "prote")); len(got) != 0 {
		t.Errorf("a plain search for a prefix found %v, want nothing", got)
	}
}
