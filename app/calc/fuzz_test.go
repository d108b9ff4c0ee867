package calc

import (
	"errors"
	"strings"
	"testing"
)

// FuzzEval checks that no input panics, that every failure is an *Error
// with a position inside the input, and that an exact decimal result reads
// back as the same number.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"3 * (17 + 5) / 2", "0.1 + 0.2", "2^100", "30!", "1/3", "-2^2", "2^3^2",
		"sqrt(2)", "round(3.14159, 2)", "log(8, 2)", "max(1, pi, e)", "sin(30°)",
		"7 % -3", "50% - 10", "(-8)^(1/3)", "1e-9", "π × 2 ÷ 0", "((1)", "2pi",
		"10000!", "2 ** 10", "asin(2)", "1.2.3", "--3!", "4!!", "0^0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Eval(expr)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Eval(%q): error %v is not an *Error", expr, err)
			}
			if ce.Pos < 0 || ce.Pos > len([]rune(expr))+1 {
				t.Fatalf("Eval(%q): position %d outside the input", expr, ce.Pos)
			}
			return
		}
		text, exactText := v.decimal()
		if text == "" || Describe(v) == "" {
			t.Fatalf("Eval(%q): empty rendering", expr)
		}
		if v.Exact != (v.Rat() != nil) {
			t.Fatalf("Eval(%q): Exact %v but Rat %v", expr, v.Exact, v.Rat())
		}
		if exactText && len(text) < 1000 && !strings.Contains(text, "e") {
			back, err := Eval(text)
			if err != nil || !back.Exact || back.r.Cmp(v.r) != 0 {
				t.Fatalf("Eval(%q) = %s, which reads back as %v (%v)", expr, text, back, err)
			}
		}
	})
}
