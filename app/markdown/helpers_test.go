package markdown

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parseRoot parses rendered output the way a browser would (as the inner
// HTML of a <body>) and returns its single root, failing unless there is
// exactly one element and it is <div class="md">.
func parseRoot(t *testing.T, out string) *html.Node {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatalf("output does not parse as HTML: %v\n%s", err, out)
	}
	if len(nodes) != 1 || nodes[0].Type != html.ElementNode || nodes[0].Data != "div" || attr(nodes[0], "class") != "md" {
		t.Fatalf("output must be exactly one <div class=\"md\"> root, got %d nodes:\n%s", len(nodes), out)
	}
	return nodes[0]
}

// allowedTags is every element this package may emit.
var allowedTags = map[string]bool{
	"div": true, "p": true, "br": true, "hr": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "blockquote": true, "ul": true, "ol": true, "li": true, "em": true,
	"strong": true, "del": true, "code": true, "pre": true, "table": true, "thead": true, "tbody": true,
	"tr": true, "th": true, "td": true, "details": true, "summary": true, "span": true, "button": true,
	"input": true, "a": true,
}

// iconTags are the elements of an app/icons SVG: allowed only inside a
// card's span.tool-icon, where the renderer puts the app's own icon.
var iconTags = map[string]bool{"svg": true, "path": true, "circle": true, "rect": true}

// inIcon reports whether n sits inside a card's icon span.
func inIcon(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == "span" && attr(p, "class") == "tool-icon" {
			return true
		}
	}
	return false
}

// assertInert fails if the parsed output could run script, load anything or
// navigate anywhere but a web or mail address: only known elements, no event
// handlers, styles or src, and links only to http(s) hosts or mailto.
func assertInert(t *testing.T, out string) *html.Node {
	t.Helper()
	root := parseRoot(t, out)
	walk(root, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if iconTags[n.Data] && inIcon(n) {
			return
		}
		if !allowedTags[n.Data] {
			t.Errorf("element <%s> must not appear in output:\n%s", n.Data, out)
		}
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(key, "on"), key == "style", key == "src", key == "srcset",
				key == "formaction", key == "action", key == "xlink:href", key == "srcdoc":
				t.Errorf("<%s> carries forbidden attribute %s=%q:\n%s", n.Data, a.Key, a.Val, out)
			case key == "href":
				u, err := url.Parse(a.Val)
				if err != nil || !(u.Scheme == "https" || u.Scheme == "http" || u.Scheme == "mailto") {
					t.Errorf("link to %q must not be emitted:\n%s", a.Val, out)
				}
				if attr(n, "class") == "cite-ref" {
					// The app's own link to a cited passage (Options.CiteLinks).
					if attr(n, "rel") != "noopener" || (attr(n, "target") != "_blank" && attr(n, "target") != "_top") {
						t.Errorf("citation link %q lacks rel/target: %v", a.Val, n.Attr)
					}
					break
				}
				if attr(n, "rel") != "noopener noreferrer nofollow" || attr(n, "target") != "_blank" {
					t.Errorf("link %q lacks rel/target: %v", a.Val, n.Attr)
				}
			}
		}
	})
	return root
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// textOf is the text a user sees in n.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

// findAll returns the elements under n with tag (any tag if "") and, when
// class is not empty, that class.
func findAll(n *html.Node, tag, class string) []*html.Node {
	var found []*html.Node
	walk(n, func(c *html.Node) {
		if c.Type == html.ElementNode && (tag == "" || c.Data == tag) && (class == "" || attr(c, "class") == class) {
			found = append(found, c)
		}
	})
	return found
}

func findOne(t *testing.T, n *html.Node, tag, class string) *html.Node {
	t.Helper()
	found := findAll(n, tag, class)
	if len(found) != 1 {
		t.Fatalf("want exactly one <%s class=%q>, got %d", tag, class, len(found))
	}
	return found[0]
}
