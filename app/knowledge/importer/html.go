package importer

import (
	"fmt"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Readability's cost grows faster than linearly (measured: 8.7k elements
// 56 ms, 17k elements 430 ms, 35k elements 1.5 s); beyond these sizes the
// plain extraction (one linear pass, no recursion) is used instead.
const (
	maxReadabilityElements = 10_000
	maxReadabilityDepth    = 256
)

// The site owner's say in what is indexed, as Pagefind's data-pagefind-body,
// data-pagefind-ignore and data-pagefind-meta="title" give it: attributes
// in the page's own markup, so they travel with every copy of the page.
const (
	// attrBody marks the page's content: when any element carries it, the
	// text of every marked element is indexed, in document order, and
	// nothing else (readability is not asked).
	attrBody = "data-tinyrag-body"
	// attrIgnore drops an element and everything in it (navigation,
	// footers, cookie banners), with or without attrBody on the page.
	attrIgnore = "data-tinyrag-ignore"
	// attrTitle names the document's title: the attribute's value, or the
	// element's text when the value is empty. Without it the title is the
	// page's <title>.
	attrTitle = "data-tinyrag-title"
)

// convertHTML extracts the readable text of an HTML page: the elements the
// page marks with attrBody, or else the article found by readability, or
// all visible body text when readability finds none; elements marked with
// attrIgnore never count. The output never contains markup; scripts,
// styles and hidden elements are dropped.
func convertHTML(name, src string) (Document, error) {
	root, err := html.Parse(strings.NewReader(src))
	if err != nil {
		// The tree builder refuses pathological nesting (more than 512
		// open elements); the tokenizer has no such limit and still yields
		// the text, so the page is not lost (without a tree, the marking
		// attributes are not read).
		return tokenizeHTML(src), nil
	}
	info := inspectHTML(root)
	for _, n := range info.ignored {
		n.Parent.RemoveChild(n)
	}
	doc := Document{Title: info.title, Language: info.lang}
	if info.markedTitle != "" {
		doc.Title = info.markedTitle
	}

	if len(info.bodies) > 0 {
		var parts []string
		for _, n := range info.bodies {
			if t := strings.TrimSpace(renderText(n)); t != "" {
				parts = append(parts, t)
			}
		}
		if len(parts) == 0 {
			return Document{}, fmt.Errorf("%s: %w in the elements marked %s", name, ErrEmpty, attrBody)
		}
		doc.Text = strings.Join(parts, "\n\n")
		if doc.Title == "" {
			doc.Title = info.h1
		}
		return doc, nil
	}

	if info.elements <= maxReadabilityElements && info.depth <= maxReadabilityDepth {
		parser := readability.NewParser()
		article, err := parser.ParseDocument(root, nil)
		if err == nil && article.Node != nil {
			doc.Text = renderText(article.Node)
			if t := collapseSpace(article.Title()); t != "" && info.markedTitle == "" {
				doc.Title = t
			}
			if doc.Language == "" {
				doc.Language = article.Language()
			}
		}
	}
	// Readability is built for articles. On pages that are not (link
	// lists, FAQs, tables) it can keep a small fraction of the text; for a
	// knowledge base completeness beats clutter, so then take everything.
	if full := renderText(root); len(strings.TrimSpace(doc.Text))*4 < len(full) {
		doc.Text = full
	}
	if doc.Title == "" {
		doc.Title = info.h1
	}
	return doc, nil
}

type htmlInfo struct {
	title, h1, lang string
	elements, depth int
	// markedTitle is the title an attrTitle element names.
	markedTitle string
	// bodies are the outermost elements marked attrBody, in document
	// order; ignored are the outermost marked attrIgnore. Nothing inside
	// an ignored element is read.
	bodies, ignored []*html.Node
}

// inspectHTML reads the metadata and the site owner's marks and measures
// size and depth in one iterative pass (deeply nested hostile markup must
// not blow the stack).
func inspectHTML(root *html.Node) htmlInfo {
	var info htmlInfo
	depth, inBody := 0, 0
	walk(root, func(n *html.Node, entering bool) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if !entering {
			depth--
			if hasAttr(n, attrBody) && !hasAttr(n, attrIgnore) {
				inBody--
			}
			return true
		}
		depth++
		info.elements++
		info.depth = max(info.depth, depth)
		if hasAttr(n, attrIgnore) {
			info.ignored = append(info.ignored, n)
			return false
		}
		if hasAttr(n, attrBody) {
			if inBody == 0 {
				info.bodies = append(info.bodies, n)
			}
			inBody++
		}
		if info.markedTitle == "" && hasAttr(n, attrTitle) {
			info.markedTitle = collapseSpace(attr(n, attrTitle))
			if info.markedTitle == "" {
				info.markedTitle = collapseSpace(textOf(n))
			}
		}
		switch tagAtom(n) {
		case atom.Html:
			info.lang = strings.TrimSpace(attr(n, "lang"))
		case atom.Title:
			if info.title == "" {
				info.title = collapseSpace(textOf(n))
			}
		case atom.H1:
			if info.h1 == "" {
				info.h1 = collapseSpace(textOf(n))
			}
		}
		return true
	})
	return info
}

