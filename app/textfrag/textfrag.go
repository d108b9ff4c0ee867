// Package textfrag builds text fragments: the "#:~:text=…" part of a URL
// that makes a browser scroll to a passage of a page and highlight it
// (Chromium, Safari, Firefox). A citation of a site's page then opens the
// page at the words the answer drew on, not at its top.
//
// A passage is a chunk of the page's text as the importer read it, and
// the page shows it with markup: list markers, emphasis, links, blocks on
// lines of their own. A text directive only matches words that stand
// together in the page's rendered text, inside one block, so the terms are
// chosen to survive the markup: runs of plain words within one line and
// one sentence of the passage, never a list marker, a punctuation-only
// token or a word with Markdown or HTML characters in it. A long passage
// is named by its first and last words (textStart,textEnd), which the
// browser highlights with everything between them.
package textfrag

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// minRun is how many words a term wants: fewer match too much of a
	// page (a title, a word in the navigation).
	minRun = 4
	// termWords is how many words a start or end term has.
	termWords = 5
	// maxExact is the longest run matched whole rather than by its ends.
	maxExact = 10
)

// Directive returns the text directive for passage (":~:text=…", to follow
// a "#"), or "" when the passage has no words fit for one.
func Directive(passage string) string {
	rs := runs(passage)
	first, last := -1, -1
	for i, r := range rs {
		if len(r) >= minRun {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		// A short passage (a title, a list of terms): its longest run of
		// at least two words, if it has one.
		for i, r := range rs {
			if len(r) >= 2 && (first < 0 || len(r) > len(rs[first])) {
				first = i
			}
		}
		if first < 0 {
			return ""
		}
		last = first
	}
	start, end := rs[first], rs[last]
	if first == last {
		if len(start) <= maxExact {
			return ":~:text=" + encode(start)
		}
		return ":~:text=" + encode(start[:termWords]) + "," + encode(start[len(start)-termWords:])
	}
	return ":~:text=" + encode(start[:min(termWords, len(start))]) + "," + encode(end[len(end)-min(termWords, len(end)):])
}

// Link returns pageURL opening at passage: its fragment replaced by the
// passage's text directive. Without a directive, or when pageURL is no
// URL, pageURL comes back as it is.
func Link(pageURL, passage string) string {
	d := Directive(passage)
	if d == "" || pageURL == "" {
		return pageURL
	}
	if _, err := url.Parse(pageURL); err != nil {
		return pageURL
	}
	if i := strings.IndexByte(pageURL, '#'); i >= 0 {
		pageURL = pageURL[:i]
	}
	return pageURL + "#" + d
}

// runs cuts the passage into runs of plain words: a line break, the end
// of a sentence or a word unfit for a term ends a run.
func runs(passage string) [][]string {
	var out [][]string
	for _, line := range strings.Split(passage, "\n") {
		var run []string
		flush := func() {
			if len(run) > 0 {
				out = append(out, run)
				run = nil
			}
		}
		for _, w := range strings.Fields(line) {
			if !plain(w) {
				flush()
				continue
			}
			run = append(run, w)
			if endsSentence(w) {
				flush()
			}
		}
		flush()
	}
	return out
}

// plain reports whether w can stand in a term: it has a letter or digit,
// is no list marker ("1.", "2)") and carries no character that markup
// would not show as it is (Markdown's emphasis, code and link marks, HTML
// brackets, table bars, heading marks).
func plain(w string) bool {
	if strings.ContainsAny(w, "*_`[]<>|#{}\\=^~") {
		return false
	}
	if listMarker(w) {
		return false
	}
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// listMarker reports an ordered list's marker: digits and "." or ")".
func listMarker(w string) bool {
	if len(w) < 2 || (w[len(w)-1] != '.' && w[len(w)-1] != ')') {
		return false
	}
	for _, r := range w[:len(w)-1] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// endsSentence reports whether w ends a sentence: ".", "!" or "?", maybe
// followed by a closing quote or bracket.
func endsSentence(w string) bool {
	w = strings.TrimRightFunc(w, func(r rune) bool { return strings.ContainsRune(`"')»”’`, r) })
	r, _ := utf8.DecodeLastRuneInString(w)
	return r == '.' || r == '!' || r == '?'
}

// encode joins words with spaces, percent-encoded as the text directive
// demands: everything but ASCII letters, digits and ". _ ~" — "-", "&"
// and "," in particular, which the directive's syntax uses.
func encode(words []string) string {
	s := strings.Join(words, " ")
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
