package sandbox

import (
	"context"
	"testing"
)

// BenchmarkRun_SmallSnippet measures the fixed cost of one run: a fresh
// interpreter, the symbol table, yaegi's generic packages and the snippet.
func BenchmarkRun_SmallSnippet(b *testing.B) {
	for b.Loop() {
		if out := Run(context.Background(), "fmt.Println(2 + 2)", Limits{}); out.Stdout != "4\n" {
			b.Fatalf("Run = %+v", out)
		}
	}
}

// BenchmarkRun_Loop measures interpreted arithmetic: a million iterations.
func BenchmarkRun_Loop(b *testing.B) {
	for b.Loop() {
		out := Run(context.Background(), "s := 0\nfor i := 0; i < 1000000; i++ { s += i }\nfmt.Println(s)", Limits{})
		if out.Stdout != "499999500000\n" {
			b.Fatalf("Run = %+v", out)
		}
	}
}
