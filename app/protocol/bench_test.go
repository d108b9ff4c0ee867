package protocol

import (
	"fmt"
	"strings"
	"testing"
)

// prose is ordinary answer text with the occasional markup a model writes.
var prose = strings.Repeat("Retrieval-augmented generation combines a search step with a language model. "+
	"The model reads the retrieved passages, cites them as [1] and [2], and answers in plain words; "+
	"sometimes it uses `inline code` or compares a < b and b > c.\n\n", 200)

// BenchmarkFeedProse reports parser throughput on prose fed in chunks the
// size LLM servers stream (a few dozen bytes).
func BenchmarkFeedProse(b *testing.B) {
	chunks := splitEvery(prose, 48)
	b.SetBytes(int64(len(prose)))
	b.ReportAllocs()
	for b.Loop() {
		var p XMLParseState
		for _, c := range chunks {
			p.Feed(c)
		}
		p.Flush()
	}
}

// BenchmarkFeedLongBlock shows that time grows linearly with the size of a
// tool block streamed in small chunks: ns/op per byte stays flat.
func BenchmarkFeedLongBlock(b *testing.B) {
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10} {
		head := `<tool name="nanogo"><source>`
		tail := `</source></tool>`
		body := strings.Repeat("x := a < b\n", size)[:size-len(head)-len(tail)]
		block := head + body + tail
		chunks := splitEvery(block, 16)
		b.Run(fmt.Sprintf("%dK", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(block)))
			b.ReportAllocs()
			for b.Loop() {
				var p XMLParseState
				for _, c := range chunks {
					p.Feed(c)
				}
				p.Flush()
			}
		})
	}
}
