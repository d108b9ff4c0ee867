package markdown

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"tinyrag/app/internal/lazyregexp"
)

// linkAttrs go on every link: the target is a stranger's page, so it gets no
// opener, no referrer and no ranking credit.
const linkAttrs = ` rel="noopener noreferrer nofollow" target="_blank"`

// safeRenderer replaces goldmark's renderers for the nodes where model text
// could become markup or make the browser fetch something: raw HTML, links,
// images and code blocks (which also gain their buttons here).
type safeRenderer struct {
	allowRun bool
	labels   labels
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *safeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.renderFencedCodeBlock)
	reg.Register(ast.KindCodeBlock, r.renderCodeBlock)
	reg.Register(ast.KindHTMLBlock, r.renderHTMLBlock)
	reg.Register(ast.KindRawHTML, r.renderRawHTML)
	reg.Register(ast.KindLink, r.renderLink)
	reg.Register(ast.KindAutoLink, r.renderAutoLink)
	reg.Register(ast.KindImage, r.renderImage)
	reg.Register(east.KindTaskCheckBox, r.renderTaskCheckBox)
}

// languageRe is what a code fence's language may be to become a class name;
// anything else (quotes, spaces, markup) is dropped rather than escaped so
// the class attribute stays predictable for the sanitizer and the CSS.
var languageRe = lazyregexp.New(`^[A-Za-z0-9_+#.-]{1,32}$`)

func (r *safeRenderer) renderFencedCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := ""
	if l := n.Language(source); l != nil && languageRe.Match(l) {
		lang = string(l)
	}
	r.writeCode(w, source, n, lang)
	return ast.WalkSkipChildren, nil
}

func (r *safeRenderer) renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		r.writeCode(w, source, node, "")
	}
	return ast.WalkSkipChildren, nil
}

// writeCode writes a code block with its buttons. The buttons carry no
// script: the UI finds them by class and reads the sibling <code>.
func (r *safeRenderer) writeCode(w util.BufWriter, source []byte, n ast.Node, lang string) {
	_, _ = w.WriteString(`<div class="code-block"><pre><code`)
	if lang != "" {
		_, _ = w.WriteString(` class="language-`)
		_, _ = w.WriteString(lang)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		line := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(line.Value(source)))
	}
	_, _ = w.WriteString(`</code></pre><button class="copy-code" type="button" aria-label="`)
	_, _ = w.WriteString(r.labels.copyAria)
	_, _ = w.WriteString(`">`)
	_, _ = w.WriteString(r.labels.copy)
	_, _ = w.WriteString(`</button>`)
	if r.allowRun && isGo(lang) {
		_, _ = w.WriteString(`<button class="run-code" type="button" aria-label="`)
		_, _ = w.WriteString(r.labels.runAria)
		_, _ = w.WriteString(`">`)
		_, _ = w.WriteString(r.labels.run)
		_, _ = w.WriteString(`</button>`)
	}
	_, _ = w.WriteString("</div>\n")
}

// isGo reports whether a fence language names Go, the only language the
// nanoGo sandbox can run.
func isGo(lang string) bool {
	return strings.EqualFold(lang, "go") || strings.EqualFold(lang, "golang")
}

// renderHTMLBlock shows a block of raw HTML as the text it is: the model
// may be explaining HTML, and dropping it would lose the answer.
func (r *safeRenderer) renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var text bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		line := lines.At(i)
		text.Write(line.Value(source))
	}
	if n.HasClosure() {
		text.Write(n.ClosureLine.Value(source))
	}
	_, _ = w.WriteString("<p>")
	_, _ = w.Write(util.EscapeHTML(bytes.TrimRight(text.Bytes(), "\n")))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// renderRawHTML shows inline raw HTML (a tag, a comment) as text.
func (r *safeRenderer) renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}

// renderLink keeps the link text always and the link itself only when it
// points somewhere harmless.
func (r *safeRenderer) renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	href, ok := safeHref(n.Destination)
	if !ok {
		return ast.WalkContinue, nil
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML([]byte(href)))
	_ = w.WriteByte('"')
	if len(n.Title) > 0 {
		_, _ = w.WriteString(` title="`)
		ghtml.DefaultWriter.Write(w, n.Title)
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString(linkAttrs)
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func (r *safeRenderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	dest := n.URL(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(dest), []byte("mailto:")) {
		dest = append([]byte("mailto:"), dest...)
	}
	label := util.EscapeHTML(n.Label(source))
	href, ok := safeHref(dest)
	if !ok {
		_, _ = w.Write(label)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML([]byte(href)))
	_, _ = w.WriteString(`"` + linkAttrs + `>`)
	_, _ = w.Write(label)
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

// renderImage never emits <img>: the app loads nothing from third-party
// hosts, and a model-chosen image URL is a tracking pixel waiting to happen.
// A web image becomes a link the user may choose to follow; anything else
// is reduced to its alt text.
func (r *safeRenderer) renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	var alt strings.Builder
	writeText(&alt, n, source)
	href, ok := safeHref(n.Destination)
	if !ok || strings.HasPrefix(href, "mailto:") {
		writeEscaped(w, alt.String())
		return ast.WalkSkipChildren, nil
	}
	label := alt.String()
	if strings.TrimSpace(label) == "" {
		label = href
	}
	_, _ = w.WriteString(`<a class="md-image" href="`)
	_, _ = w.Write(util.EscapeHTML([]byte(href)))
	_, _ = w.WriteString(`"` + linkAttrs + `>🖼 `)
	writeEscaped(w, label)
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

// renderTaskCheckBox draws a task-list box as a disabled checkbox; it is a
// statement from the model, not a control for the user.
func (r *safeRenderer) renderTaskCheckBox(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if node.(*east.TaskCheckBox).IsChecked {
		_, _ = w.WriteString(`<input checked="" disabled="" type="checkbox"> `)
	} else {
		_, _ = w.WriteString(`<input disabled="" type="checkbox"> `)
	}
	return ast.WalkContinue, nil
}

// safeHref resolves a link destination the way a browser would read it
// (entity references decoded, unsafe bytes percent-encoded) and accepts it
// only for http and https with a host, or mailto with an address. Relative
// URLs are refused: in a chat answer they would point into the app itself.
func safeHref(dest []byte) (string, bool) {
	href := string(util.URLEscape(dest, true))
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	switch u.Scheme {
	case "http", "https":
		return href, u.Host != ""
	case "mailto":
		return href, u.Opaque != ""
	}
	return "", false
}

// unescapeText turns Markdown text into what it means: "\*" is "*" and
// "&amp;" is "&". Raw text (code spans) is already literal.
func unescapeText(v []byte, raw bool) []byte {
	if raw {
		return v
	}
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	return util.ResolveEntityNames(v)
}

// byteWriter is what writeEscaped needs from a bytes.Buffer or BufWriter.
type byteWriter interface {
	WriteString(string) (int, error)
}

// writeEscaped writes s with the five HTML-special characters escaped.
func writeEscaped(w byteWriter, s string) {
	_, _ = w.WriteString(htmlEscaper.Replace(s))
}

var htmlEscaper = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;", `'`, "&#39;")
