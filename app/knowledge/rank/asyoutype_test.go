package rank

import "testing"

func TestOneEdit_InsertDeleteReplaceOrSwapNeighbours(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"protein", "protien", true},  // neighbours swapped
		{"protein", "proteins", true}, // one inserted
		{"proteins", "protein", true}, // one deleted
		{"protein", "protean", true},  // one replaced
		{"protein", "protein", false}, // no edit
		{"protein", "prtien", false},  // two edits
		{"protein", "niet", false},
		{"grüße", "grusse", false}, // ü→u and ß→ss: two
		{"grüße", "grüse", true},   // ß replaced by s
		{"", "a", true},
		{"ab", "ba", true},
		{"abc", "cba", false},
	}
	for _, tt := range tests {
		if got := OneEdit(tt.a, tt.b); got != tt.want {
			t.Errorf("OneEdit(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
