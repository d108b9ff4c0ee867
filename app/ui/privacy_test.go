package ui

import (
	"strings"
	"testing"

	"tinyrag/app/control"
	"tinyrag/app/knowledge"
)

func TestPrivacyHint_SaysWhereQuestionsAndPassagesGo(t *testing.T) {
	tests := []struct {
		name string
		m    control.ModelState
		want []string
	}{
		{"local proxy", control.ModelState{Status: control.LLMOK, Proxy: true}, []string{"passages", "tinyRAG server forwards to"}},
		{"hosted endpoint", control.ModelState{Status: control.LLMOK, Host: "api.example.com"}, []string{"passages", "at api.example.com"}},
		{"local endpoint", control.ModelState{Status: control.LLMOK}, []string{"on this machine"}},
		{"no model", control.ModelState{Status: control.LLMDown}, []string{"nothing is sent"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PrivacyHint("en", tc.m)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("hint %q lacks %q", got, w)
				}
			}
			if strings.Contains(got, "never leave") {
				t.Errorf("hint %q still promises documents never leave", got)
			}
		})
	}
}

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
