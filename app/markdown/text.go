package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// ToText returns Markdown src as plain text for the clipboard: markup is
// dropped, list markers, code and table cells (tab-separated, so they paste
// into a spreadsheet) are kept, and a link keeps its URL in parentheses
// after its text. Raw HTML stays as the literal text the model wrote. For an
// answer with tool blocks, pass it through StripToolBlocks first.
func ToText(src string) string {
	source := []byte(src)
	doc := converter(Options{}).Parser().Parse(text.NewReader(source))
	return strings.TrimRight(blocksText(doc, source, "\n\n"), "\n")
}

// blocksText joins the plain text of n's block children with sep.
func blocksText(n ast.Node, source []byte, sep string) string {
	var parts []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t := blockText(c, source); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, sep)
}

// blockText returns the plain text of one block node.
func blockText(n ast.Node, source []byte) string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		return inlineText(n, source)
	case *ast.ThematicBreak:
		return "---"
	case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			line := lines.At(i)
			b.Write(line.Value(source))
		}
		if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
			b.Write(h.ClosureLine.Value(source))
		}
		return strings.TrimRight(b.String(), "\n")
	case *ast.Blockquote:
		return prefixLines(blocksText(n, source, "\n\n"), "> ", "> ")
	case *ast.List:
		var items []string
		num := n.Start
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			marker := "- "
			if n.IsOrdered() {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			sep := "\n"
			if !n.IsTight {
				sep = "\n\n"
			}
			body := blocksText(c, source, sep)
			items = append(items, prefixLines(body, marker, strings.Repeat(" ", len(marker))))
		}
		return strings.Join(items, "\n")
	case *east.Table:
		var rows []string
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []string
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, inlineText(c, source))
			}
			rows = append(rows, strings.Join(cells, "\t"))
		}
		return strings.Join(rows, "\n")
	}
	return blocksText(n, source, "\n\n")
}

// inlineText returns the plain text of n's inline children.
func inlineText(n ast.Node, source []byte) string {
	var b strings.Builder
	writeText(&b, n, source)
	return strings.TrimRight(b.String(), "\n")
}

func writeText(b *strings.Builder, n ast.Node, source []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(unescapeText(t.Segment.Value(source), t.IsRaw()))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(unescapeText(t.Value, t.IsRaw() || t.IsCode()))
		case *ast.AutoLink:
			b.Write(t.Label(source))
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				b.Write(seg.Value(source))
			}
		case *east.TaskCheckBox:
			if t.IsChecked {
				b.WriteString("[x] ")
			} else {
				b.WriteString("[ ] ")
			}
		case *ast.Link:
			writeWithURL(b, c, source, string(t.Destination))
		case *ast.Image:
			writeWithURL(b, c, source, string(t.Destination))
		default:
			writeText(b, c, source)
		}
	}
}

// writeWithURL writes a link's text and, when it says something the text
// does not, its destination.
func writeWithURL(b *strings.Builder, n ast.Node, source []byte, dest string) {
	var label strings.Builder
	writeText(&label, n, source)
	b.WriteString(label.String())
	if dest != "" && dest != label.String() {
		if label.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(" + dest + ")")
	}
}

// prefixLines puts first before the first line of s and rest before the
// others, leaving empty lines empty.
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" && i > 0 {
			lines[i] = strings.TrimRight(p, " ")
			continue
		}
		lines[i] = p + l
	}
	return strings.Join(lines, "\n")
}