// walk visits the tree in document order without recursion. visit is called
// on entering and leaving every node; returning false on entering skips the
// node's children.
func walk(root *html.Node, visit func(n *html.Node, entering bool) bool) {
	n := root
	for n != nil {
		if visit(n, true) && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != nil {
			visit(n, false)
			if n == root {
				return
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
		}
	}
}

// hasAttr reports whether n carries the attribute key, with any value.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// textOf concatenates the text nodes under n.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node, entering bool) bool {
		if entering && c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		return true
	})
	return b.String()
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// skippedElements never hold readable text.
var skippedElements = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Canvas: true,
	atom.Audio: true, atom.Video: true, atom.Map: true,
}

// paragraphElements are separated by a blank line, lineElements by a newline.
var (
	paragraphElements = map[atom.Atom]bool{
		atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
		atom.Blockquote: true, atom.Pre: true, atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
		atom.Hr: true, atom.Figure: true, atom.Section: true, atom.Article: true,
	}
	lineElements = map[atom.Atom]bool{
		atom.Div: true, atom.Li: true, atom.Tr: true, atom.Dt: true, atom.Dd: true, atom.Header: true,
		atom.Footer: true, atom.Main: true, atom.Aside: true, atom.Nav: true, atom.Address: true,
		atom.Details: true, atom.Summary: true, atom.Form: true, atom.Fieldset: true, atom.Legend: true,
		atom.Caption: true, atom.Figcaption: true, atom.Thead: true, atom.Tbody: true, atom.Tfoot: true,
		atom.Option: true, atom.Label: true, atom.Body: true,
	}
)

// renderText writes the visible text under root: whitespace collapsed as a
// browser would, block elements on their own lines, <pre> kept verbatim,
// list items marked with "- " and table cells separated by tabs.
func renderText(root *html.Node) string {
	var w textWriter
	pre := 0
	walk(root, func(n *html.Node, entering bool) bool {
		switch n.Type {
		case html.TextNode:
			if entering {
				if pre > 0 {
					w.writePre(n.Data)
				} else {
					w.writeCollapsed(n.Data)
				}
			}
			return true
		case html.ElementNode:
		default:
			return true
		}
		a := tagAtom(n)
		if skippedElements[a] || isHidden(n) {
			return false
		}
		w.element(a, entering, attr(n, "alt"))
		if a == atom.Pre {
			if entering {
				pre++
			} else {
				pre--
			}
		}
		return true
	})
	return w.b.String()
}

// tagAtom looks the tag up by name: readability renames elements (div to
// p) without updating DataAtom, so the atom field cannot be trusted.
func tagAtom(n *html.Node) atom.Atom {
	return atom.Lookup([]byte(n.Data))
}

