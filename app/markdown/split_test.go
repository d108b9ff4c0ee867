package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLastBoundary_CutsOnlyWhereBlocksAreClosed(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the text from the boundary on; "" for no boundary
	}{
		{"paragraph after paragraph", "one\n\ntwo", "two"},
		{"last of several", "one\n\ntwo\n\n# three\n", "# three\n"},
		{"no blank line before", "one\ntwo", ""},
		{"list item after blank continues the list", "- a\n\n- b", ""},
		{"ordered item after blank continues the list", "1. a\n\n2. b", ""},
		{"indented line continues a list item", "- a\n\n  more", ""},
		{"paragraph after a list closes it", "- a\n\nafter", "after"},
		{"block quote after blank", "> a\n\n> b", ""},
		{"inside a fence", "```\ncode\n\nstill code", ""},
		{"after a closed fence", "```go\nx\n\ny\n```\n\nafter", "after"},
		{"fence closed by an indented fence", "```\nx\n  ```\n\nafter", "after"},
		{"shorter fence does not close", "````\nx\n```\n\nstill code", ""},
		{"tilde fence not closed by backticks", "~~~\nx\n```\n\nstill code", ""},
		{"indented fence stops the scan", "a\n\nb\n\n- step\n  ```sh\n  run\n\nc\n  ```\n\nd", "b\n\n- step\n  ```sh\n  run\n\nc\n  ```\n\nd"},
		{"reference definitions forbid any cut", "see [x][r]\n\nmore\n\n[r]: https://a.example", ""},
		{"html comment stops the scan", "a\n\n<!--\n\nb\n\n-->", ""},
		{"script block stops the scan", "a\n\nb\n\n<SCRIPT>\n\nc", "b\n\n<SCRIPT>\n\nc"},
		{"crlf line ends", "one\r\n\r\ntwo", "two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := lastBoundary(tt.src)
			got := ""
			if b > 0 {
				got = tt.src[b:]
			}
			if got != tt.want {
				t.Errorf("lastBoundary(%q) cuts before %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// splitDocs are answers written to stress the boundary rule: every kind of
// block, blank lines inside code and HTML, lists that stay open across
// blank lines, and fences inside fences.
var splitDocs = []string{
	`# Heading

A paragraph with *emphasis
across lines* and a [link](https://example.com).

- tight one
- tight two

- loose now

1. first

2. second
   continued

Setext heading
==============

` + "```go" + `
func main() {

fmt.Println("col 0 inside a fence")
}
` + "```" + `

~~~
tilde fence
` + "```" + `

not closed by backticks
~~~

` + "````md" + `
` + "```" + `
inner
` + "```" + `

still inside
` + "````" + `

> quoted
> more

> second quote

| a | b |
|---|---|
| 1 | 2 |

after the table
***

    indented code

    with a blank line

Done.
`,
	`Intro

<!-- a comment

spanning blank lines -->

After comment

<pre>
pre block

with blank
</pre>

End
`,
	`Steps:

1. Install:
   ` + "```sh" + `
   go install x

echo col0
   ` + "```" + `

2. Run it

Last words

[ref]: https://example.com/ref
and [a ref][ref].
`,
	"See [the ref][ref] first.\n\nMiddle paragraph.\n\n[ref]: https://example.com/ref\n\nAfter.\n",
	"Line one\r\n\r\nLine two\r\n\r\n```\r\ncode\r\n\r\nmore\r\n```\r\n\r\nEnd ü 日本\r\n",
}

func TestRenderMarkdown_SplitRenderEqualsWholeRender(t *testing.T) {
	opts := Options{AllowRun: true, Streaming: true}
	for d, doc := range splitDocs {
		resetCaches()
		for n := 0; n <= len(doc); n++ {
			if n < len(doc) && !utf8.RuneStart(doc[n]) {
				continue
			}
			src := doc[:n]
			var split strings.Builder
			renderMarkdown(&split, src, opts, false)
			whole := ""
			if strings.TrimSpace(src) != "" {
				whole = renderBlocks(src, opts)
			}
			if split.String() != whole {
				t.Fatalf("doc %d, prefix %d (cut before %q): split render differs:\n%s\n--- whole:\n%s",
					d, n, src[lastBoundary(src):], split.String(), whole)
			}
		}
	}
}
