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
//
// The markup, for the UI and its style sheet:
//
//	div.md                          the root
//	div.code-block > pre > code.language-LANG
//	div.code-block > button.copy-code, button.run-code (type="button", no
//	                                script: attach handlers by class and read
//	                                the sibling <code>; run-code only on go
//	                                blocks with Options.AllowRun)
//	div.xml-tool-card[data-tool][data-status][data-call-id]
//	    span.tool-icon (an app/icons SVG), strong (tool name), span.tool-query (preview),
//	    span.tool-status-badge[title] (⟳ ✓ ✗ ⊘),
//	    details[open if Options.Expanded] > summary, pre.tool-input,
//	    pre.tool-error, pre.tool-result
//	a[rel="noopener noreferrer nofollow"][target=_blank], a.md-image (an
//	                                image shown as a link, never loaded)
//	a.cite-ref[rel=noopener][target=_blank|_top]
//	                                a citation mark "[n]" linked to its
//	                                passage (Options.CiteLinks)
//	input[type=checkbox][disabled]  task-list boxes
//
// Rendering is meant to be repeated for every streamed token: finished
// blocks, pieces and cards are remembered in small bounded caches, so the
// cost of a re-render is mostly that of the last, still-growing block.
package markdown

import (
	"bufio"
	"bytes"
	"strings"
	"sync"

	"tinyrag/app/markdown/answer"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Options tune how an answer is rendered (see answer.Options).
type Options = answer.Options

// Card places a tool block's live status card over the raw XML of that
// block in the answer text (see answer.Card).
type Card = answer.Card

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

// renderMarkdown appends the sanitized HTML of one Markdown piece to out.
// stable says the piece will not change any more (a card follows it), so it
// is remembered whole. A piece that is still growing is split at its last
// safe block boundary (see lastBoundary): the part before it is remembered,
// and only the part after it is parsed again for each new token.
func renderMarkdown(out *strings.Builder, src string, opts Options, stable bool) {
	if strings.TrimSpace(src) == "" {
		return
	}
	if stable {
		out.WriteString(renderPrefix(src, opts))
		return
	}
	if b := lastBoundary(src); b > 0 {
		out.WriteString(renderPrefix(src[:b], opts))
		src = src[b:]
	}
	out.WriteString(renderBlocks(src, opts))
}

// renderPrefix renders a piece of Markdown that will be asked for again
// unchanged, remembering the result.
func renderPrefix(src string, opts Options) string {
	key := pieceKey{allowRun: opts.AllowRun, lang: labelsFor(opts.Lang).lang, src: src}
	if v, ok := pieceCache.get(key); ok {
		return v
	}
	v := renderBlocks(src, opts)
	// src is usually a slice of a whole answer; a copy keeps the cache from
	// pinning every version of the answer in memory.
	key.src = strings.Clone(src)
	pieceCache.put(key, v)
	return v
}

// renderBlocks parses Markdown and returns its sanitized HTML. Each
// top-level block is rendered and sanitized on its own so that blocks
// unchanged since the last token come from the cache; a block's HTML is
// balanced, so sanitizing it alone means the same as sanitizing it in place.
func renderBlocks(src string, opts Options) string {
	md := converter(opts)
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	var piece strings.Builder
	var blk bytes.Buffer
	bw := bufio.NewWriter(&blk)
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		blk.Reset()
		if err := md.Renderer().Render(bw, source, c); err != nil {
			// Rendering into memory does not fail unless goldmark has a
			// bug; the piece is then shown as escaped text, not lost.
			var esc strings.Builder
			esc.WriteString("<p>")
			writeEscaped(&esc, src)
			esc.WriteString("</p>\n")
			return esc.String()
		}
		piece.WriteString(sanitize(blk.String()))
	}
	return piece.String()
}
