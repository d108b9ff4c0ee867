package calc

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"sync"
)

// constants are the named values. They are float64 approximations, so any
// result that uses them is inexact.
var constants = map[string]float64{
	"pi":  math.Pi,
	"e":   math.E,
	"tau": 2 * math.Pi,
}

type function struct {
	minArgs, maxArgs int // maxArgs < 0: variadic
	fn               func(args []Value, pos int) (Value, error)
}

func (f function) arity() string {
	switch {
	case f.maxArgs < 0:
		return fmt.Sprintf("at least %d argument(s)", f.minArgs)
	case f.minArgs == f.maxArgs && f.minArgs == 1:
		return "1 argument"
	case f.minArgs == f.maxArgs:
		return fmt.Sprintf("%d arguments", f.minArgs)
	}
	return fmt.Sprintf("%d or %d arguments", f.minArgs, f.maxArgs)
}

// functions are made on first use, not at the app's start: the map's
// initialiser is code the first screen never runs.
var functions = sync.OnceValue(func() map[string]function {
	return map[string]function{
		"sqrt":  {1, 1, sqrtFn},
		"abs":   {1, 1, absFn},
		"round": {1, 2, roundFn},
		"floor": {1, 1, func(a []Value, pos int) (Value, error) { return roundWith(a[0], pos, floorRat, math.Floor) }},
		"ceil": {1, 1, func(a []Value, pos int) (Value, error) {
			return roundWith(a[0], pos, func(r *big.Rat) *big.Rat { return new(big.Rat).Neg(floorRat(new(big.Rat).Neg(r))) }, math.Ceil)
		}},
		"ln":   {1, 1, func(a []Value, pos int) (Value, error) { return logFn("ln", a, pos, math.Log, nil) }},
		"log":  {1, 2, func(a []Value, pos int) (Value, error) { return logFn("log", a, pos, math.Log10, big.NewInt(10)) }},
		"log2": {1, 1, func(a []Value, pos int) (Value, error) { return logFn("log2", a, pos, math.Log2, big.NewInt(2)) }},
		"exp":  {1, 1, expFn},
		"sin":  {1, 1, trig("sin", math.Sin)},
		"cos":  {1, 1, trig("cos", math.Cos)},
		"tan":  {1, 1, trig("tan", math.Tan)},
		"asin": {1, 1, inverseTrig("asin", math.Asin)},
		"acos": {1, 1, inverseTrig("acos", math.Acos)},
		"atan": {1, 1, func(a []Value, pos int) (Value, error) { return floatFn("atan", a[0], pos, math.Atan) }},
		"min":  {1, -1, func(a []Value, pos int) (Value, error) { return pick(a, -1), nil }},
		"max":  {1, -1, func(a []Value, pos int) (Value, error) { return pick(a, 1), nil }},
	}
})

