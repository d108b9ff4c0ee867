package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"tinyrag/app/icons"
	"tinyrag/app/internal/lazyregexp"
)

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

// maxBlockBytes is the protocol's limit on one XML tool block.
const maxBlockBytes = 16 << 10

// previewRunes bounds the one-line input preview on a card.
const previewRunes = 80

// iconSlot is the card's empty icon span, filled in after sanitizing.
const iconSlot = `<span class="tool-icon"></span>`

// statusBadges maps each card status to its badge.
var statusBadges = map[string]string{
	"running": "⟳",
	"done":    "✓",
	"error":   "✗",
	"skipped": "⊘",
}

// RenderAnswer renders a streamed answer: the byte ranges of text named by
// cards become tool cards, and the Markdown between them is rendered (each
// piece on its own, since cards are block elements). The result is
// sanitized and has one root element, <div class="md">. It is cheap enough
// to call again for every streamed token.
func RenderAnswer(text string, cards []Card, opts Options) string {
	l := labelsFor(opts.Lang)
	valid := validCards(text, cards)
	// One allocation for the output: Markdown roughly triples in HTML, and
	// card text is escaped (grows a little) inside ~300 bytes of markup.
	size := 3*len(text) + 64
	for _, c := range valid {
		size += 2*(len(c.Input)+len(c.Result)+len(c.Error)) + 384
	}
	var out strings.Builder
	out.Grow(size)
	out.WriteString(`<div class="md">`)
	pos := 0
	for _, c := range valid {
		renderMarkdown(&out, text[pos:c.Start], opts, true)
		out.WriteString(renderCard(c, l, opts.Expanded[c.ID]))
		pos = c.End
	}
	rest := text[pos:]
	var open *Card
	if opts.Streaming {
		rest, open = splitOpenBlock(rest)
	}
	renderMarkdown(&out, rest, opts, false)
	if open != nil {
		out.WriteString(renderCard(*open, l, false))
	}
	out.WriteString(`</div>`)
	if len(opts.CiteLinks) > 0 {
		target := "_blank"
		if opts.CiteTarget == "_top" {
			target = "_top"
		}
		return linkCitations(out.String(), opts.CiteLinks, target)
	}
	return out.String()
}

