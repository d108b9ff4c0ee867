package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRun_AFailingCommandExitsNonZeroAndSaysWhy(t *testing.T) {
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"message":"overloaded"}}`))
	}))
	defer llm.Close()
	var stdout, stderr strings.Builder
	code := run([]string{"ask", "--llm", llm.URL + "/v1", "--model", "m", "hi"}, &stdout, &stderr, func(string) string { return "" })
	msg := stderr.String()
	if code == 0 || !strings.Contains(msg, "tinyrag ask: ") || !strings.Contains(msg, "overloaded") || !strings.Contains(msg, llm.URL) {
		t.Fatalf("exit %d, stderr %q", code, msg)
	}
}

func TestRun_UnknownCommandIsUsageErrorAndHelpListsTheCommands(t *testing.T) {
	var stderr strings.Builder
	if code := run([]string{"frobnicate"}, &strings.Builder{}, &stderr, func(string) string { return "" }); code != 2 || !strings.Contains(stderr.String(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"help"}, &strings.Builder{}, &stderr, func(string) string { return "" }); code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, c := range commands {
		if listed := strings.Contains(stderr.String(), "  "+c.name+" "); listed != (c.summary != "") {
			t.Errorf("help lists %s: %v, want %v", c.name, listed, c.summary != "")
		}
	}
}
