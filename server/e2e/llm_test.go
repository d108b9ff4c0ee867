package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// step is one streamed piece of a scripted reply, sent after Delay.
type step struct {
	Text     string
	Thinking string
	Delay    time.Duration
}

// scriptedLLM is an OpenAI-compatible chat server on loopback that replies
// from a script: the reply is picked by the marker (e.g. "[calc]") in the
// question, and by the round — how many assistant messages follow that
// question (0 for the first reply, 1 after one round of tool results).
type scriptedLLM struct {
	*httptest.Server
	scripts map[string][][]step // marker → rounds → steps

	mu       sync.Mutex
	requests []string // marker/round of each chat request, in order
	aborted  int      // streams the client cancelled
}

func newScriptedLLM(t testing.TB, scripts map[string][][]step) *scriptedLLM {
	t.Helper()
	s := &scriptedLLM{scripts: scripts}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"scripted-small"},{"id":"scripted-large"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	// A page that takes a while, for a url_fetch that is visibly running.
	mux.HandleFunc("GET /slow-page", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Slow page</title></head><body><p>The slow page says hello to everyone who waits.</p></body></html>")
	})
	s.Server = httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(s.Close)
	return s
}

// BaseURL is what tinyrag's --llm-url takes.
func (s *scriptedLLM) BaseURL() string { return s.URL + "/v1" }

func (s *scriptedLLM) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *scriptedLLM) Aborted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.aborted
}

func (s *scriptedLLM) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	marker, round := "", 0
	for _, m := range req.Messages {
		switch {
		case m.Role == "assistant":
			round++
		case m.Role == "user" && !strings.Contains(m.Content, "BEGIN UNTRUSTED"):
			// A new question (evidence packets are user messages too):
			// its marker, if any, picks the script from round 0.
			marker, round = "", 0
			for k := range s.scripts {
				if k != "" && strings.Contains(m.Content, k) {
					marker = k
				}
			}
		}
	}
	rounds, ok := s.scripts[marker]
	if !ok {
		rounds = s.scripts[""]
	}
	s.mu.Lock()
	s.requests = append(s.requests, fmt.Sprintf("%s/%d", marker, round))
	s.mu.Unlock()
	var steps []step
	if round < len(rounds) {
		steps = rounds[round]
	} else {
		steps = []step{{Text: "That is all I know."}}
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	send := func(delta map[string]string) bool {
		b, _ := json.Marshal(map[string]any{
			"id": "scripted", "object": "chat.completion.chunk", "model": "scripted-small",
			"choices": []any{map[string]any{"index": 0, "delta": delta}},
		})
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	for _, st := range steps {
		if st.Delay > 0 {
			select {
			case <-time.After(st.Delay):
			case <-r.Context().Done():
				s.mu.Lock()
				s.aborted++
				s.mu.Unlock()
				return
			}
		}
		d := map[string]string{}
		if st.Text != "" {
			// {self} is this server's address, for pages it serves.
			d["content"] = strings.ReplaceAll(st.Text, "{self}", "http://"+r.Host)
		}
		if st.Thinking != "" {
			d["reasoning_content"] = st.Thinking
		}
		if !send(d) {
			return
		}
	}
	fmt.Fprint(w, "data: {\"id\":\"scripted\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// words streams text a few characters at a time with a small delay, the
// way a model types.
func words(text string, every time.Duration) []step {
	var out []step
	r := []rune(text)
	for len(r) > 0 {
		n := min(6, len(r))
		out = append(out, step{Text: string(r[:n]), Delay: every})
		r = r[n:]
	}
	return out
}
