package markdown

import (
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"

	"tinyrag/app/internal/lazyregexp"
)

// policy admits exactly the markup this package writes and nothing else.
// Everything from the model has already been escaped or filtered by the
// time it gets here; the policy is the second lock on the door, so that a
// mistake in one renderer cannot put script or a remote fetch on the page.
//
// It is built on first use, not at program start: building it compiles
// some twenty regular expressions, which the app's first screen does not
// need (docs/startup.md); Warm builds it ahead of the first answer.
var policy = sync.OnceValue(newPolicy)

// Warm builds what rendering needs once (the policy), so the first
// rendered answer does not pay for it; the app calls it once it is ready.
func Warm() { policy() }

// callIDRe matches a tool call's id as the renderers emit it.
var callIDRe = lazyregexp.New(`^[A-Za-z0-9_.:-]{1,128}$`)

func newPolicy() *bluemonday.Policy {
	// Patterns for attribute values; they mirror what the renderers emit.
	toolAttrRe := regexp.MustCompile(`^[a-z0-9_-]{1,64}$`)

	p := bluemonday.NewPolicy()
	p.AllowElements(
		"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
		"ul", "ol", "li", "em", "strong", "del", "code", "pre",
		"table", "thead", "tbody", "tr", "th", "td", "details", "summary",
	)
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^[0-9]{1,9}$`)).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("th", "td")

	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(md|code-block|xml-tool-card)$`)).OnElements("div")
	p.AllowAttrs("data-tool").Matching(toolAttrRe).OnElements("div")
	p.AllowAttrs("data-status").Matching(regexp.MustCompile(`^(running|done|error|skipped)$`)).OnElements("div")
	p.AllowAttrs("data-call-id").Matching(callIDRe.Regexp()).OnElements("div")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(tool-icon|tool-query|tool-status-badge)$`)).OnElements("span")
	p.AllowAttrs("title").Matching(regexp.MustCompile(`^[\p{L} ]{1,40}$`)).OnElements("span")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(tool-input|tool-result|tool-error)$`)).OnElements("pre")
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^$`)).OnElements("details")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[A-Za-z0-9_+#.-]{1,32}$`)).OnElements("code")

	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(copy-code|run-code)$`)).OnElements("button")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^button$`)).OnElements("button")
	p.AllowAttrs("aria-label").Matching(regexp.MustCompile(`^[\p{L} ]{1,40}$`)).OnElements("button")

	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$`)).OnElements("input")

	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("title").OnElements("a")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^md-image$`)).OnElements("a")
	p.AllowAttrs("rel").Matching(regexp.MustCompile(`^noopener noreferrer nofollow$`)).OnElements("a")
	p.AllowAttrs("target").Matching(regexp.MustCompile(`^_blank$`)).OnElements("a")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}
