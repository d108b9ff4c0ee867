package kbview

import (
	"testing"

	"tinyrag/app/knowledge"
)

func TestProgressText_ShowsRateAndTimeLeft(t *testing.T) {
	tests := []struct {
		p    knowledge.Progress
		lang string
		want string
	}{
		{knowledge.Progress{Done: 0, Total: 10}, "en", "0 / 10"},
		{knowledge.Progress{Done: 20, Total: 100, Rate: 10}, "en", "20 / 100 · 10/s · 8s left"},
		{knowledge.Progress{Done: 20, Total: 100, Rate: 10}, "de", "20 / 100 · 10/s · 8s übrig"},
		{knowledge.Progress{Done: 100, Total: 100, Rate: 50}, "en", "100 / 100 · 50/s"},
	}
	for _, tc := range tests {
		if got := progressText(tc.lang, tc.p); got != tc.want {
			t.Errorf("progressText(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestSanitizeMarks_KeepsOnlyMark(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a <mark>zebra</mark> b", "a <mark>zebra</mark> b"},
		{"<script>x</script><mark>y</mark>", "&lt;script&gt;x&lt;/script&gt;<mark>y</mark>"},
		{"<mark onclick=x>y</mark>", "&lt;mark onclick=x&gt;y</mark>"},
	}
	for _, tc := range tests {
		if got := sanitizeMarks(tc.in); got != tc.want {
			t.Errorf("sanitizeMarks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int]string{12: "12 B", 2048: "2 KB", 3 << 20: "3.0 MB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
