// Package nomodel answers questions when no language model is reachable —
// none configured, the network off, or the model down. The calculator,
// nanoGo and knowledge search run in the browser, so the app can still
// answer what they can answer.
//
// It does so as an llm.Chatter that stands in for the model inside the
// ordinary answer loop: its first reply calls the one tool that fits the
// question with a protocol block, and its second composes the answer from
// the evidence packet the engine sends back. So an answer without a model
// has the same route, tool_start, tool_result and done events, the same
// tool cards and the same caps as one with a model, and nothing about the
// loop is special-cased.
package nomodel

import (
	"context"
	"fmt"
	"io"
	"strings"

	"tinyrag/app/calc"
	"tinyrag/app/engine/evidence"
	"tinyrag/app/engine/route"
	"tinyrag/app/internal/lazyregexp"
	"tinyrag/app/llm"
	"tinyrag/app/tool"
)

// The tools it calls, by their protocol names.
const (
	calculate    = "calculate"
	nanogo       = "nanogo"
	ragKnowledge = "rag_knowledge"
)

// Chatter is the stand-in for a model. Tools is the registry the engine
// runs with: a tool the registry has disabled is never called. Lang is the
// interface language ("en" or "de"), Why says in a few words why there is
// no model ("You are offline"), in that language; the answer begins with it,
// so nobody mistakes it for a model's.
type Chatter struct {
	Tools *tool.Registry
	Lang  string
	Why   string
}

var _ llm.Chatter = Chatter{}

// ChatStream implements llm.Chatter. It never fails: what it cannot answer
// it explains.
func (c Chatter) ChatStream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	last := ""
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
		last = req.Messages[n-1].Content
	}
	if items := evidence.Parse(last); items != nil {
		return reply(c.answer(items)), nil
	}
	return reply(c.call(last)), nil
}

var goFence = lazyregexp.New("(?s)```(?:go|golang)[ \t]*\r?\n(.*?)```")

// call is the first reply: a sentence saying what will answer, and the
// block that calls it.
func (c Chatter) call(question string) string {
	if m := goFence.FindStringSubmatch(question); m != nil && strings.TrimSpace(m[1]) != "" {
		if !c.enabled(nanogo) {
			return c.why() + " " + c.t("nanogo_off")
		}
		return c.why() + " " + c.t("running") + "\n\n" + block(nanogo, "source", m[1])
	}
	if expr := expression(question); expr != "" && c.enabled(calculate) {
		return c.why() + " " + c.t("calculating") + "\n\n" + block(calculate, "query", expr)
	}
	q := strings.TrimSpace(question)
	if q != "" && c.enabled(ragKnowledge) {
		return c.why() + " " + c.t("searching") + "\n\n" + block(ragKnowledge, "query", clipRunes(q, 500))
	}
	return c.why() + " " + c.t("cannot")
}

// answer is the second reply, made of the results.
func (c Chatter) answer(items []evidence.Item) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if it.Err != "" {
			fmt.Fprintf(&b, c.t("failed"), it.Tool, it.Err)
			continue
		}
		switch it.Tool {
		case calculate:
			fmt.Fprintf(&b, "**%s**", escape(it.Content))
		case nanogo:
			out := strings.TrimRight(it.Content, "\n")
			if out == "" {
				b.WriteString(c.t("no_output"))
				continue
			}
			b.WriteString(c.t("output") + "\n\n" + fence(out))
		case ragKnowledge:
			b.WriteString(c.passages(it.Content))
		default:
			b.WriteString(quote(it.Content))
		}
	}
	return b.String()
}

// passages renders rag_knowledge's numbered passages ("[1] Title — src"
// then the text) as quotes under bold headings. A result that is not a
// list of passages (nothing matched) is shown as it is.
func (c Chatter) passages(content string) string {
	if head, _, _ := strings.Cut(content, "\n"); !passageHead.MatchString(head) {
		return escape(content) + "\n\n" + c.t("no_match_hint")
	}
	var b strings.Builder
	b.WriteString(c.t("from_kb"))
	for _, line := range strings.Split(content, "\n") {
		switch {
		case passageHead.MatchString(line):
			b.WriteString("\n\n**" + escape(line) + "**\n\n")
		case strings.TrimSpace(line) == "":
			b.WriteString(">\n")
		default:
			b.WriteString("> " + escape(line) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n>")
}

var passageHead = lazyregexp.New(`^\[\d+\] .* — .+$`)

func (c Chatter) enabled(name string) bool {
	if c.Tools == nil {
		return false
	}
	_, on := c.Tools.Lookup(name)
	return on
}

func (c Chatter) why() string {
	w := strings.TrimSpace(c.Why)
	if w == "" {
		w = c.t("no_model")
	}
	if !strings.HasSuffix(w, ".") {
		w += "."
	}
	return w
}

// leadWords are how people ask for a calculation, in the interface
// languages; what follows them is tried as an expression.
var leadWords = lazyregexp.New(`(?i)^\s*(?:please\s+)?(?:calculate|compute|evaluate|solve|what\s+is|what's|how\s+much\s+is|berechne|rechne|was\s+ist|wie\s*viel\s+ist)\b[\s:]*`)

// expression finds what the calculator should evaluate: the question
// without its lead words, or else the arithmetic the router saw in it. A
// candidate counts only if it is a well-formed expression with an operator
// or a function call — "What is 2024?" is no calculation, while "1/0" is
// one, and the calculator's answer to it is an error worth showing.
func expression(question string) string {
	whole := strings.TrimSpace(strings.TrimRight(leadWords.ReplaceAllString(question, ""), "?=!. \t\n"))
	for _, cand := range []string{whole, route.Arithmetic(question)} {
		if cand == "" || !strings.ContainsAny(cand, "+-*/^%!(×÷") {
			continue
		}
		if calc.Check(cand) == nil {
			return cand
		}
	}
	return ""
}

// block writes one protocol block. The input is escaped the way the
// protocol parser decodes it, so a snippet with "<" or "&" arrives intact.
func block(name, elem, input string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	return fmt.Sprintf(`<tool name="%s"><%s>%s</%s></tool>`, name, elem, r.Replace(input), elem)
}

// escape keeps tool output from being read as Markdown or HTML.
func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;")
	s = r.Replace(s)
	if strings.HasPrefix(s, "#") {
		s = `\` + s // not a heading
	}
	return s
}

func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "> " + escape(l)
	}
	return strings.Join(lines, "\n")
}

// fence puts program output in a code block whose fence its text cannot
// close.
func fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f + "text\n" + s + "\n" + f
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// stream hands out one prepared reply.
type stream struct {
	text string
	done bool
}

func reply(text string) llm.Stream { return &stream{text: text} }

func (s *stream) Recv() (llm.Delta, error) {
	if s.done {
		return llm.Delta{}, io.EOF
	}
	s.done = true
	return llm.Delta{Content: s.text, FinishReason: "stop"}, nil
}

func (s *stream) Close() error { return nil }
