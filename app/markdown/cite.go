package markdown

import (
	"html"
	"net/url"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"

	"tinyrag/app/internal/lazyregexp"
)

// citeMark is a citation as models write it: "[3]", or "[1, 2]" for more.
var citeMark = lazyregexp.New(`\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]`)

// linkCitations turns the citation marks in rendered, sanitized answer
// HTML into links to the passages they cite: links[n-1] is where [n]
// leads ("" or a number beyond links leaves it as text). Marks inside
// code, pre (a tool card's result) and links stay text. The links are the
// app's own (http or https only, checked here), not the model's.
func linkCitations(out string, links []string, target string) string {
	if len(links) == 0 || !strings.Contains(out, "[") {
		return out
	}
	z := xhtml.NewTokenizer(strings.NewReader(out))
	var b strings.Builder
	b.Grow(len(out) + 64)
	skip := 0 // depth inside code, pre or a
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			break
		}
		raw := z.Raw()
		switch tt {
		case xhtml.StartTagToken, xhtml.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "code", "pre", "a":
				if tt == xhtml.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			}
		case xhtml.TextToken:
			if skip == 0 {
				b.WriteString(citeMark.ReplaceAllStringFunc(string(raw), func(m string) string {
					return citeLinks(m, links, target)
				}))
				continue
			}
		}
		b.Write(raw)
	}
	return b.String()
}

// citeLinks renders one mark ("[3]", "[1, 2]") as links, each number on
// its own; a number without a link stays as written.
func citeLinks(mark string, links []string, target string) string {
	nums := strings.Split(mark[1:len(mark)-1], ",")
	hrefs := make([]string, len(nums))
	any := false
	for i, n := range nums {
		k, _ := strconv.Atoi(strings.TrimSpace(n))
		if k >= 1 && k <= len(links) && webURL(links[k-1]) {
			hrefs[i] = links[k-1]
			any = true
		}
	}
	if !any {
		return mark
	}
	link := func(text, href string) string {
		return `<a class="cite-ref" href="` + html.EscapeString(href) + `" target="` + target + `" rel="noopener">` + text + `</a>`
	}
	if len(nums) == 1 {
		return link(mark, hrefs[0])
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range nums {
		if i > 0 {
			b.WriteString(", ")
		}
		n = strings.TrimSpace(n)
		if hrefs[i] == "" {
			b.WriteString(n)
		} else {
			b.WriteString(link(n, hrefs[i]))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// webURL reports an absolute http(s) URL.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
