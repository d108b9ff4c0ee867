package calc

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"tinyrag/app/tool"
)

func TestTool_Contract(t *testing.T) {
	tl := Tool()
	if tl.Name() != "calculate" || tl.Element() != tool.Query {
		t.Errorf("name %q element %q, want calculate/query", tl.Name(), tl.Element())
	}
	if d := tl.Description(); d == "" || strings.Contains(d, "\n") {
		t.Errorf("description must be one non-empty line, got %q", d)
	}
}

func TestTool_ResultRestatesExpressionAndAnswer(t *testing.T) {
	tests := []struct {
		input, want string
	}{
		{"3 * (17 + 5) / 2", "3 * (17 + 5) / 2 = 33"},
		{"  0.1 +\n 0.2 ", "0.1 + 0.2 = 0.3"},
		{"1/3", "1/3 ≈ 0.333333333333 (exactly 1/3)"},
		{"sqrt(2)", "sqrt(2) ≈ 1.41421356237"},
		{"2^10", "2^10 = 1024"},
		{"6 × 7 = ?", "6 × 7 = 42"},
		{"6 × 7 =", "6 × 7 = 42"},
		{"10000!", "10000! ≈ 2.84625968092e+35659 (exact integer with 35660 digits, shown rounded)"},
		{"-(10^300 - 1)", "-(10^300 - 1) ≈ -1e+300 (exact integer with 300 digits, shown rounded)"},
	}
	for _, tt := range tests {
		res, err := Tool().Run(context.Background(), tt.input)
		if err != nil {
			t.Errorf("%q: %v", tt.input, err)
			continue
		}
		if res.Content != tt.want || res.Source != "calculator" {
			t.Errorf("%q: got %q from %q, want %q from calculator", tt.input, res.Content, res.Source, tt.want)
		}
	}
}

func TestTool_ErrorNamesExpressionAndProblem(t *testing.T) {
	_, err := Tool().Run(context.Background(), "1 / 0")
	if err == nil || !strings.Contains(err.Error(), `"1 / 0"`) || !strings.Contains(err.Error(), "division by zero at position 3") {
		t.Errorf("err %v, want the expression and the problem with its position", err)
	}
}

func TestTool_LongExpressionIsClippedInResult(t *testing.T) {
	expr := strings.Repeat("1 + ", 200) + "1"
	res, err := Tool().Run(context.Background(), expr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Content, "… = 201") || utf8.RuneCountInString(res.Content) > 320 {
		t.Errorf("content %q: want the echo clipped and the answer kept", res.Content)
	}
}

func TestSciFromDigits_RoundsAndCarries(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1234567890123456", "1.23456789012e+15"},
		{"9999999999995000", "1e+16"},
		{"-1234567890125000", "-1.23456789013e+15"},
	}
	for _, tt := range tests {
		if got := sciFromDigits(tt.in); got != tt.want {
			t.Errorf("sciFromDigits(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
