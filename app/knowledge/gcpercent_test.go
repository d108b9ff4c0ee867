package knowledge

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestAskGC_OverlappingAsksCombineAndEndingOneKeepsTheOthers(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tests := []struct {
		name  string
		asks  []int // asked in this order
		ends  []int // then ended in this order (indexes into asks)
		wants []int // GOGC after all asks, then after each end
	}{
		{"one ask, then back", []int{200}, []int{0}, []int{200, 100}},
		{"off wins over a percent", []int{200, -1}, []int{1, 0}, []int{-1, 200, 100}},
		{"the import ends first: collection stays off", []int{200, -1}, []int{0, 1}, []int{-1, -1, 100}},
		{"off asked first", []int{-1, 200}, []int{0, 1}, []int{-1, 200, 100}},
		{"the largest percent holds", []int{150, 300}, []int{1, 0}, []int{300, 150, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dones := make([]func(), len(tc.asks))
			for i, p := range tc.asks {
				dones[i] = AskGC(p)
			}
			if got := gcPercent(); got != tc.wants[0] {
				t.Fatalf("GOGC with every ask under way = %d, want %d", got, tc.wants[0])
			}
			for k, i := range tc.ends {
				dones[i]()
				dones[i]() // a second call changes nothing
				if got := gcPercent(); got != tc.wants[k+1] {
					t.Fatalf("GOGC after ask %d ended = %d, want %d", i, got, tc.wants[k+1])
				}
			}
		})
	}
}
