// Package route is the deterministic router of the answer loop: from the
// question alone (no model call) it decides whether to answer directly, from
// the knowledge base, or with tools, and says why. Being deterministic makes
// the decision cheap, testable and explainable in the UI's debug view.
package route

import (
	"strings"
	"unicode"

	"tinyrag/app/internal/lazyregexp"
)

// Mode is the kind of answer the router chose.
type Mode string

// The three modes of the answer loop (docs/protocol.md).
const (
	Direct    Mode = "direct_answer"
	Retrieval Mode = "retrieval_answer"
	Agentic   Mode = "agentic_answer"
)

// Input is what the router looks at.
type Input struct {
	Question     string
	HasKnowledge bool     // a knowledge base with documents is available
	Tools        []string // names of the enabled tools
}

// Decision is the router's choice, shown to the user as the route event.
type Decision struct {
	Mode   Mode     `json:"mode"`
	Reason string   `json:"reason"`
	Hints  []string `json:"hints"`
}

// Retrieve reports whether the engine should fetch knowledge-base context
// before the first model call.
func (d Decision) Retrieve() bool { return d.Mode != Direct }

// toolWords maps phrases (lower case, whole words) to the tool they hint
// at. English and German, the two UI languages.
var toolWords = []struct{ phrase, tool string }{
	{"calculate", "calculate"}, {"compute", "calculate"}, {"how much is", "calculate"},
	{"square root", "calculate"}, {"sqrt", "calculate"}, {"percent", "calculate"},
	{"factorial", "calculate"}, {"berechne", "calculate"}, {"rechne", "calculate"},
	{"wikipedia", "wikipedia"},
	{"search the web", "websearch"}, {"web search", "websearch"}, {"search online", "websearch"},
	{"latest", "websearch"}, {"news", "websearch"}, {"today", "websearch"},
	{"current", "websearch"}, {"this week", "websearch"}, {"aktuell", "websearch"},
	{"neueste", "websearch"}, {"heute", "websearch"}, {"im web", "websearch"},
	{"fetch", "url_fetch"}, {"this page", "url_fetch"}, {"webpage", "url_fetch"},
	{"run this", "nanogo"}, {"execute", "nanogo"}, {"go code", "nanogo"},
	{"golang", "nanogo"}, {"go program", "nanogo"}, {"fmt.println", "nanogo"},
}

// knowledgeWords say the user means their own documents.
var knowledgeWords = []string{
	"according to", "document", "documents", "docs", "documentation", "knowledge base",
	"policy", "manual", "our", "source", "sources", "cite", "notes", "file", "files",
	"dokument", "dokumentation", "unsere", "unser", "laut",
}

// smallTalk questions need neither retrieval nor tools.
var smallTalk = map[string]bool{
	"hi": true, "hello": true, "hey": true, "thanks": true, "thank you": true,
	"good morning": true, "good evening": true, "bye": true, "ok": true,
	"hallo": true, "danke": true, "moin": true, "servus": true, "tschüss": true,
}

var (
	arithmetic = lazyregexp.New(`\(?\d[\d.]*(?:\s*(?:\*\*|[-+*/^×÷%])\s*\(?\d[\d.]*\)?)+|\d+!`)
	// Dates look like sums to the arithmetic pattern ("2026-12-02",
	// "12/02/2026"); they are blanked out before it looks.
	datePattern = lazyregexp.New(`\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b`)
	urlPattern  = lazyregexp.New(`https?://[^\s<>"']+|\bwww\.[^\s<>"']+`)
)

// Decide picks the mode. The rules, in order: hints for an enabled tool make
// it agentic; small talk is direct; an available knowledge base makes it a
// retrieval answer; anything else is direct.
func Decide(in Input) Decision {
	enabled := map[string]bool{}
	for _, t := range in.Tools {
		enabled[strings.ToLower(t)] = true
	}
	norm := " " + strings.Join(words(in.Question), " ") + " "

	var hints, toolsHinted []string
	add := func(hint, tool string) {
		if !enabled[tool] {
			return
		}
		hints = appendOnce(hints, hint)
		toolsHinted = appendOnce(toolsHinted, tool)
	}
	if m := Arithmetic(in.Question); m != "" {
		add(m, "calculate")
	}
	for _, u := range urlPattern.FindAllString(in.Question, 3) {
		add(u, "url_fetch")
	}
	for _, w := range toolWords {
		if strings.Contains(norm, " "+w.phrase+" ") {
			add(w.phrase, w.tool)
		}
	}
	if len(hints) > 0 {
		return Decision{Mode: Agentic, Reason: "the question hints at tools: " + strings.Join(toolsHinted, ", "), Hints: hints}
	}

	if smallTalk[strings.TrimSpace(norm)] {
		return Decision{Mode: Direct, Reason: "small talk", Hints: []string{strings.TrimSpace(norm)}}
	}
	if in.HasKnowledge {
		var kh []string
		for _, w := range knowledgeWords {
			if strings.Contains(norm, " "+w+" ") {
				kh = append(kh, w)
			}
		}
		reason := "a knowledge base is available"
		if len(kh) > 0 {
			reason = "the question refers to documents and a knowledge base is available"
		}
		return Decision{Mode: Retrieval, Reason: reason, Hints: nonNil(kh)}
	}
	return Decision{Mode: Direct, Reason: "no knowledge base and no tool hints", Hints: []string{}}
}

// words lower-cases s and splits it into words, keeping dots inside words
// (fmt.println) and dropping other punctuation.
func words(s string) []string {
	fs := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '_'
	})
	out := fs[:0]
	for _, f := range fs {
		// A sentence's full stop is not part of its last word.
		if f = strings.Trim(f, "._"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Arithmetic returns the first stretch of the question that looks like
// arithmetic ("3 * (17 + 5) / 2", "10!"), dates left out, or "".
func Arithmetic(question string) string {
	return strings.TrimSpace(arithmetic.FindString(datePattern.ReplaceAllString(question, " ")))
}
