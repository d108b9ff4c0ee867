package calc

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// evalCase is an expression and the decimal text and exactness it must give.
type evalCase struct {
	expr  string
	want  string
	exact bool
}

func runEvalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tt := range cases {
		v, err := Eval(tt.expr)
		if err != nil {
			t.Errorf("Eval(%q): unexpected error %v", tt.expr, err)
			continue
		}
		if got := v.String(); got != tt.want || v.Exact != tt.exact {
			t.Errorf("Eval(%q) = %s (exact %v), want %s (exact %v)", tt.expr, got, v.Exact, tt.want, tt.exact)
		}
	}
}

func TestEval_Operators(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"1 + 2", "3", true},
		{"0.1 + 0.2", "0.3", true},
		{"5 - 8", "-3", true},
		{"5 − 8", "-3", true}, // U+2212 minus
		{"6 * 7", "42", true},
		{"6 × 7", "42", true},
		{"6 · 7", "42", true},
		{"1 / 8", "0.125", true},
		{"1 ÷ 8", "0.125", true},
		{"7 % 3", "1", true},
		{"-7 % 3", "2", true},  // floored: sign of the divisor
		{"7 % -3", "-2", true}, // sign glued to the operand: still modulo
		{"7.5 % 2", "1.5", true},
		{"200 * 15%", "30", true}, // percent at the end
		{"50% - 10", "-9.5", true},
		{"(12)%", "0.12", true},
		{"2 ^ 10", "1024", true},
		{"2 ** 10", "1024", true},
		{"2 ^ -2", "0.25", true},
		{"2 ^ 100", "1267650600228229401496703205376", true},
		{"(2/3) ^ 3", "0.296296296296", true},
		{"0 ^ 0", "1", true},
		{"(-1) ^ 1000001", "-1", true},
		{"1 ^ 100000000000", "1", true},
		{"5!", "120", true},
		{"0!", "1", true},
		{"30!", "265252859812191058636308480000000", true},
		{"3!!", "720", true},
		{"-3", "-3", true},
		{"+3", "3", true},
		{"--3", "3", true},
		{"180°", "3.14159265359", false},
		{".5 + 1.", "1.5", true},
		{"1e3 + 2.5E-2", "1000.025", true},
		{"1e-9", "0.000000001", true},
	})
}

func TestEval_PrecedenceAndAssociativity(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"3 * (17 + 5) / 2", "33", true},
		{"2 + 3 * 4", "14", true},
		{"(2 + 3) * 4", "20", true},
		{"10 - 4 - 3", "3", true},  // left-assoc
		{"64 / 4 / 2", "8", true},  // left-assoc
		{"2 ^ 3 ^ 2", "512", true}, // right-assoc
		{"-2 ^ 2", "-4", true},     // prefix minus binds looser than ^
		{"(-2) ^ 2", "4", true},
		{"-2 * 3", "-6", true},
		{"2 ^ -1", "0.5", true}, // sign allowed in exponent
		{"2 ^ 3!", "64", true},  // postfix binds tightest
		{"-3!", "-6", true},
		{"10 % 4 * 3", "6", true}, // % shares * precedence
		{"2 * 3 ^ 2", "18", true},
		{"1 - -1", "2", true},
		{"((((1))))", "1", true},
	})
}