// Names lists the functions and constants Eval understands, for the tool
// description and error hints.
func Names() []string {
	var out []string
	for k := range functions() {
		out = append(out, k)
	}
	for k := range constants {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// toFloat converts an argument for a float64 function, refusing numbers
// float64 cannot hold instead of silently computing with infinity.
func toFloat(name string, x Value, pos int) (float64, error) {
	f := x.Float64()
	if math.IsInf(f, 0) {
		return 0, &Error{Pos: pos, Msg: fmt.Sprintf("argument of %s is too large for floating point (beyond 1.8e308)", name)}
	}
	return f, nil
}

func floatFn(name string, x Value, pos int, f func(float64) float64) (Value, error) {
	v, err := toFloat(name, x, pos)
	if err != nil {
		return Value{}, err
	}
	return checkFloat(f(v), pos, name+"("+x.String()+")")
}

func sqrtFn(a []Value, pos int) (Value, error) {
	x := a[0]
	if (x.Exact && x.r.Sign() < 0) || (!x.Exact && x.f < 0) {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("square root of negative number %s has no real result", x)}
	}
	if x.Exact {
		n, ok1 := intRoot(x.r.Num(), 2)
		d, ok2 := intRoot(x.r.Denom(), 2)
		if ok1 && ok2 {
			return exact(new(big.Rat).SetFrac(n, d)), nil
		}
	}
	return floatFn("sqrt", x, pos, math.Sqrt)
}

func absFn(a []Value, _ int) (Value, error) {
	if a[0].Exact {
		return exact(new(big.Rat).Abs(a[0].r)), nil
	}
	return approx(math.Abs(a[0].f)), nil
}

// roundFn rounds half away from zero, to an integer or, with a second
// argument n, to n decimal places (n may be negative: round(1234, -2) = 1200).
func roundFn(a []Value, pos int) (Value, error) {
	places := 0
	if len(a) == 2 {
		p := a[1]
		if !p.isExactInt() || !p.r.Num().IsInt64() || abs64(p.r.Num().Int64()) > 1000 {
			return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("round's second argument must be a whole number of decimal places between -1000 and 1000, got %s", p)}
		}
		places = int(p.r.Num().Int64())
	}
	x := a[0]
	wasExact := x.Exact
	if !x.Exact {
		if math.IsInf(x.f, 0) || math.IsNaN(x.f) {
			return Value{}, &Error{Pos: pos, Msg: "round of a non-finite number"}
		}
		x = exact(new(big.Rat).SetFloat64(x.f))
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(places))), nil))
	r := new(big.Rat).Set(x.r)
	if places >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	// Half away from zero: floor(|r| + 1/2) with the sign put back.
	half := big.NewRat(1, 2)
	m := floorRat(new(big.Rat).Add(new(big.Rat).Abs(r), half))
	if r.Sign() < 0 {
		m.Neg(m)
	}
	if places >= 0 {
		m.Quo(m, scale)
	} else {
		m.Mul(m, scale)
	}
	if wasExact {
		return fitExact(m, pos)
	}
	f, _ := m.Float64()
	return approx(f), nil
}

func roundWith(x Value, pos int, exactFn func(*big.Rat) *big.Rat, floatFn func(float64) float64) (Value, error) {
	if x.Exact {
		return exact(exactFn(x.r)), nil
	}
	return checkFloat(floatFn(x.f), pos, "rounding")
}

// logFn computes a logarithm. base, when set, lets exact powers of the
// base give exact answers (log(1000) = 3, log2(1024) = 10) instead of
// 2.9999999999999996. With two arguments, log(x, b) is the base-b log.
func logFn(name string, a []Value, pos int, f func(float64) float64, base *big.Int) (Value, error) {
	x := a[0]
	if (x.Exact && x.r.Sign() <= 0) || (!x.Exact && x.f <= 0) {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("%s of %s is undefined (needs a positive number)", name, x)}
	}
	if len(a) == 2 {
		b := a[1]
		if (b.Exact && (b.r.Sign() <= 0 || b.r.Cmp(big.NewRat(1, 1)) == 0)) || (!b.Exact && (b.f <= 0 || b.f == 1)) {
			return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("log base %s is invalid (needs a positive number other than 1)", b)}
		}
		if b.isExactInt() && b.r.Num().Sign() > 0 {
			base = b.r.Num()
		} else {
			base = nil
		}
		if base != nil && x.Exact {
			if k, ok := exactLog(x.r, base); ok {
				return exactInt(k), nil
			}
		}
		lx, err := toFloat(name, x, pos)
		if err != nil {
			return Value{}, err
		}
		lb, err := toFloat(name, b, pos)
		if err != nil {
			return Value{}, err
		}
		return checkFloat(math.Log(lx)/math.Log(lb), pos, name)
	}
	if x.Exact {
		if x.r.Cmp(big.NewRat(1, 1)) == 0 {
			return exactInt(0), nil
		}
		if base != nil {
			if k, ok := exactLog(x.r, base); ok {
				return exactInt(k), nil
			}
		}
		if f, _ := x.r.Float64(); math.IsInf(f, 0) || f == 0 {
			// Beyond float64 range: log(n/d) = log(n) - log(d) keeps
			// ln(10000!) computable.
			return checkFloat((bigLog(x.r.Num())-bigLog(x.r.Denom()))/math.Log(baseOf(name)), pos, name)
		}
	}
	return floatFn(name, x, pos, f)
}

