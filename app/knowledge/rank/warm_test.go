package rank

import (
	"slices"
	"testing"
)

// Warm is only worth its call if its index takes the ranking through
// the scoring loops: both of its documents must come out ranked, for
// each way of scoring that takes a different path through them.
func TestWarm_RanksBothDocumentsOfItsIndex(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"defaults", Config{}},
		{"title boost", Config{TitleBoost: 0.5}},
		{"best chunk only", Config{Scoring: Scoring{ChunkOnly: true}}},
		{"rank fusion", Config{Scoring: Scoring{Fusion: FusionRRF}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := warmRank(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, res := range got {
				ids = append(ids, res.Doc.ID)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, []string{"a", "b"}) {
				t.Errorf("ranked %v, want a and b", ids)
			}
		})
	}
}
