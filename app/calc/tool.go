package calc

import (
	"context"
	"fmt"
	"strings"

	"tinyrag/app/tool"
)

// maxShownDigits is where a huge exact integer is shown rounded in the tool
// result: the evidence packet keeps 6,000 runes per result, and a model
// needs the magnitude, not 35,660 digits of 10000!.
const maxShownDigits = 200

// Tool returns the "calculate" tool: <query> holds an expression, the
// result's Content restates it with the answer ("3 * (17 + 5) / 2 = 33"),
// and Source is "calculator".
func Tool() tool.Tool {
	return tool.Func{
		ToolName: "calculate",
		Elem:     tool.Query,
		Desc:     "exact arithmetic: + - * / % ^ ! ( ), sqrt abs round floor ceil ln log log2 exp sin cos tan asin acos atan min max, pi e; radians",
		Fn:       run,
	}
}

func run(ctx context.Context, input string) (tool.Result, error) {
	expr := strings.Join(strings.Fields(input), " ")
	// Models often phrase the query as an equation to complete.
	expr = strings.TrimSpace(strings.TrimRight(expr, "=? "))
	v, err := EvalContext(ctx, expr)
	if err != nil {
		return tool.Result{}, fmt.Errorf("calculate %q: %w", clipExpr(expr), err)
	}
	return tool.Result{Content: clipExpr(expr) + " " + Describe(v), Source: "calculator"}, nil
}

// Describe renders a value for a reader who must not mistake a rounded
// number for an exact one: "= 33", "= 0.333333333333… (exactly 1/3)",
// "≈ 1.41421356237".
func Describe(v Value) string {
	text, exactText := v.decimal()
	switch {
	case !v.Exact:
		return "≈ " + text
	case exactText && v.r.IsInt() && len(strings.TrimPrefix(text, "-")) > maxShownDigits:
		digits := len(strings.TrimPrefix(text, "-"))
		return fmt.Sprintf("≈ %s (exact integer with %d digits, shown rounded)", sciFromDigits(text), digits)
	case exactText:
		return "= " + text
	}
	if frac := v.r.String(); len(frac) <= maxShownDigits {
		return fmt.Sprintf("≈ %s (exactly %s)", text, frac)
	}
	return fmt.Sprintf("≈ %s (an exact fraction too long to show)", text)
}

// sciFromDigits rounds a long decimal integer to 12 significant digits in
// scientific notation without going through float64 (which would overflow).
func sciFromDigits(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	exp := len(s) - 1
	mant := s[:sigDigits]
	// Round half up on the next digit, carrying as needed.
	if s[sigDigits] >= '5' {
		b := []byte(mant)
		i := len(b) - 1
		for ; i >= 0 && b[i] == '9'; i-- {
			b[i] = '0'
		}
		if i < 0 {
			b = append([]byte{'1'}, b[:len(b)-1]...)
			exp++
		} else {
			b[i]++
		}
		mant = string(b)
	}
	out := formatMantExp(mant[:1] + "." + mant[1:] + fmt.Sprintf("e%+d", exp))
	if neg {
		out = "-" + out
	}
	return out
}

// clipExpr keeps an echoed expression short in the result.
func clipExpr(s string) string {
	r := []rune(s)
	if len(r) <= 300 {
		return s
	}
	return string(r[:300]) + "…"
}
