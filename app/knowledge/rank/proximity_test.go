package rank

import "testing"

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
