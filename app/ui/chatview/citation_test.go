package chatview

import "testing"

func TestPassageLabel_NamesThePassageByItsPlaceNotItsID(t *testing.T) {
	for _, c := range []struct {
		lang, id, want string
	}{
		{"en", "00000001-24dc0e4c668d#0", "passage 1"},
		{"en", "doc-7#12", "passage 13"},
		{"de", "doc#2", "Abschnitt 3"},
		{"en", "a#b#4", "passage 5"},
		{"en", "no-number", ""},
		{"en", "doc#", ""},
		{"en", "doc#x", ""},
		{"en", "doc#-1", ""},
	} {
		if got := passageLabel(c.lang, c.id); got != c.want {
			t.Errorf("passageLabel(%q, %q) = %q, want %q", c.lang, c.id, got, c.want)
		}
	}
}
