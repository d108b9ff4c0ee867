package llmproxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"
)

// Well-known local OpenAI-compatible endpoints, in order of preference.
var localEndpoints = []struct{ Name, URL string }{
	{"Ollama", "http://127.0.0.1:11434/v1"},
	{"LM Studio", "http://127.0.0.1:1234/v1"},
	{"llama.cpp server", "http://127.0.0.1:8080/v1"},
}

// Candidate is one endpoint Probe may try.
type Candidate struct {
	Name string
	URL  string
}

// Candidates lists the local endpoints worth probing when tinyRAG itself
// listens on ownAddr: llama.cpp's default port 8080 is left out when that
// is our own port on loopback or on every interface — we would find
// ourselves.
func Candidates(ownAddr string) []Candidate {
	host, port, _ := net.SplitHostPort(ownAddr)
	own := port == "8080" && (host == "" || host == "localhost" || strings.HasPrefix(host, "127.") ||
		host == "::1" || host == "0.0.0.0" || host == "::")
	var out []Candidate
	for _, e := range localEndpoints {
		if own && strings.HasSuffix(e.URL, ":8080/v1") {
			continue
		}
		out = append(out, Candidate(e))
	}
	return out
}

// ErrNoneAnswered is Probe's answer when no candidate responded.
var ErrNoneAnswered = errors.New("no local LLM endpoint answered")

// Probe asks every candidate's /models at once and returns the first
// candidate, in the given order of preference, that answered 2xx within
// timeout.
func Probe(ctx context.Context, client *http.Client, cands []Candidate, timeout time.Duration) (Candidate, error) {
	if client == nil {
		client = &http.Client{}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok := make([]chan bool, len(cands))
	for i, c := range cands {
		ok[i] = make(chan bool, 1)
		go func(c Candidate, res chan<- bool) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.URL, "/")+"/models", nil)
			if err != nil {
				res <- false
				return
			}
			resp, err := client.Do(req)
			if err != nil {
				res <- false
				return
			}
			resp.Body.Close()
			res <- resp.StatusCode >= 200 && resp.StatusCode <= 299
		}(c, ok[i])
	}
	for i, c := range cands {
		if <-ok[i] {
			return c, nil
		}
	}
	return Candidate{}, ErrNoneAnswered
}