// StripToolBlocks returns text without the byte ranges of the valid cards
// (see Card for what is valid), closing up the blank lines a removed block
// leaves behind. This is the answer as a reader should see it when copied.
func StripToolBlocks(text string, cards []Card) string {
	valid := validCards(text, cards)
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

// CheckCards explains which cards RenderAnswer and StripToolBlocks would
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

// validCards returns the cards that can be placed safely, in text order.
// The caller's slice is not modified.
func validCards(text string, cards []Card) []Card {
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

// renderCard returns the sanitized HTML of a card, remembering it: cards
// change only when their tool makes progress, not with every token.
func renderCard(c Card, l labels, expanded bool) string {
	c.Start, c.End = 0, 0
	key := cardKey{card: c, lang: l.lang, expanded: expanded}
	if v, ok := cardCache.get(key); ok {
		return v
	}
	var buf bytes.Buffer
	writeCard(&buf, c, l, expanded)
	// The icon is the app's own constant SVG (app/icons), put in after
	// sanitizing: the policy admits no SVG, and none from the model.
	v := strings.Replace(policy().Sanitize(buf.String()), iconSlot,
		`<span class="tool-icon">`+icons.Tool(toolAttr(strings.TrimSpace(c.Tool)))+`</span>`, 1)
	cardCache.put(key, v)
	return v
}

// writeCard writes one tool card in the markup of the protocol contract
// ("Frontend Rendering"). Every value from the model or a tool is escaped.
func writeCard(buf *bytes.Buffer, c Card, l labels, expanded bool) {
	status := strings.ToLower(strings.TrimSpace(c.Status))
	if _, ok := statusBadges[status]; !ok {
		status = "running"
	}
	name := strings.TrimSpace(c.Tool)
	attrName := toolAttr(name)
	preview, truncated := previewOf(c.Input)

	buf.WriteString(`<div class="xml-tool-card" data-tool="`)
	buf.WriteString(attrName)
	buf.WriteString(`" data-status="`)
	buf.WriteString(status)
	buf.WriteByte('"')
	if callIDRe.MatchString(c.ID) {
		buf.WriteString(` data-call-id="`)
		buf.WriteString(c.ID)
		buf.WriteByte('"')
	}
	buf.WriteString(`>`)
	buf.WriteString(iconSlot)
	buf.WriteString(` <strong>`)
	writeEscaped(buf, truncateRunes(name, 64))
	buf.WriteString(`</strong> <span class="tool-query">`)
	writeEscaped(buf, preview)
	buf.WriteString(`</span> <span class="tool-status-badge" title="`)
	buf.WriteString(l.status[status])
	buf.WriteString(`">`)
	buf.WriteString(statusBadges[status])
	buf.WriteString(`</span>`)

	if truncated || c.Result != "" || c.Error != "" {
		summary := l.result
		switch status {
		case "error":
			summary = l.errorSummary
		case "skipped":
			summary = l.skipped
		}
		if expanded {
			buf.WriteString(`<details open=""><summary>`)
		} else {
			buf.WriteString(`<details><summary>`)
		}
		buf.WriteString(summary)
		buf.WriteString(`</summary>`)
		if truncated {
			writePre(buf, "tool-input", c.Input)
		}
		if c.Error != "" {
			writePre(buf, "tool-error", c.Error)
		}
		if c.Result != "" {
			writePre(buf, "tool-result", c.Result)
		}
		buf.WriteString(`</details>`)
	}
	buf.WriteString("</div>\n")
}

func writePre(buf *bytes.Buffer, class, text string) {
	buf.WriteString(`<pre class="`)
	buf.WriteString(class)
	buf.WriteString(`">`)
	writeEscaped(buf, text)
	buf.WriteString(`</pre>`)
}

// toolAttr turns a tool name into the value of data-tool: the UI and CSS
// select on it, so it is reduced to lower-case [a-z0-9_-] instead of being
// trusted to stay inside its quotes.
func toolAttr(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if b.Len() == 64 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}

// previewOf folds an input onto one line and shortens it for the card face;
// truncated says whether the full input needs showing elsewhere.
func previewOf(input string) (preview string, truncated bool) {
	oneLine := strings.Join(strings.Fields(input), " ")
	preview = truncateRunes(oneLine, previewRunes)
	return preview, preview != oneLine || oneLine != strings.TrimSpace(input)
}

// truncateRunes cuts s to at most n runes, marking the cut with "…".
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return s[:i] + "…"
}

// openNameRe and openInputRe pick the tool name and the input so far out
// of a block that has started streaming but not yet closed.
var (
	openNameRe  = lazyregexp.New(`^<tool\s+name\s*=\s*"([^"]*)"`)
	openInputRe = lazyregexp.New(`<(?:query|url|source)>([^<]*)`)
)

// splitOpenBlock separates a trailing tool block that has begun ("<tool "
// seen, per the protocol's detection threshold) but not closed, and a
// trailing prefix of "<tool " that may become one with the next token.
// The open block comes back as a running card; the prefix is hidden. A
// "block" longer than the protocol allows is no block: it stays visible.
func splitOpenBlock(rest string) (string, *Card) {
	if i := strings.LastIndex(rest, "<tool "); i >= 0 && len(rest)-i <= maxBlockBytes && !strings.Contains(rest[i:], "</tool>") {
		block := rest[i:]
		c := &Card{Status: "running"}
		if m := openNameRe.FindStringSubmatch(block); m != nil {
			c.Tool = m[1]
		}
		if m := openInputRe.FindStringSubmatch(block); m != nil {
			c.Input = m[1]
		}
		return rest[:i], c
	}
	for n := len("<tool ") - 1; n > 0; n-- {
		if strings.HasSuffix(rest, "<tool "[:n]) {
			return rest[:len(rest)-n], nil
		}
	}
	return rest, nil
}
