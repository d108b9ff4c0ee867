package chatview

import (
	"strings"
	"testing"

	"tinyrag/app/control"
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