// element writes the separators an element implies on entering or leaving
// it; alt is an image's alternative text.
func (w *textWriter) element(a atom.Atom, entering bool, alt string) {
	switch {
	case a == atom.Br:
		if entering {
			w.newline(1)
		}
	case a == atom.Td || a == atom.Th:
		if entering {
			w.cell()
		}
	case paragraphElements[a]:
		w.newline(2)
	case lineElements[a]:
		w.newline(1)
	}
	if entering && a == atom.Li {
		w.writeWord("- ")
	}
	if entering && a == atom.Img {
		if alt = collapseSpace(alt); alt != "" {
			w.writeCollapsed(alt)
		}
	}
}

// tokenizeHTML extracts text, title and language with the streaming
// tokenizer, for documents the tree builder refuses. Without a tree there
// is no readability pass and hidden-element detection is by tag only.
func tokenizeHTML(src string) Document {
	var doc Document
	var w textWriter
	z := html.NewTokenizer(strings.NewReader(src))
	skip := atom.Atom(0) // the skipped element we are inside
	skipDepth, pre := 0, 0
	inTitle := false
	var title strings.Builder
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		a := atom.Lookup([]byte(tok.Data))
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if skip != 0 {
				if a == skip && tt == html.StartTagToken {
					skipDepth++
				}
				continue
			}
			if a == atom.Html {
				doc.Language = strings.TrimSpace(tokenAttr(tok, "lang"))
			}
			if a == atom.Title && tt == html.StartTagToken {
				inTitle = true
				continue
			}
			// <head> holds the title; its other children are void or skipped.
			if skippedElements[a] && a != atom.Head && tt == html.StartTagToken {
				skip, skipDepth = a, 1
				continue
			}
			w.element(a, true, tokenAttr(tok, "alt"))
			if a == atom.Pre && tt == html.StartTagToken {
				pre++
			}
		case html.EndTagToken:
			if skip != 0 {
				if a == skip {
					if skipDepth--; skipDepth == 0 {
						skip = 0
					}
				}
				continue
			}
			if a == atom.Title {
				inTitle = false
				continue
			}
			w.element(a, false, "")
			if a == atom.Pre && pre > 0 {
				pre--
			}
		case html.TextToken:
			switch {
			case skip != 0:
			case inTitle:
				title.WriteString(tok.Data)
			case pre > 0:
				w.writePre(tok.Data)
			default:
				w.writeCollapsed(tok.Data)
			}
		}
	}
	doc.Title = collapseSpace(title.String())
	doc.Text = w.b.String()
	return doc
}

func tokenAttr(tok html.Token, key string) string {
	for _, a := range tok.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// isHidden reports elements the author hid from readers.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			s := strings.ToLower(strings.ReplaceAll(a.Val, " ", ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		}
	}
	return false
}

// textWriter joins words with single spaces and blocks with at most one
// blank line, deferring separators until the next word so none trail.
type textWriter struct {
	b        strings.Builder
	space    bool
	newlines int
	tab      bool
}

func (w *textWriter) newline(n int) { w.newlines = max(w.newlines, n) }
func (w *textWriter) cell()         { w.tab = true }

func (w *textWriter) flush() {
	if w.b.Len() == 0 {
		w.newlines, w.space, w.tab = 0, false, false
		return
	}
	switch {
	case w.newlines > 0:
		w.b.WriteString("\n\n"[:min(w.newlines, 2)])
	case w.tab:
		w.b.WriteByte('\t')
	case w.space && !strings.HasSuffix(w.b.String(), " "):
		w.b.WriteByte(' ')
	}
	w.newlines, w.space, w.tab = 0, false, false
}

func (w *textWriter) writeWord(s string) {
	w.flush()
	w.b.WriteString(s)
}

func (w *textWriter) writeCollapsed(s string) {
	start := -1
	for i, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			if start >= 0 {
				w.writeWord(s[start:i])
				start = -1
			}
			w.space = true
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		w.writeWord(s[start:])
	}
}

func (w *textWriter) writePre(s string) {
	if s == "" {
		return
	}
	w.flush()
	w.b.WriteString(normalizeNewlines(s))
}
