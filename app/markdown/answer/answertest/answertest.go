// Package answertest builds answers with tool cards for tests of the
// packages that place or render them (app/markdown/answer, app/markdown).
package answertest

import (
	"fmt"
	"strings"

	"tinyrag/app/markdown/answer"
)

// Block returns a tool block for name and input in the protocol's format.
func Block(name, input string) string {
	return fmt.Sprintf(`<tool name="%s"><query>%s</query></tool>`, name, input)
}

// With builds an answer text from pieces, returning a card for each piece
// that is a tool block (starting with "<tool "): ids call_1, call_2, …,
// tool rag_knowledge, status done.
func With(pieces ...string) (string, []answer.Card) {
	var b strings.Builder
	var cards []answer.Card
	for _, p := range pieces {
		if strings.HasPrefix(p, "<tool ") {
			cards = append(cards, answer.Card{Start: b.Len(), End: b.Len() + len(p), ID: fmt.Sprintf("call_%d", len(cards)+1), Tool: "rag_knowledge", Input: "q", Status: "done"})
		}
		b.WriteString(p)
	}
	return b.String(), cards
}
