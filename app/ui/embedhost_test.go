package ui

import (
	"strings"
	"testing"

	"tinyrag/app/knowledge"
)

// The host's search box gets text only: the excerpt of a page whose
// words hold markup comes as the words they are.
func TestSnippet_IsTextWithTheMatchedWordsApart(t *testing.T) {
	h := knowledge.Hit{Fragments: []string{"Give &lt;b&gt;young&lt;/b&gt; trees <mark>mulch</mark> in spring"}}
	got := snippet(h)
	joined := strings.Join(got, "")
	if !strings.Contains(joined, "<b>young</b>") || strings.Contains(joined, "&lt;") || strings.Contains(joined, "<mark>") {
		t.Errorf("snippet %q: want the page's words as text, unescaped, no markup of ours", got)
	}
	if len(got) < 2 || !strings.EqualFold(got[1], "mulch") {
		t.Errorf("snippet %q: want the matched word as the first odd piece", got)
	}
}