func baseOf(name string) float64 {
	switch name {
	case "log":
		return 10
	case "log2":
		return 2
	}
	return math.E
}

// bigLog is the natural log of |n| for a big integer of any size.
func bigLog(n *big.Int) float64 {
	shift := max(n.BitLen()-64, 0)
	top := new(big.Int).Rsh(new(big.Int).Abs(n), uint(shift))
	f, _ := new(big.Float).SetInt(top).Float64()
	return math.Log(f) + float64(shift)*math.Ln2
}

// exactLog returns k when x = base^k for an integer k.
func exactLog(x *big.Rat, base *big.Int) (int64, bool) {
	if base.Cmp(big.NewInt(2)) < 0 {
		return 0, false
	}
	n, d := x.Num(), x.Denom()
	sign := int64(1)
	if n.Cmp(big.NewInt(1)) == 0 && d.Cmp(big.NewInt(1)) != 0 {
		n, sign = d, -1
	} else if d.Cmp(big.NewInt(1)) != 0 {
		return 0, false
	}
	k, ok := exactPower(n, base)
	return sign * k, ok
}

// exactPower returns k when n = base^k (n ≥ 1, base ≥ 2). It estimates k
// from the logarithm and checks that one candidate, instead of dividing
// k times, which is quadratic for the 100,000-digit numbers the limits allow.
func exactPower(n, base *big.Int) (int64, bool) {
	if n.Cmp(big.NewInt(1)) == 0 {
		return 0, true
	}
	if n.Sign() <= 0 {
		return 0, false
	}
	k := int64(math.Round(bigLog(n) / bigLog(base)))
	if k < 1 {
		return 0, false
	}
	return k, new(big.Int).Exp(base, big.NewInt(k), nil).Cmp(n) == 0
}

func expFn(a []Value, pos int) (Value, error) {
	if a[0].Exact && a[0].r.Sign() == 0 {
		return exactInt(1), nil
	}
	return floatFn("exp", a[0], pos, math.Exp)
}

// trig wraps sin, cos, tan. An argument of exactly 0 gives an exact result.
// Results within float noise of zero for arguments of size ≥ 1 are snapped
// to 0: sin(pi) is 1.2e-16 only because pi is rounded, and a reader (or a
// model) should see 0.
func trig(name string, f func(float64) float64) func([]Value, int) (Value, error) {
	return func(a []Value, pos int) (Value, error) {
		x := a[0]
		if x.Exact && x.r.Sign() == 0 {
			if name == "cos" {
				return exactInt(1), nil
			}
			return exactInt(0), nil
		}
		v, err := toFloat(name, x, pos)
		if err != nil {
			return Value{}, err
		}
		if math.Abs(v) > 1e15 {
			return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("argument of %s is too large (%s) for a meaningful result", name, x)}
		}
		r := f(v)
		if math.Abs(v) >= 1 && math.Abs(r) < 1e-14*math.Abs(v) {
			r = 0
		}
		return checkFloat(r, pos, name+"("+x.String()+")")
	}
}

func inverseTrig(name string, f func(float64) float64) func([]Value, int) (Value, error) {
	return func(a []Value, pos int) (Value, error) {
		x := a[0]
		v := x.Float64()
		if v < -1 || v > 1 {
			return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("%s of %s is undefined (needs a number from -1 to 1)", name, x)}
		}
		if x.Exact && x.r.Sign() == 0 && name == "asin" {
			return exactInt(0), nil
		}
		return checkFloat(f(v), pos, name)
	}
}

// pick returns the smallest (dir -1) or largest (dir 1) argument, comparing
// exactly when both sides are exact.
func pick(a []Value, dir int) Value {
	best := a[0]
	for _, v := range a[1:] {
		var c int
		if best.Exact && v.Exact {
			c = v.r.Cmp(best.r)
		} else {
			x, y := v.Float64(), best.Float64()
			switch {
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
		}
		if c == dir {
			best = v
		}
	}
	return best
}
