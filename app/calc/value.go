package calc

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Error is a failed evaluation: what went wrong and where.
type Error struct {
	// Pos is the 1-based character (rune) position the error refers to, or
	// 0 when it concerns the whole expression.
	Pos int
	// Msg says what is wrong.
	Msg string
	// Syntax marks a malformed expression, as opposed to one that is well
	// formed but cannot be computed (division by zero, a domain error).
	Syntax bool
}

// Error reads like "syntax error at position 7: expected ')' …" or
// "division by zero at position 4".
func (e *Error) Error() string {
	switch {
	case e.Syntax && e.Pos > 0:
		return fmt.Sprintf("syntax error at position %d: %s", e.Pos, e.Msg)
	case e.Syntax:
		return "syntax error: " + e.Msg
	case e.Pos > 0:
		return fmt.Sprintf("%s at position %d", e.Msg, e.Pos)
	}
	return e.Msg
}

// Value is the result of an evaluation.
type Value struct {
	// Exact is true when the value is an exact rational (every input and
	// operation allowed exact arithmetic); false when a float64 function
	// (sqrt of a non-square, sin, ln, …) or constant (pi, e) was involved.
	Exact bool
	r     *big.Rat // set when Exact
	f     float64  // set when !Exact
}

func exact(r *big.Rat) Value     { return Value{Exact: true, r: r} }
func approx(f float64) Value     { return Value{f: f} }
func exactInt(n int64) Value     { return exact(new(big.Rat).SetInt64(n)) }
func (v Value) isZero() bool     { return (v.Exact && v.r.Sign() == 0) || (!v.Exact && v.f == 0) }
func (v Value) isExactInt() bool { return v.Exact && v.r.IsInt() }

// Rat returns a copy of the exact value, or nil when the value is not exact.
func (v Value) Rat() *big.Rat {
	if !v.Exact {
		return nil
	}
	return new(big.Rat).Set(v.r)
}

// Float64 returns the value as the nearest float64 (±Inf if it is beyond
// float64's range).
func (v Value) Float64() float64 {
	if !v.Exact {
		return v.f
	}
	f, _ := v.r.Float64()
	return f
}

// Fraction returns "p/q" for an exact value that is not an integer, and ""
// otherwise.
func (v Value) Fraction() string {
	if !v.Exact || v.r.IsInt() {
		return ""
	}
	return v.r.String()
}

// sigDigits is how many significant digits rounded results show: float64
// carries about 15.9, and a dozen stays clear of accumulated rounding noise
// (so 0.1+0.2 done in floats would still print 0.3).
const sigDigits = 12

// maxExactDecimals is the longest fraction printed digit for digit when
// the decimal expansion terminates (1/1024 = 0.0009765625 is shown
// exactly; 2^-100 is rounded).
const maxExactDecimals = 30

// String renders the value in decimal: integers in full, terminating
// fractions exactly, everything else rounded to 12 significant digits.
// Rounded values of 1e12 or more, or below 1e-7, use scientific notation,
// so trailing zeros never pose as digits that were computed.
func (v Value) String() string {
	s, _ := v.decimal()
	return s
}

// decimal renders the value; exactText says whether the text is the exact
// value (an integer or a terminating decimal).
func (v Value) decimal() (text string, exactText bool) {
	if !v.Exact {
		return formatFloat(v.f), false
	}
	if v.r.IsInt() {
		return v.r.Num().String(), true
	}
	if n, ok := terminatingDecimals(v.r.Denom()); ok && n <= maxExactDecimals {
		return v.r.FloatString(n), true
	}
	return formatMantExp(ratScientific(v.r)), false
}

// ratScientific renders r rounded to sigDigits significant digits as
// "d.ddde±x". big.Float's Text would do it, but it expands the binary
// fraction exactly, which takes seconds for 2^-300000; scaling by a power
// of ten and dividing once stays fast.
func ratScientific(r *big.Rat) string {
	neg := r.Sign() < 0
	num := new(big.Int).Abs(r.Num())
	den := r.Denom()
	// Estimate the decimal exponent, then fix it if off by one.
	k := int(math.Floor((bigLog(num) - bigLog(den)) / math.Ln10))
	var digits string
	for range 3 {
		shift := sigDigits - 1 - k
		n, d := new(big.Int).Set(num), new(big.Int).Set(den)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(shift))), nil)
		if shift >= 0 {
			n.Mul(n, p)
		} else {
			d.Mul(d, p)
		}
		// Round half up: floor((2n + d) / 2d).
		n.Lsh(n, 1).Add(n, d)
		d.Lsh(d, 1)
		digits = n.Quo(n, d).String()
		switch {
		case len(digits) > sigDigits:
			k++
			continue
		case len(digits) < sigDigits:
			k--
			continue
		}
		break
	}
	if len(digits) > sigDigits {
		// Unreachable while the estimate is within ±1, but never print a
		// value ten times too small.
		digits, k = digits[:sigDigits], k+len(digits)-sigDigits
	}
	out := digits[:1] + "." + digits[1:] + fmt.Sprintf("e%+03d", k)
	if neg {
		out = "-" + out
	}
	return out
}

// terminatingDecimals reports whether 1/den has a finite decimal
// expansion (den = 2^a·5^b) and how many digits it needs (max(a, b)).
func terminatingDecimals(den *big.Int) (int, bool) {
	d := new(big.Int).Set(den)
	twos := int(d.TrailingZeroBits())
	d.Rsh(d, uint(twos))
	fives, ok := exactPower(d, big.NewInt(5))
	if !ok {
		return 0, false
	}
	return max(twos, int(fives)), true
}

func formatFloat(f float64) string {
	if f == 0 {
		return "0" // also for -0, which means nothing to a reader
	}
	return formatMantExp(strconv.FormatFloat(f, 'e', sigDigits-1, 64))
}

// formatMantExp turns a rounded "d.ddddde±x" into plain decimal with
// trailing zeros dropped, keeping scientific notation for magnitudes where
// plain digits would have to be padded with zeros that were not computed.
func formatMantExp(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		return "0"
	}
	var out string
	switch {
	case exp >= sigDigits || exp < -7:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		out += "e" + fmt.Sprintf("%+d", exp)
	case exp < 0:
		out = "0." + strings.Repeat("0", -exp-1) + digits
	case len(digits) <= exp+1:
		out = digits + strings.Repeat("0", exp+1-len(digits))
	default:
		out = digits[:exp+1] + "." + digits[exp+1:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// checkFloat rejects the non-numbers float64 arithmetic can produce.
func checkFloat(f float64, pos int, what string) (Value, error) {
	switch {
	case math.IsNaN(f):
		return Value{}, &Error{Pos: pos, Msg: what + " has no real result"}
	case math.IsInf(f, 0):
		return Value{}, &Error{Pos: pos, Msg: what + " is too large for floating point (beyond 1.8e308)"}
	}
	return approx(f), nil
}
