package textfrag

import (
	"net/url"
	"strings"
	"testing"
)

func TestDirective(t *testing.T) {
	tests := []struct {
		name, passage, want string
	}{
		{"a short passage is matched whole",
			"Store pears at one degree Celsius.",
			":~:text=Store%20pears%20at%20one%20degree%20Celsius."},
		{"a long passage by its first and last words",
			"Winter pruning\n\nPrune the apple trees in late winter, while the buds are still dormant. Remove crossing branches first, then thin the canopy so that light reaches the fruiting spurs.",
			":~:text=Prune%20the%20apple%20trees%20in,light%20reaches%20the%20fruiting%20spurs."},
		{"one long sentence by its ends, within the sentence",
			"Every year about three hundred thousand zebras migrate across the Serengeti following the rains to fresh grass",
			":~:text=Every%20year%20about%20three%20hundred,the%20rains%20to%20fresh%20grass"},
		{"list markers and punctuation-only tokens are left out",
			"- Remove crossing branches first\n- Thin the canopy so light reaches\n1. Water the young trees weekly",
			":~:text=Remove%20crossing%20branches%20first,Water%20the%20young%20trees%20weekly"},
		{"words with markup break a run",
			"Use **sharp** shears and clean every cut with alcohol after each tree.",
			":~:text=shears%20and%20clean%20every%20cut%20with%20alcohol%20after%20each%20tree."},
		{"commas, hyphens and ampersands are percent-encoded",
			"Our R&D team grafts salt-tolerant rootstocks, pears and quinces.",
			":~:text=Our%20R%26D%20team%20grafts%20salt%2Dtolerant%20rootstocks%2C%20pears%20and%20quinces."},
		{"a punctuation-only token ends a run",
			"Pears & quinces grow well on heavy clay soils here.",
			":~:text=quinces%20grow%20well%20on%20heavy%20clay%20soils%20here."},
		{"non-ASCII words as UTF-8",
			"Die Größe der Äpfel hängt vom Schnitt ab.",
			":~:text=Die%20Gr%C3%B6%C3%9Fe%20der%20%C3%84pfel%20h%C3%A4ngt%20vom%20Schnitt%20ab."},
		{"a title-like passage: its longest run of two or more words",
			"# Pears\nStoring pears",
			":~:text=Storing%20pears"},
		{"nothing fit for a term", "* — | 1.", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Directive(tt.passage); got != tt.want {
				t.Errorf("Directive(%q)\n got %s\nwant %s", tt.passage, got, tt.want)
			}
		})
	}
}

// TestDirective_TermsAreContiguousWordsOfOneLine checks the property a
// browser needs: every term, decoded, stands as it is within one line of
// the passage, and contains only characters the directive's syntax does
// not use unencoded.
func TestDirective_TermsAreContiguousWordsOfOneLine(t *testing.T) {
	passages := []string{
		"Prune the apple trees in late winter, while the buds are still dormant.\nRemove crossing branches first, then thin the canopy.",
		"Intro\n\n- one\n- two three four five six\n\nThe end of the list, and a last sentence with several words.",
		"A [link](x) to *emphasis* and `code` among plain words that run on for a while here.",
		strings.Repeat("word ", 40),
	}
	for _, p := range passages {
		d := Directive(p)
		if d == "" {
			t.Errorf("no directive for %q", p)
			continue
		}
		body := strings.TrimPrefix(d, ":~:text=")
		if strings.ContainsAny(body, " &-#") {
			t.Errorf("directive %q carries characters its syntax uses", d)
		}
		for _, term := range strings.Split(body, ",") {
			dec, err := url.PathUnescape(term)
			if err != nil {
				t.Fatalf("term %q: %v", term, err)
			}
			found := false
			for _, line := range strings.Split(p, "\n") {
				found = found || strings.Contains(strings.Join(strings.Fields(line), " "), dec)
			}
			if !found {
				t.Errorf("term %q of %q is not a run of words of one line", dec, p)
			}
		}
	}
}

func TestLink(t *testing.T) {
	tests := []struct{ page, passage, want string }{
		{"https://docs.example.org/pruning.html", "Prune in late winter.", "https://docs.example.org/pruning.html#:~:text=Prune%20in%20late%20winter."},
		{"https://docs.example.org/p.html?x=1#top", "Prune in late winter.", "https://docs.example.org/p.html?x=1#:~:text=Prune%20in%20late%20winter."},
		{"https://docs.example.org/p.html", "—", "https://docs.example.org/p.html"},
		{"", "Prune in late winter.", ""},
	}
	for _, tt := range tests {
		if got := Link(tt.page, tt.passage); got != tt.want {
			t.Errorf("Link(%q, %q) = %q, want %q", tt.page, tt.passage, got, tt.want)
		}
	}
}
