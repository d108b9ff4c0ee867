package calc

import (
	"strings"
	"testing"
)

// Worst cases an abusive model (or user) can write within MaxInputRunes.
// They bound how long the calculator can hold the browser's main thread.
var worstCases = []struct{ name, expr string }{
	{"factorials", strings.Repeat("10000!+", MaxInputRunes/7-1) + "1"},
	{"big literals", strings.Repeat("1e10000+", MaxInputRunes/8-1) + "1"},
	{"tiny fractions", strings.Repeat("1e-9999+", MaxInputRunes/8-1) + "1"},
	{"coprime fractions", strings.Repeat("1/9999991+1/9999973+", MaxInputRunes/20-1) + "1"},
	{"powers", strings.Repeat("3^300000+", MaxInputRunes/9-1) + "1"},
	{"roots", strings.Repeat("(3^6000)^(1/3)+", MaxInputRunes/16-1) + "1"},
	{"rendering", "(1/50)^40000"},
}

func BenchmarkEval_WorstCase(b *testing.B) {
	for _, c := range worstCases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				v, err := Eval(c.expr)
				if err == nil {
					_ = Describe(v)
				}
			}
		})
	}
}

func BenchmarkEval_Typical(b *testing.B) {
	for b.Loop() {
		v, err := Eval("3 * (17 + 5) / 2 + sqrt(2) - 0.1 * 2^10")
		if err != nil {
			b.Fatal(err)
		}
		_ = Describe(v)
	}
}
