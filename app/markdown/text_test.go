package markdown

import "testing"

func TestToText_KeepsWhatAReaderNeeds(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", ""},
		{"markup dropped", "# Title\n\nSome *em*, **strong**, ~~gone~~ and `code`.", "Title\n\nSome em, strong, gone and code."},
		{"escapes and entities resolved", `\*not em\* AT&amp;T &#x41;`, "*not em* AT&T A"},
		{"link keeps its url", "[Go](https://go.dev) and <https://a.example>", "Go (https://go.dev) and https://a.example"},
		{"link whose text is the url", "[https://go.dev](https://go.dev)", "https://go.dev"},
		{"image keeps alt and url", "![chart](https://a.example/c.png)", "chart (https://a.example/c.png)"},
		{"bullet list", "- a\n- b\n", "- a\n- b"},
		{"ordered list from 3", "3. a\n4. b\n", "3. a\n4. b"},
		{"nested list indents", "- a\n  - b\n", "- a\n  - b"},
		{"task list", "- [x] done\n- [ ] todo\n", "- [x] done\n- [ ] todo"},
		{"code block verbatim", "```go\nif a < b {\n\treturn\n}\n```\n", "if a < b {\n\treturn\n}"},
		{"table as tab-separated rows", "| a | b |\n|---|---|\n| 1 | 2 |\n", "a\tb\n1\t2"},
		{"blockquote prefixed", "> one\n>\n> two\n", "> one\n>\n> two"},
		{"raw html kept as written", "<b>bold</b> <script>x</script>", "<b>bold</b> <script>x</script>"},
		{"soft line breaks kept", "line one\nline two", "line one\nline two"},
		{"thematic break", "a\n\n***\n\nb", "a\n\n---\n\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ToText(tt.src); got != tt.want {
				t.Errorf("ToText(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}
