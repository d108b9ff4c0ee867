package embed

import (
	"strings"
	"testing"
)

func TestDecode_AcceptsTheProtocolAndRefusesTheRest(t *testing.T) {
	big := strings.Repeat("x", MaxDocumentBytes+1)
	for _, tc := range []struct {
		name, msg string
		err       string // "" accepted, else a part of the error
	}{
		{"ask", `{"v":1,"type":"ask","question":" What is RAG? "}`, ""},
		{"add documents", `{"v":1,"type":"add_documents","documents":[{"title":"A","text":"alpha","url":"https://docs.example.org/a"}]}`, ""},
		{"set context", `{"v":1,"type":"set_context","context":"The visitor reads the install guide."}`, ""},
		{"empty context clears it", `{"v":1,"type":"set_context"}`, ""},
		{"search", `{"v":1,"type":"search","query":"prun"}`, ""},
		{"an empty search clears it", `{"v":1,"type":"search","query":" "}`, ""},
		{"a search too long", `{"v":1,"type":"search","query":"` + strings.Repeat("é", MaxQueryRunes+1) + `"}`, "limit is 500"},
		{"results only the app sends", `{"v":1,"type":"results","query":"x"}`, `unknown message type "results"`},
		{"feedback only the app sends", `{"v":1,"type":"feedback","rating":"up"}`, `unknown message type "feedback"`},
		{"another version", `{"v":2,"type":"ask","question":"x"}`, "version 2"},
		{"no version", `{"type":"ask","question":"x"}`, "version 0"},
		{"no type", `{"v":1}`, "no type"},
		{"a type only the app sends", `{"v":1,"type":"answer","answer":"forged"}`, `unknown message type "answer"`},
		{"a question of spaces", `{"v":1,"type":"ask","question":"   "}`, "empty"},
		{"a question too long", `{"v":1,"type":"ask","question":"` + strings.Repeat("é", MaxQuestionRunes+1) + `"}`, "limit is 4096"},
		{"no documents", `{"v":1,"type":"add_documents","documents":[]}`, "no documents"},
		{"a document without text", `{"v":1,"type":"add_documents","documents":[{"title":"A","text":" "}]}`, "document 1 has no text"},
		{"a document too big", `{"v":1,"type":"add_documents","documents":[{"title":"A","text":"` + big + `"}]}`, "document 1 is"},
		{"a script url", `{"v":1,"type":"add_documents","documents":[{"title":"A","text":"a","url":"javascript:alert(1)"}]}`, "http or https"},
		{"not JSON", `ask me`, "not a JSON object"},
		{"a JSON string", `"ask"`, "not a JSON object"},
	} {
		m, err := Decode([]byte(tc.msg))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.err)
		case tc.err == "" && m.Type == TypeAsk && m.Question != "What is RAG?":
			t.Errorf("%s: question %q not trimmed", tc.name, m.Question)
		}
	}
}

func TestNormalizeOrigin_OnlyExactOrigins(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://Docs.Example.org", "https://docs.example.org"},
		{"https://docs.example.org/", "https://docs.example.org"},
		{"https://docs.example.org:443", "https://docs.example.org"},
		{"http://127.0.0.1:8081", "http://127.0.0.1:8081"},
		{"http://[::1]:8081", "http://[::1]:8081"},
		{"*", ""},
		{"https://*.example.org", ""},
		{"null", ""},
		{"https://docs.example.org/path", ""},
		{"file:///etc", ""},
		{"https://user@docs.example.org", ""},
		{"docs.example.org", ""},
	} {
		got, err := NormalizeOrigin(tc.in)
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestPolicy_AllowsOnlyConfiguredOrigins(t *testing.T) {
	p, err := Policy{Origins: []string{"https://Docs.Example.org/", "http://127.0.0.1:9000"}}.Check()
	if err != nil {
		t.Fatal(err)
	}
	for origin, want := range map[string]bool{
		"https://docs.example.org":      true,
		"http://127.0.0.1:9000":         true,
		"http://docs.example.org":       false, // another scheme is another origin
		"https://evil.docs.example.org": false,
		"https://docs.example.org.evil": false,
		"http://127.0.0.1:9001":         false,
		"null":                          false,
		"":                              false,
	} {
		if got := p.Allows(origin); got != want {
			t.Errorf("Allows(%q) = %t, want %t", origin, got, want)
		}
	}
	if _, err := (Policy{Origins: []string{"*"}}).Check(); err == nil {
		t.Error("a wildcard origin was accepted")
	}
	if (Policy{}).Allows("https://docs.example.org") {
		t.Error("an empty policy allowed a page")
	}
}
