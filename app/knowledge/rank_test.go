package knowledge

import (
	"fmt"
	"reflect"
	"testing"
)

// scored is what a search returns, down to the score.
func scored(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %s %.9f", h.Source, h.ChunkID, h.Score))
	}
	return out
}

func TestRank_CachedPostingsGiveWhatFreshOnesGive(t *testing.T) {
	more := append(append([]Input{}, corpus...),
		Input{Title: "Delivery costs", Source: "policy/costs.md", Text: "Standard delivery is free; express delivery costs ten euros per parcel."},
		Input{Title: "Damage", Source: "policy/damage.md", Text: "Report delivery damage within two days; we replace damaged items."},
	)
	queries := []string{"express delivery", "damage within two days", "returned items refund", "warranty devices"}
	tests := []struct {
		name   string
		change func(t *testing.T, kb *KB)
	}{
		{"unchanged", func(*testing.T, *KB) {}},
		{"after a delete", func(t *testing.T, kb *KB) {
			if err := kb.DeleteSource(ctx, "policy/shipping.md"); err != nil {
				t.Fatal(err)
			}
		}},
		{"after a replacement", func(t *testing.T, kb *KB) {
			mustAdd(t, kb, Input{Title: "Damage", Source: "policy/damage.md", Text: "Damaged parcels: tell us within a week."})
		}},
		{"after another batch", func(t *testing.T, kb *KB) {
			mustAdd(t, kb, Input{Title: "Express", Source: "policy/express.md", Text: "Express delivery arrives the next day."})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			warm, cold := newKB(t, Config{}), newKB(t, Config{})
			mustAdd(t, warm, more...)
			mustAdd(t, cold, more...)
			for _, q := range queries {
				find(t, warm, q) // fills warm's postings cache
			}
			tt.change(t, warm)
			tt.change(t, cold)
			for _, q := range queries {
				if got, want := scored(find(t, warm, q)), scored(find(t, cold, q)); !reflect.DeepEqual(got, want) {
					t.Errorf("%q with cached postings: %v\nwith fresh ones: %v", q, got, want)
				}
			}
			if tt.name == "after a delete" {
				for _, q := range queries {
					for _, h := range find(t, warm, q) {
						if h.Source == "policy/shipping.md" {
							t.Errorf("%q found the deleted document", q)
						}
					}
				}
			}
		})
	}
}

func TestRank_DeletedChunksNeverCrowdOutLiveOnes(t *testing.T) {
	for _, warm := range []bool{false, true} {
		kb := newKB(t, Config{})
		mustAdd(t, kb,
			Input{Title: "Zoo", Source: "zoo.md", Text: "Zebra zebra zebra, the zebra enclosure."},
			Input{Title: "Savanna", Source: "savanna.md", Text: "Lions, giraffes and the occasional zebra roam the plains near the river."},
		)
		if warm {
			find(t, kb, "zebra")
		}
		// The old zoo.md stays in its segment, marked deleted.
		mustAdd(t, kb, Input{Title: "Zoo", Source: "zoo.md", Text: "Penguins and seals."})
		hits, err := kb.Search(ctx, "zebra", SearchOptions{K: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := sources(hits); !reflect.DeepEqual(got, []string{"savanna.md"}) {
			t.Errorf("warm cache %v: top hit for zebra is %v, want [savanna.md]", warm, got)
		}
	}
}
