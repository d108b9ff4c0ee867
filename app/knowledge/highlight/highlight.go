// Package highlight marks in a hit's text the words a query matched:
// the query's terms (as the index analyses them, stemmed, stop words out,
// or what a query typed so far stands for) found again in the text, and
// short excerpts around them.
package highlight

import (
	"context"
	"html"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"

	"tinyrag/app/knowledge/rank"
)

const (
	maxFragments = 3
	fragmentLen  = 200
)

// QueryTerms analyses a query with the index's analyzer, so highlighting
// matches exactly the words the search matched (stemmed, stop words out).
func QueryTerms(an analysis.Analyzer, q string) map[string]bool {
	terms := map[string]bool{}
	for _, t := range an.Analyze([]byte(q)) {
		terms[string(t.Term)] = true
	}
	return terms
}

// AsYouTypeTerms are the terms a query typed so far stands for (see
// rank.Ranker.AsYouType), as a set for highlighting.
func AsYouTypeTerms(ctx context.Context, r *rank.Ranker, dict rank.Dictionary, q string) (map[string]bool, error) {
	list, err := r.AsYouType(ctx, dict, q)
	terms := map[string]bool{}
	for _, t := range list {
		terms[t] = true
	}
	return terms, err
}

// Fragments cuts up to three excerpts of text around the words that
// analyse to one of terms, HTML-escaped, with the matches wrapped in
// <mark>. Each excerpt starts and ends at a word boundary.
func Fragments(an analysis.Analyzer, text string, terms map[string]bool) []string {
	if len(terms) == 0 {
		return nil
	}
	type span struct{ start, end int }
	var marks []span
	for _, t := range an.Analyze([]byte(text)) {
		if terms[string(t.Term)] {
			marks = append(marks, span{t.Start, t.End})
		}
	}
	var out []string
	for i := 0; i < len(marks) && len(out) < maxFragments; {
		from := wordStart(text, marks[i].start-fragmentLen/4)
		to := wordEnd(text, from+fragmentLen)
		var b strings.Builder
		if from > 0 {
			b.WriteString("…")
		}
		pos := from
		for ; i < len(marks) && marks[i].end <= to; i++ {
			if marks[i].start < pos {
				continue
			}
			b.WriteString(html.EscapeString(text[pos:marks[i].start]))
			b.WriteString("<mark>")
			b.WriteString(html.EscapeString(text[marks[i].start:marks[i].end]))
			b.WriteString("</mark>")
			pos = marks[i].end
		}
		b.WriteString(html.EscapeString(text[pos:to]))
		if to < len(text) {
			b.WriteString("…")
		}
		out = append(out, strings.TrimSpace(b.String()))
		// A mark straddling the end begins the next fragment.
		for i < len(marks) && marks[i].start < to {
			i++
		}
	}
	return out
}

// wordStart moves i back to the start of the word it is in (or 0).
func wordStart(s string, i int) int {
	if i <= 0 {
		return 0
	}
	for i > 0 && !isSpace(s[i-1]) {
		i--
	}
	return i
}

// wordEnd moves i forward to the end of the word it is in (or len(s)).
func wordEnd(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
