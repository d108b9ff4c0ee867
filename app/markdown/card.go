package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"tinyrag/app/icons"
	"tinyrag/app/internal/lazyregexp"
	"tinyrag/app/markdown/answer"
)

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
	valid := answer.Valid(text, cards)
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