func TestEval_Functions(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"sqrt(16)", "4", true},
		{"sqrt(16/9)", "1.33333333333", true},
		{"sqrt(2)", "1.41421356237", false},
		{"abs(-3.5)", "3.5", true},
		{"abs(-pi)", "3.14159265359", false},
		{"round(2.5)", "3", true},
		{"round(-2.5)", "-3", true}, // half away from zero
		{"round(3.14159, 2)", "3.14", true},
		{"round(1250, -2)", "1300", true},
		{"round(pi, 3)", "3.142", false},
		{"floor(-2.5)", "-3", true},
		{"floor(2.5)", "2", true},
		{"ceil(-2.5)", "-2", true},
		{"ceil(2.1)", "3", true},
		{"ln(1)", "0", true},
		{"ln(e)", "1", false},
		{"ln(10000!)", "82108.9278368", false}, // beyond float64, still computable
		{"log(1000)", "3", true},
		{"log(0.001)", "-3", true},
		{"log(2)", "0.301029995664", false},
		{"log(8, 2)", "3", true},
		{"log(10, 3)", "2.09590327429", false},
		{"log2(1024)", "10", true},
		{"log2(3)", "1.58496250072", false},
		{"exp(0)", "1", true},
		{"exp(1)", "2.71828182846", false},
		{"sin(0)", "0", true},
		{"sin(pi / 6)", "0.5", false},
		{"sin(pi)", "0", false}, // float noise snapped
		{"sin(30°)", "0.5", false},
		{"cos(0)", "1", true},
		{"cos(pi)", "-1", false},
		{"tan(pi / 4)", "1", false},
		{"asin(1)", "1.57079632679", false},
		{"acos(0.5)", "1.0471975512", false},
		{"atan(1) * 4", "3.14159265359", false},
		{"min(3, 1/2, 2)", "0.5", true},
		{"max(3, 1/2, 2)", "3", true},
		{"max(1, pi)", "3.14159265359", false},
		{"min(7)", "7", true},
		{"8 ^ (1/3)", "2", true},
		{"(-8) ^ (1/3)", "-2", true},
		{"(-2) ^ (1/3)", "-1.25992104989", false},
		{"2 ^ 0.5", "1.41421356237", false},
		{"(4/9) ^ 1.5", "0.296296296296", true},
		{"SQRT(4) + PI - π", "2", false},
		{"tau / pi", "2", false},
	})
}

func TestEval_Formatting(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"1/3", "0.333333333333", true},
		{"2/3", "0.666666666667", true},
		{"-1/3", "-0.333333333333", true},
		{"1/1024", "0.0009765625", true},
		{"2^-100", "7.88860905221e-31", true},
		{"1/7e8", "1.42857142857e-9", true},
		{"1e21/3", "3.33333333333e+20", true},
		{"12345678901234567890 * 10", "123456789012345678900", true},
		{"pi * 1e15", "3.14159265359e+15", false},
		{"pi / 1e9", "3.14159265359e-9", false},
		{"1 - 1.0", "0", true},
		{"-0 * pi", "0", false},
	})
}

func TestEval_ResultAccessors(t *testing.T) {
	v, err := Eval("1/3")
	if err != nil {
		t.Fatal(err)
	}
	if v.Rat().Cmp(big.NewRat(1, 3)) != 0 || v.Fraction() != "1/3" || math.Abs(v.Float64()-1.0/3) > 1e-16 {
		t.Errorf("1/3: Rat %v Fraction %q Float64 %v", v.Rat(), v.Fraction(), v.Float64())
	}
	v.Rat().SetInt64(7) // Rat is a copy: mutating it must not change v
	if v.String() != "0.333333333333" {
		t.Errorf("Rat leaked internal state: now %s", v)
	}
	w, _ := Eval("sqrt(2)")
	if w.Rat() != nil || w.Fraction() != "" {
		t.Errorf("inexact value reports Rat %v, Fraction %q", w.Rat(), w.Fraction())
	}
	n, _ := Eval("12")
	if n.Fraction() != "" {
		t.Errorf("integer reports a fraction %q", n.Fraction())
	}
}

// The exact factorial must agree with an independent product.
func TestEval_LargeFactorialIsExact(t *testing.T) {
	v, err := Eval("1000!")
	if err != nil {
		t.Fatal(err)
	}
	want := big.NewInt(1)
	for i := int64(2); i <= 1000; i++ {
		want.Mul(want, big.NewInt(i))
	}
	if v.String() != want.String() {
		t.Errorf("1000! differs from the product 1·2·…·1000")
	}
}

