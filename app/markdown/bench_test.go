package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"tinyrag/app/markdown/answer"
)

// answer10K builds a realistic ~10 KB answer: prose, a list, a table, code
// and a few tool blocks with their cards.
func answer10K() (string, []Card) {
	var pieces []string
	for i := 0; len(strings.Join(pieces, "")) < 10*1024; i++ {
		pieces = append(pieces,
			fmt.Sprintf("## Part %d\n\nThe **return policy** allows returns within *30 days*; see [the docs](https://example.com/docs/%d) and `policy.md`.\n\n", i, i),
			"- first point with some words\n- second point, a bit longer than the first\n- [x] done item\n\n",
			"| key | value |\n|-----|------:|\n| a | 1 |\n| b | 2 |\n\n",
			"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n",
			block("rag_knowledge", fmt.Sprintf("policy part %d", i)),
			"\n\n",
		)
	}
	text, cards := answerWith(pieces...)
	for i := range cards {
		cards[i].Result = strings.Repeat("result text ", 40)
	}
	return text, cards
}

// BenchmarkRenderAnswer_Streaming measures what the UI pays per token: a
// re-render of a ~10 KB answer (with tool cards) that has grown by a few
// bytes since the last.
func BenchmarkRenderAnswer_Streaming(b *testing.B) {
	text, cards := answer10K()
	benchStreaming(b, text, cards)
}

// BenchmarkRenderAnswer_StreamingNoCards is the same for a ~10 KB answer
// without tool blocks, so all of it is one growing Markdown piece.
func BenchmarkRenderAnswer_StreamingNoCards(b *testing.B) {
	text, cards := answer10K()
	benchStreaming(b, answer.StripToolBlocks(text, cards), nil)
}

func benchStreaming(b *testing.B, text string, cards []Card) {
	resetCaches()
	opts := Options{AllowRun: true, Streaming: true}
	const token = 6
	n := len(text) - 1024
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		n += token
		if n > len(text) {
			n = len(text) - 1024
		}
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		RenderAnswer(text[:n], cardsWithin(cards, n), opts)
	}
}

// BenchmarkRenderAnswer_Cold measures a first render of a ~10 KB answer
// (opening a chat, regenerating) with nothing remembered.
func BenchmarkRenderAnswer_Cold(b *testing.B) {
	text, cards := answer10K()
	opts := Options{AllowRun: true}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		resetCaches()
		RenderAnswer(text, cards, opts)
	}
}

// cardsWithin keeps the cards whose block has fully arrived in text[:n].
func cardsWithin(cards []Card, n int) []Card {
	var in []Card
	for _, c := range cards {
		if c.End <= n {
			in = append(in, c)
		}
	}
	return in
}

// BenchmarkToText measures plain-text conversion of the same answer.
func BenchmarkToText(b *testing.B) {
	text, cards := answer10K()
	src := answer.StripToolBlocks(text, cards)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ToText(src)
	}
}
