package rank

import "testing"

func TestFeedbackApplies_ToShortQueriesByDefault(t *testing.T) {
	for _, tt := range []struct {
		name  string
		f     Feedback
		terms int
		want  bool
	}{
		{"the default, three terms", Feedback{}, 3, true},
		{"the default, four terms", Feedback{}, 4, false},
		{"off", Feedback{Off: true}, 1, false},
		{"every query", Feedback{MaxQueryTerms: -1}, 40, true},
		{"up to five terms", Feedback{MaxQueryTerms: 5}, 5, true},
	} {
		if got := tt.f.Applies(tt.terms); got != tt.want {
			t.Errorf("%s: Applies(%d) = %v, want %v", tt.name, tt.terms, got, tt.want)
		}
	}
}
