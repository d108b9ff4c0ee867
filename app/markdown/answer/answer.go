// Package answer is what the page and the Markdown renderer share about
// an answer: the tool cards placed over its text, which of them can be
// placed, how it is to be rendered (Options), and its text without the
// tool blocks. It imports no Markdown library, so app.wasm uses it while
// the renderer itself (app/markdown) lives in markdown.wasm, loaded on
// first use (app/markdown/mdmodule).
package answer

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Options tune how an answer is rendered.
type Options struct {
	// AllowRun adds a Run button to ```go code blocks (only when the nanoGo
	// tool is enabled, so the button never promises what cannot happen).
	AllowRun bool
	// Lang picks the language of labels: "en" (default) or "de".
	Lang string
	// Streaming says the answer is still arriving. A trailing tool block that
	// has begun but not closed is then shown as a running card instead of
	// flickering raw XML; once the stream is over the text is shown as written.
	Streaming bool
	// Expanded lists the call ids whose card details are open. Each token
	// replaces the answer's HTML, so the UI keeps the user's open/closed
	// choice here (from the details' toggle event) for it to survive.
	Expanded map[string]bool
	// CiteLinks are where the answer's citation marks lead: CiteLinks[n-1]
	// is the passage "[n]" cites ("" leaves that mark as text). They are
	// the app's own links to its sources, never the model's.
	CiteLinks []string
	// CiteTarget is the citation links' target: "_top" (an embedded view
	// opens the page in the window around it) or "_blank" (the default).
	CiteTarget string
}

// Card places a tool block's live status card over the raw XML of that block
// in the answer text.
type Card struct {
	// Start and End are the byte range [Start,End) of the tool block in the
	// answer text. Ranges that are empty, out of bounds, split a UTF-8
	// character or overlap an earlier card are ignored: the text they cover is
	// then shown as written (escaped), so nothing is lost or executed.
	Start, End int
	// ID is the engine's call id, used by the UI to find the card again. It is
	// emitted as data-call-id only if it is 1–128 of [A-Za-z0-9_.:-].
	ID string
	// Tool is the tool name, e.g. "rag_knowledge".
	Tool string
	// Input is the query, URL or source the tool was called with.
	Input string
	// Status is "running", "done", "error" or "skipped"; anything else
	// (including empty, before tool_start arrived) shows as running.
	Status string
	// Result is the tool's output, shown when the card is expanded.
	Result string
	// Error is the error message or skip reason.
	Error string
}

// StripToolBlocks returns text without the byte ranges of the valid cards
// (see Card for what is valid), closing up the blank lines a removed block
// leaves behind. This is the answer as a reader should see it when copied.
func StripToolBlocks(text string, cards []Card) string {
	valid := Valid(text, cards)
	if len(valid) == 0 {
		return text
	}
	out := make([]byte, 0, len(text))
	pos := 0
	for _, c := range valid {
		out = append(out, text[pos:c.Start]...)
		right := text[c.End:]
		out = joinCut(out, right)
		pos = c.End
		if len(out) > 0 && out[len(out)-1] != '\n' {
			continue
		}
		// The block stood on its own lines: close the gap to at most one
		// blank line, and to none at the very start.
		k, skip := blankLines(right)
		if k == 0 {
			continue
		}
		have := len(out) - len(bytes.TrimRight(out, "\n"))
		want := min(have+k, 2)
		if len(out) == 0 {
			want = 0
		}
		for i := have; i < want; i++ {
			out = append(out, '\n')
		}
		pos += skip
	}
	out = append(out, text[pos:]...)
	return string(out)
}

// joinCut tidies the left side of a cut: spaces before a removed block are
// dropped when whitespace or the end follows anyway.
func joinCut(out []byte, right string) []byte {
	if right == "" || strings.ContainsRune(" \t\r\n", rune(right[0])) {
		out = bytes.TrimRight(out, " \t")
	}
	return out
}

// blankLines counts the whitespace-only lines at the start of s and the bytes
// they take; the indentation of the first non-blank line is left alone
// because Markdown gives it meaning.
func blankLines(s string) (lines, size int) {
	for {
		line := strings.TrimLeft(s[size:], " \t\r")
		if !strings.HasPrefix(line, "\n") {
			return lines, size
		}
		lines++
		size = len(s) - len(line) + 1
	}
}

// CheckCards explains which cards the renderer and StripToolBlocks would
// ignore and why, so the caller can log a bug in its card bookkeeping. It
// returns nil when every card is placed.
func CheckCards(text string, cards []Card) error {
	var errs []error
	forEachCard(text, cards, func(c Card, problem string) {
		if problem != "" {
			errs = append(errs, fmt.Errorf("markdown: card %q (%s) at [%d,%d) ignored: %s", c.ID, c.Tool, c.Start, c.End, problem))
		}
	})
	return errors.Join(errs...)
}

// Valid returns the cards that can be placed safely, in text order.
// The caller's slice is not modified.
func Valid(text string, cards []Card) []Card {
	if len(cards) == 0 {
		return nil
	}
	valid := make([]Card, 0, len(cards))
	forEachCard(text, cards, func(c Card, problem string) {
		if problem == "" {
			valid = append(valid, c)
		}
	})
	return valid
}

// forEachCard visits the cards in text order with the reason each one cannot
// be placed, or "" if it can. A card loses to an earlier one it overlaps.
func forEachCard(text string, cards []Card, visit func(c Card, problem string)) {
	order := make([]int, len(cards))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return cards[order[i]].Start < cards[order[j]].Start })
	end := 0
	for _, i := range order {
		c := cards[i]
		switch {
		case c.Start < 0 || c.End > len(text):
			visit(c, fmt.Sprintf("range is outside the text (%d bytes)", len(text)))
		case c.Start >= c.End:
			visit(c, "range is empty or reversed")
		case c.Start < end:
			visit(c, fmt.Sprintf("range overlaps an earlier card ending at %d", end))
		case !utf8.RuneStart(text[c.Start]) || (c.End < len(text) && !utf8.RuneStart(text[c.End])):
			visit(c, "range splits a UTF-8 character")
		default:
			visit(c, "")
			end = c.End
		}
	}
}