func TestEval_Errors(t *testing.T) {
	tests := []struct {
		expr    string
		pos     int
		syntax  bool
		message string
	}{
		{"1 / 0", 3, false, "division by zero at position 3"},
		{"1 ÷ (2 - 2)", 3, false, "division by zero at position 3"},
		{"1 / (pi - pi)", 3, false, "division by zero"},
		{"5 % 0", 3, false, "modulo by zero at position 3"},
		{"0 ^ -1", 3, false, "division by zero"},
		{"foo(2)", 1, false, `unknown name "foo" at position 1`},
		{"2 + bar", 5, false, `unknown name "bar" at position 5`},
		{"(1 + 2", 7, true, "syntax error at position 7: expected ')'"},
		{"max(1, 2", 9, true, "expected ',' or ')'"},
		{"1 +", 4, true, "syntax error at position 4: expression ends where a number was expected"},
		{"1 + * 2", 5, true, `expected a number, name or '(', found "*"`},
		{"2 3", 3, true, "expected an operator or the end, found number 3"},
		{"2pi", 2, true, `found name "pi"`},
		{"(1))", 4, true, "unmatched ')'"},
		{"1,000 + 1", 2, true, "write 1000, not 1,000"},
		{"1.2.3", 4, true, "found number .3"},
		{"3 $ 4", 3, false, `unexpected character '$' at position 3`},
		{"sqrt 4", 1, true, "function sqrt needs parentheses"},
		{"pi(2)", 1, true, "pi is a constant, not a function"},
		{"sqrt()", 1, false, "sqrt takes 1 argument, got 0"},
		{"log(1, 2, 3)", 1, false, "log takes 1 or 2 arguments, got 3"},
		{"max()", 1, false, "max takes at least 1 argument(s), got 0"},
		{"sqrt(-4)", 1, false, "square root of negative number -4 has no real result"},
		{"ln(0)", 1, false, "ln of 0 is undefined"},
		{"log(-1)", 1, false, "log of -1 is undefined"},
		{"log(8, 1)", 1, false, "log base 1 is invalid"},
		{"asin(2)", 1, false, "asin of 2 is undefined"},
		{"acos(-1.5)", 1, false, "acos of -1.5 is undefined"},
		{"(-2) ^ 0.5", 6, false, "has no real result"},
		{"2.5!", 4, false, "factorial needs a whole number, got 2.5"},
		{"(-3)!", 5, false, "factorial of negative number -3 is undefined"},
		{"10001!", 6, false, "factorial of 10001 is too large (limit 10000!)"},
		{"2 ^ 10000000", 3, false, "power too large to compute exactly"},
		{"2 ^ 2 ^ 2 ^ 2 ^ 2 ^ 2", 3, false, "power too large"},
		{"10000! ^ 10", 8, false, "power too large"},
		{"1e10001", 1, false, "exponent of 1e10001 is beyond ±10000"},
		{"exp(1000)", 1, false, "too large for floating point"},
		{"sqrt(10000!)", 1, false, "argument of sqrt is too large for floating point"},
		{"round(1, 0.5)", 1, false, "round's second argument must be a whole number"},
		{"", 0, false, "empty expression"},
		{"   ", 0, false, "empty expression"},
		{".", 1, true, "a lone '.' is not a number"},
		{"1 + \xff", 5, false, "invalid UTF-8"},
	}
	for _, tt := range tests {
		_, err := Eval(tt.expr)
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("Eval(%q): err %v, want *Error", tt.expr, err)
			continue
		}
		if ce.Pos != tt.pos || ce.Syntax != tt.syntax || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("Eval(%q): %q (pos %d, syntax %v); want pos %d, syntax %v, containing %q",
				tt.expr, err, ce.Pos, ce.Syntax, tt.pos, tt.syntax, tt.message)
		}
	}
}

