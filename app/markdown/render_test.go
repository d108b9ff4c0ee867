package markdown

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"
)

// wantEl describes an element that must appear in the output: its tag, its
// class (if any), its visible text (compared without surrounding
// whitespace) and some of its attributes.
type wantEl struct {
	tag, class, text string
	attrs            map[string]string
}

// assertHas fails unless some element under root matches w.
func assertHas(t *testing.T, root *html.Node, out string, w wantEl) {
	t.Helper()
	for _, n := range findAll(root, w.tag, w.class) {
		if strings.TrimSpace(textOf(n)) != strings.TrimSpace(w.text) {
			continue
		}
		ok := true
		for k, v := range w.attrs {
			if !hasAttr(n, k) || attr(n, k) != v {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Errorf("want <%s class=%q %v> with text %q in:\n%s", w.tag, w.class, w.attrs, w.text, out)
}

func TestRender_MarkdownBecomesMarkup(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantEl
	}{
		{"atx and setext headings", "# One\n\n### Three\n\nTwo\n---\n", []wantEl{
			{tag: "h1", text: "One"}, {tag: "h3", text: "Three"}, {tag: "h2", text: "Two"},
		}},
		{"emphasis, strong and strikethrough", "*a* **b** ~~c~~", []wantEl{
			{tag: "em", text: "a"}, {tag: "strong", text: "b"}, {tag: "del", text: "c"},
		}},
		{"bullet list", "- apples\n- pears\n", []wantEl{
			{tag: "ul", text: "\napples\npears\n"}, {tag: "li", text: "apples"}, {tag: "li", text: "pears"},
		}},
		{"ordered list keeps its start number", "3. three\n4. four\n", []wantEl{
			{tag: "ol", attrs: map[string]string{"start": "3"}, text: "\nthree\nfour\n"},
		}},
		{"task list shows disabled boxes", "- [x] done\n- [ ] todo\n", []wantEl{
			{tag: "input", attrs: map[string]string{"type": "checkbox", "checked": "", "disabled": ""}},
			{tag: "li", text: " todo"},
		}},
		{"table with alignment", "| a | b |\n|:--|--:|\n| 1 | 2 |\n", []wantEl{
			{tag: "th", text: "a", attrs: map[string]string{"align": "left"}},
			{tag: "td", text: "2", attrs: map[string]string{"align": "right"}},
		}},
		{"inline code is literal", "use `a < b && *c*`", []wantEl{
			{tag: "code", text: "a < b && *c*"},
		}},
		{"fenced code with language and copy button", "```python\nprint('<x>')\n```\n", []wantEl{
			{tag: "code", class: "language-python", text: "print('<x>')\n"},
			{tag: "button", class: "copy-code", text: "Copy", attrs: map[string]string{"type": "button", "aria-label": "Copy code"}},
		}},
		{"indented code block", "    x := 1\n", []wantEl{
			{tag: "code", text: "x := 1\n"}, {tag: "button", class: "copy-code", text: "Copy"},
		}},
		{"link opens in a new tab without opener", `[docs](https://example.com/a?b=1&c=2 "Title")`, []wantEl{
			{tag: "a", text: "docs", attrs: map[string]string{
				"href": "https://example.com/a?b=1&c=2", "title": "Title",
				"rel": "noopener noreferrer nofollow", "target": "_blank",
			}},
		}},
		{"bare www link gets http", "see www.example.com now", []wantEl{
			{tag: "a", text: "www.example.com", attrs: map[string]string{"href": "http://www.example.com"}},
		}},
		{"angle autolink and email", "<https://go.dev> and ann@example.org", []wantEl{
			{tag: "a", text: "https://go.dev", attrs: map[string]string{"href": "https://go.dev"}},
			{tag: "a", text: "ann@example.org", attrs: map[string]string{"href": "mailto:ann@example.org"}},
		}},
		{"remote image becomes a link, not a fetch", "![chart](https://cdn.example.com/c.png)", []wantEl{
			{tag: "a", class: "md-image", text: "🖼 chart", attrs: map[string]string{"href": "https://cdn.example.com/c.png"}},
		}},
		{"relative image keeps only its alt text", "![logo](logo.png)", []wantEl{
			{tag: "p", text: "logo"},
		}},
		{"blockquote and rule", "> quoted\n\n---\n", []wantEl{
			{tag: "blockquote", text: "\nquoted\n\n"}, {tag: "hr"},
		}},
		{"entities resolve to text", "AT&amp;T &copy; &#x41;", []wantEl{
			{tag: "p", text: "AT&T © A"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Render(tt.src)
			root := assertInert(t, out)
			for _, w := range tt.want {
				assertHas(t, root, out, w)
			}
		})
	}
}

func TestRender_NeverEmitsImages(t *testing.T) {
	for _, src := range []string{
		"![a](https://example.com/a.png)",
		"![a](data:image/png;base64,iVBORw0KGgo=)",
		"![a](/local.png)",
		"[![a](https://example.com/a.png)](https://example.com)",
	} {
		out := Render(src)
		root := assertInert(t, out)
		if imgs := findAll(root, "img", ""); len(imgs) != 0 {
			t.Errorf("Render(%q) emitted <img>:\n%s", src, out)
		}
	}
}

func TestRenderAnswer_RunButtonOnlyOnGoWhenAllowed(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		allowRun bool
		wantRun  bool
	}{
		{"go block with run allowed", "```go\nfmt.Println(1)\n```", true, true},
		{"golang spelling with run allowed", "```golang\nfmt.Println(1)\n```", true, true},
		{"go block with run not allowed", "```go\nfmt.Println(1)\n```", false, false},
		{"python block with run allowed", "```python\nprint(1)\n```", true, false},
		{"block without language", "```\nfmt.Println(1)\n```", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := RenderAnswer(tt.src, nil, Options{AllowRun: tt.allowRun})
			root := assertInert(t, out)
			runs := findAll(root, "button", "run-code")
			if got := len(runs) == 1; got != tt.wantRun {
				t.Fatalf("run button present = %v, want %v:\n%s", got, tt.wantRun, out)
			}
			if tt.wantRun && (attr(runs[0], "type") != "button" || attr(runs[0], "aria-label") != "Run code") {
				t.Errorf("run button attributes wrong: %v", runs[0].Attr)
			}
			if n := len(findAll(root, "button", "copy-code")); n != 1 {
				t.Errorf("want one copy button, got %d", n)
			}
		})
	}
}

func TestRenderAnswer_LabelsFollowLanguage(t *testing.T) {
	tests := []struct {
		lang, copy, copyAria, run string
	}{
		{"en", "Copy", "Copy code", "Run"},
		{"de", "Kopieren", "Code kopieren", "Ausführen"},
		{"", "Copy", "Copy code", "Run"},
		{"xx", "Copy", "Copy code", "Run"},
	}
	for _, tt := range tests {
		t.Run("lang="+tt.lang, func(t *testing.T) {
			out := RenderAnswer("```go\nx\n```", nil, Options{AllowRun: true, Lang: tt.lang})
			root := assertInert(t, out)
			assertHas(t, root, out, wantEl{tag: "button", class: "copy-code", text: tt.copy, attrs: map[string]string{"aria-label": tt.copyAria}})
			assertHas(t, root, out, wantEl{tag: "button", class: "run-code", text: tt.run})
		})
	}
}

func TestRender_EmptyInputIsAnEmptyRoot(t *testing.T) {
	for _, src := range []string{"", "   \n\n\t"} {
		root := parseRoot(t, Render(src))
		if root.FirstChild != nil {
			t.Errorf("Render(%q) root has content: %q", src, Render(src))
		}
	}
}

func TestRenderAnswer_SafeForConcurrentUse(t *testing.T) {
	src := "# T\n\n```go\nfmt.Println(1)\n```\n\n| a |\n|---|\n| 1 |\n"
	want := RenderAnswer(src, nil, Options{AllowRun: true, Lang: "de"})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := Options{AllowRun: i%2 == 0, Lang: []string{"en", "de"}[i%2]}
			got := RenderAnswer(src, nil, opts)
			if opts.Lang == "de" && opts.AllowRun && got != want {
				t.Errorf("concurrent render differs:\n%s\nwant\n%s", got, want)
			}
			if !strings.HasPrefix(got, `<div class="md">`) {
				t.Errorf("concurrent render lost its root: %s", got)
			}
		}()
	}
	wg.Wait()
}
