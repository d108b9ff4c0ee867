package reach

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tinyrag/app/llm"
)

var fetchErr = errors.New(`Get "http://127.0.0.1:11434/v1/models": net/http: fetch() failed: TypeError: Failed to fetch`)

func TestDiagnose(t *testing.T) {
	cases := []struct {
		name   string
		f      Facts
		kind   Kind
		server string
		says   []string
	}{
		{"Ollama refusing this origin", Facts{PageOrigin: "http://127.0.0.1:8000", Endpoint: "http://127.0.0.1:11434/v1", Err: fetchErr, Probed: true, ProbeAnswered: true},
			CORS, "Ollama", []string{"CORS", "OLLAMA_ORIGINS=http://127.0.0.1:8000"}},
		{"LM Studio refusing", Facts{PageOrigin: "https://docs.example.test", Endpoint: "http://localhost:1234/v1", Err: fetchErr, Probed: true, ProbeAnswered: true},
			CORS, "LM Studio", []string{"Enable CORS"}},
		{"llama.cpp refusing", Facts{PageOrigin: "http://127.0.0.1:8000", Endpoint: "http://127.0.0.1:8080/v1", Err: fetchErr, Probed: true, ProbeAnswered: true},
			CORS, "llama.cpp", []string{"llama-server", "CORS"}},
		{"unknown server refusing lists every fix", Facts{PageOrigin: "http://127.0.0.1:8000", Endpoint: "http://127.0.0.1:9999/v1", Err: fetchErr, Probed: true, ProbeAnswered: true},
			CORS, "", []string{"OLLAMA_ORIGINS=http://127.0.0.1:8000", "Enable CORS", "llama-server"}},
		{"nothing listening", Facts{PageOrigin: "http://127.0.0.1:8000", Endpoint: "http://127.0.0.1:11434/v1", Err: fetchErr, Probed: true},
			Network, "Ollama", []string{"Nothing answered", "ollama serve"}},
		{"https page, http endpoint elsewhere", Facts{PageOrigin: "https://docs.example.test", Endpoint: "http://gpu.lan:11434/v1", Err: fetchErr},
			MixedContent, "Ollama", []string{"mixed content", "https"}},
		{"https page, http endpoint on this computer is no mixed content", Facts{PageOrigin: "https://docs.example.test", Endpoint: "http://127.0.0.1:11434/v1", Err: fetchErr, Probed: true, ProbeAnswered: true},
			CORS, "Ollama", []string{"OLLAMA_ORIGINS=https://docs.example.test"}},
		{"not probed says both possibilities", Facts{PageOrigin: "http://a.test", Endpoint: "http://127.0.0.1:5000/v1", Err: fetchErr},
			Unknown, "", []string{"nothing answers there", "CORS"}},
		{"missing key", Facts{PageOrigin: "https://a.test", Endpoint: "https://api.example.test/v1", Err: &llm.HTTPError{Endpoint: "x", Status: 401}},
			Auth, "", []string{"API key", "Settings"}},
		{"other HTTP errors pass through", Facts{PageOrigin: "https://a.test", Endpoint: "https://api.example.test/v1", Err: &llm.HTTPError{Endpoint: "x", Status: 500, Message: "boom"}},
			Unknown, "", []string{"boom"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Diagnose(c.f)
			if d.Kind != c.kind || d.Server != c.server {
				t.Fatalf("kind %d server %q, want %d %q: %s", d.Kind, d.Server, c.kind, c.server, d)
			}
			for _, s := range c.says {
				if !strings.Contains(d.String(), s) {
					t.Errorf("explanation lacks %q: %s", s, d)
				}
			}
			if strings.Contains(d.String(), "TypeError") {
				t.Errorf("explanation shows the raw fetch error: %s", d)
			}
		})
	}
}

func TestNeedsProbe(t *testing.T) {
	cases := []struct {
		page, ep string
		err      error
		want     bool
	}{
		{"http://a.test", "http://127.0.0.1:11434/v1", fetchErr, true},
		{"https://a.test", "http://gpu.lan:11434/v1", fetchErr, false}, // mixed content says it already
		{"http://a.test", "http://127.0.0.1:11434/v1", &llm.HTTPError{Status: 404}, false},
		{"http://a.test", "http://127.0.0.1:11434/v1", fmt.Errorf("wrapped: %w", &llm.StreamError{}), false},
		{"http://a.test", "http://127.0.0.1:11434/v1", nil, false},
	}
	for _, c := range cases {
		if got := NeedsProbe(c.page, c.ep, c.err); got != c.want {
			t.Errorf("NeedsProbe(%s, %s, %v) = %t", c.page, c.ep, c.err, got)
		}
	}
}