func TestEval_AbuseLimits(t *testing.T) {
	tests := []struct {
		name, expr, message string
	}{
		{"too long", strings.Repeat("1+", MaxInputRunes/2) + "1", "the limit is 4096"},
		{"too deep", strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), "nested more than 200 levels"},
		{"too many signs", strings.Repeat("-", 300) + "1", "nested more than 200 levels"},
		{"product too costly", strings.Repeat("10000!*", 3) + "1", "too expensive"},
		{"power too large", "3^200000", "power too large to compute exactly"},
		{"negative power too large", "(-3)^200000", "power too large to compute exactly"},
		{"too much work", strings.Repeat("1e-9999+", 400) + "1", "too expensive"},
	}
	for _, c := range worstCases {
		// Each either finishes or stops at a limit; never anything else.
		if _, err := Eval(c.expr); err != nil && !strings.Contains(err.Error(), "too") {
			t.Errorf("worst case %s: unexpected error %v", c.name, err)
		}
	}
	for _, tt := range tests {
		_, err := Eval(tt.expr)
		if err == nil || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("%s: err %v, want it to mention %q", tt.name, err, tt.message)
		}
	}
	// Positions count characters, not bytes.
	_, err := Eval("π × 2 ÷ 0")
	var ce *Error
	if !errors.As(err, &ce) || ce.Pos != 7 {
		t.Errorf("position after multi-byte runes: %v, want 7", err)
	}
}

func TestFitExact_RejectsOversizedResults(t *testing.T) {
	big1 := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), MaxBits))
	if _, err := fitExact(big1, 9); err == nil || !strings.Contains(err.Error(), "result too large to compute exactly") {
		t.Errorf("numerator of %d bits: %v", MaxBits+1, err)
	}
	if _, err := fitExact(new(big.Rat).Inv(big1), 9); err == nil {
		t.Errorf("denominator of %d bits accepted", MaxBits+1)
	}
	if _, err := fitExact(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), MaxBits-1)), 9); err != nil {
		t.Errorf("%d bits rejected: %v", MaxBits, err)
	}
}

func TestEvalContext_CancelledContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EvalContext(ctx, "1 + 1"); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

// Floats agree with the standard library to the digits shown.
func TestEval_FloatFunctionsMatchMath(t *testing.T) {
	tests := []struct {
		expr string
		want float64
	}{
		{"sin(1)", math.Sin(1)},
		{"cos(2)", math.Cos(2)},
		{"tan(0.5)", math.Tan(0.5)},
		{"atan(3)", math.Atan(3)},
		{"ln(7)", math.Log(7)},
		{"exp(-3)", math.Exp(-3)},
		{"3 ^ 0.7", math.Pow(3, 0.7)},
		{"sqrt(5)", math.Sqrt(5)},
	}
	for _, tt := range tests {
		v, err := Eval(tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		want := strconv.FormatFloat(tt.want, 'g', sigDigits, 64)
		got, _ := strconv.ParseFloat(v.String(), 64)
		if strconv.FormatFloat(got, 'g', sigDigits, 64) != want {
			t.Errorf("%s = %s, want %s", tt.expr, v, want)
		}
	}
}

// ratScientific must agree with big.Float's (slow but exact) rendering.
func TestRatScientific_MatchesBigFloat(t *testing.T) {
	tests := []*big.Rat{
		big.NewRat(1, 3), big.NewRat(-2, 3), big.NewRat(1, 7), big.NewRat(22, 7),
		big.NewRat(999999999999, 1000000000000000), big.NewRat(1, 81),
		new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(40), nil), big.NewInt(3)),
		new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(7), big.NewInt(90), nil)),
		big.NewRat(19999999999999, 2000), // rounds up across a power of ten
	}
	for _, r := range tests {
		want := new(big.Float).SetPrec(1024).SetRat(r).Text('e', sigDigits-1)
		if got := ratScientific(r); got != want {
			t.Errorf("ratScientific(%s) = %s, want %s", r, got, want)
		}
	}
}

func TestEval_TinyExactResultRendersQuickly(t *testing.T) {
	// (1/50)^40000 has a 225,000-bit denominator; rendering it through
	// big.Float's exact binary expansion took seconds.
	v, err := Eval("(1/50)^40000")
	if err != nil {
		t.Fatal(err)
	}
	l := -40000 * math.Log10(50)
	exp := math.Floor(l)
	lead := strconv.FormatFloat(math.Pow(10, l-exp), 'f', 3, 64)
	want := lead[:4] // three significant digits are safe from log rounding
	if got := v.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "e"+strconv.Itoa(int(exp))) {
		t.Errorf("got %s, want %s…e%d", got, want, int(exp))
	}
}
