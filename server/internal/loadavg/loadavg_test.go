package loadavg

import "testing"

func TestParse_KeepsTheThreeAveragesOrSaysUnknown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0.52 0.61 0.70 1/123 4567\n", "0.52 0.61 0.70"},
		{"0.52 0.61", "unknown"},
		{"", "unknown"},
	} {
		if got := parse(tc.in); got != tc.want {
			t.Errorf("parse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
