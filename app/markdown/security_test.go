package markdown

import (
	"strings"
	"testing"
)

func TestRender_HostilePayloadsAreInert(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// wantText must be visible, literally, in the rendered text: the
		// payload is shown, not executed and not silently dropped.
		wantText string
		// wantLinks is how many <a> elements must survive.
		wantLinks int
	}{
		{"script block", "<script>alert(1)</script>", "<script>alert(1)</script>", 0},
		{"inline script", "hi <script>alert(1)</script> there", "<script>alert(1)</script>", 0},
		{"img onerror", `<img src=x onerror=alert(1)>`, `<img src=x onerror=alert(1)>`, 0},
		{"inline img onerror", `look <img src=x onerror=alert(1)> here`, `<img src=x onerror=alert(1)>`, 0},
		{"svg onload", `<svg onload=alert(1)>`, `<svg onload=alert(1)>`, 0},
		{"svg inline with script", `a <svg><script>alert(1)</script></svg> b`, `<svg><script>alert(1)</script></svg>`, 0},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, `<iframe src="https://evil.example"></iframe>`, 0},
		{"raw anchor with data url", `<a href="data:text/html,<script>alert(1)</script>">x</a>`, `<a href="data:text/html,`, 0},
		{"style tag", `<style>body{display:none}</style>`, `<style>body{display:none}</style>`, 0},
		{"html comment", `<!-- <script>alert(1)</script> -->`, `<!-- <script>alert(1)</script> -->`, 0},
		{"javascript link", `[x](javascript:alert(1))`, "x", 0},
		{"mixed-case javascript link", `[x](JaVaScRiPt:alert(1))`, "x", 0},
		{"javascript link with numeric entity", `[x](&#106;avascript:alert(1))`, "x", 0},
		{"javascript link with named entity colon", `[x](javascript&colon;alert(1))`, "x", 0},
		{"javascript link with tab in scheme", "[x](<java\tscript:alert(1)>)", "x", 0},
		{"vbscript link", `[x](vbscript:msgbox(1))`, "x", 0},
		{"data link", `[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`, "x", 0},
		{"file link", `[x](file:///etc/passwd)`, "x", 0},
		{"protocol-relative link", `[x](//evil.example/a)`, "x", 0},
		{"javascript autolink", `<javascript:alert(1)>`, "javascript:alert(1)", 0},
		{"reference link to javascript", "[x][r]\n\n[r]: javascript:alert(1)", "x", 0},
		{"link title breaking out", `[x](https://example.com "a\" onmouseover=\"alert(1)")`, "x", 1},
		{"image with javascript src", `![pic](javascript:alert(1))`, "pic", 0},
		{"image with onerror in alt", `![" onerror="alert(1)](https://example.com/a.png)`, `" onerror="alert(1)`, 1},
		{"entity-encoded script", `&lt;script&gt;alert(1)&lt;/script&gt;`, "<script>alert(1)</script>", 0},
		{"numeric-entity-encoded img", `&#60;img src=x onerror=alert(1)&#62;`, "<img src=x onerror=alert(1)>", 0},
		{"double-encoded entities stay text", `&amp;lt;script&amp;gt;`, "&lt;script&gt;", 0},
		{"script in fenced code", "```html\n<script>alert(1)</script>\n```", "<script>alert(1)</script>", 0},
		{"script in inline code", "`<script>alert(1)</script>`", "<script>alert(1)</script>", 0},
		{"fence language breaking out", "```go\" onmouseover=\"alert(1)\nx\n```", "x", 0},
		{"fence language with markup", "```<img/src=x/onerror=alert(1)>\nx\n```", "x", 0},
		{"script in table cell", "| a |\n|---|\n| <script>alert(1)</script> |", "<script>alert(1)</script>", 0},
		{"closing the root early", "</div><div onclick=alert(1)>x", "</div><div onclick=alert(1)>x", 0},
		{"null byte and control characters", "a\x00b <scr\x00ipt>", "<scr\uFFFDipt>", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, opts := range []Options{{}, {AllowRun: true, Lang: "de", Streaming: true}} {
				out := RenderAnswer(tt.src, nil, opts)
				root := assertInert(t, out)
				if got := textOf(root); !strings.Contains(got, tt.wantText) {
					t.Errorf("visible text %q does not contain %q:\n%s", got, tt.wantText, out)
				}
				if got := len(findAll(root, "a", "")); got != tt.wantLinks {
					t.Errorf("got %d links, want %d:\n%s", got, tt.wantLinks, out)
				}
			}
		})
	}
}

