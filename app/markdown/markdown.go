// Package markdown turns an assistant's answer — Markdown written by an
// untrusted model, with raw XML tool blocks inline — into safe HTML for the
// go-app UI, and into plain text for copying.
//
// Every string that reaches the page comes from the model or from a tool and
// is treated as hostile: raw HTML in the Markdown is shown as text, links are
// limited to http, https and mailto, no image is ever loaded, and the finished
// HTML goes through a bluemonday policy that admits exactly the markup this
// package emits. The result always has a single root element,
// <div class="md">, because go-app's app.Raw needs one.
package markdown

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
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
}

// Render returns the sanitized HTML of Markdown src inside one root
// <div class="md">, with English labels and no Run buttons.
func Render(src string) string {
	return RenderAnswer(src, nil, Options{})
}

// converterKey selects one of the few goldmark instances; the code block
// renderer bakes its labels in at construction, so there is one per variant.
type converterKey struct {
	allowRun bool
	lang     string
}

var converters sync.Map // converterKey -> goldmark.Markdown

// converter returns the goldmark instance for opts, building it once.
// goldmark instances are safe for concurrent Convert calls.
func converter(opts Options) goldmark.Markdown {
	key := converterKey{allowRun: opts.AllowRun, lang: labelsFor(opts.Lang).lang}
	if md, ok := converters.Load(key); ok {
		return md.(goldmark.Markdown)
	}
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.Linkify,
			extension.TaskList,
		),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(&safeRenderer{
				allowRun: key.allowRun,
				labels:   labelsFor(key.lang),
			}, 10)),
		),
	)
	actual, _ := converters.LoadOrStore(key, md)
	return actual.(goldmark.Markdown)
}

// renderMarkdown appends the unsanitized HTML of one Markdown piece to buf.
// Conversion into a bytes.Buffer cannot fail for want of space, and the node
// renderers here never return errors, so a failure would be a goldmark bug;
// the piece is then shown escaped rather than lost.
func renderMarkdown(buf *bytes.Buffer, src string, opts Options) {
	if strings.TrimSpace(src) == "" {
		return
	}
	mark := buf.Len()
	if err := converter(opts).Convert([]byte(src), buf); err != nil {
		buf.Truncate(mark)
		buf.WriteString("<p>")
		writeEscaped(buf, src)
		buf.WriteString("</p>\n")
	}
}