func TestRenderAnswer_HostileCardFieldsAreInert(t *testing.T) {
	const payload = `"><script>alert(1)</script><img src=x onerror=alert(1)>`
	text := "Before\n\n<tool name=\"x\"><query>q</query></tool>\n\nAfter"
	start := strings.Index(text, "<tool")
	end := strings.Index(text, "</tool>") + len("</tool>")
	tests := []struct {
		name     string
		card     Card
		wantText string
	}{
		{"tool name breaking data-tool quotes", Card{Tool: `rag" onmouseover="alert(1)`, Status: "done"}, `rag" onmouseover="alert(1)`},
		{"tool name with markup", Card{Tool: payload, Status: "done"}, payload},
		{"input with markup", Card{Tool: "websearch", Input: payload, Status: "running"}, payload},
		{"result with markup", Card{Tool: "url_fetch", Input: "https://a.example", Status: "done", Result: payload}, payload},
		{"error with markup", Card{Tool: "url_fetch", Input: "u", Status: "error", Error: payload}, payload},
		{"id breaking data-call-id quotes", Card{Tool: "calculate", ID: `c1" onclick="alert(1)`, Status: "done"}, "calculate"},
		{"status breaking data-status quotes", Card{Tool: "calculate", Status: `done" onclick="alert(1)`}, "calculate"},
		{"long nanogo source with markup", Card{Tool: "nanogo", Input: strings.Repeat("x", 100) + payload, Status: "done"}, payload},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.card
			c.Start, c.End = start, end
			out := RenderAnswer(text, []Card{c}, Options{})
			root := assertInert(t, out)
			card := findOne(t, root, "div", "xml-tool-card")
			if got := textOf(card); !strings.Contains(got, tt.wantText) {
				t.Errorf("card text %q does not show %q:\n%s", got, tt.wantText, out)
			}
			if tool := attr(card, "data-tool"); strings.ContainsAny(tool, `"'<> =`) {
				t.Errorf("data-tool %q carries markup characters", tool)
			}
			for _, a := range card.Attr {
				if a.Key != "class" && !strings.HasPrefix(a.Key, "data-") {
					t.Errorf("card has unexpected attribute %s=%q", a.Key, a.Val)
				}
			}
		})
	}
}

// The policy is the second lock: even markup the renderers never emit must
// not get through it.
func TestPolicy_StripsMarkupTheRenderersNeverEmit(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"javascript href", `<a href="javascript:alert(1)" rel="noopener noreferrer nofollow" target="_blank">x</a>`},
		{"relative href", `<a href="/api/llm/x">x</a>`},
		{"event handler on allowed element", `<div class="xml-tool-card" onclick="alert(1)">x</div>`},
		{"remote image", `<img src="https://tracker.example/p.gif">`},
		{"iframe", `<iframe src="https://evil.example"></iframe>`},
		{"script", `<script>alert(1)</script>`},
		{"style attribute", `<span class="tool-icon" style="background:url(https://x.example)">x</span>`},
		{"unknown class", `<div class="md evil">x</div>`},
		{"form button", `<button class="copy-code" type="submit" formaction="https://evil.example">x</button>`},
		{"svg", `<svg onload="alert(1)"><use xlink:href="https://evil.example/#x"/></svg>`},
		{"meta refresh", `<meta http-equiv="refresh" content="0;url=https://evil.example">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertInert(t, `<div class="md">`+policy().Sanitize(tt.in)+`</div>`)
		})
	}
}
