package calc

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"runtime"
)

// Limits that keep a hostile expression from eating the CPU or memory of
// the browser tab it runs in.
const (
	// MaxFactorial is the largest n for which n! is computed (35,660 digits).
	MaxFactorial = 10000
	// MaxBits bounds the numerator and denominator of every exact
	// intermediate result: about 78,000 decimal digits.
	MaxBits = 1 << 18
	// maxWork bounds the total cost of the exact arithmetic in one
	// expression, in squared machine words of the operands (the cost of
	// a schoolbook multiplication or a gcd). Without it, 450 additions of
	// 1e-99999 fit in 4,096 characters and take half a minute; with it,
	// the worst expression finishes in about a tenth of a second natively
	// (see BenchmarkEval_WorstCase).
	maxWork = 1 << 26
	// maxRootDegree bounds q when trying an exact root for x^(p/q).
	maxRootDegree = 64
)

// Eval parses and evaluates expr. See the package documentation for the
// grammar. Errors are *Error values carrying the position they refer to.
func Eval(expr string) (Value, error) {
	return EvalContext(context.Background(), expr)
}

// Check reports whether expr is a well-formed expression, without
// evaluating it: 1/0 passes (its error is one of evaluation), 1/ fails.
func Check(expr string) error {
	_, err := parse(expr)
	return err
}

// EvalContext is Eval that gives up when ctx is done. Each step is bounded
// by the limits above, so checking between steps is enough.
func EvalContext(ctx context.Context, expr string) (Value, error) {
	n, err := parse(expr)
	if err != nil {
		return Value{}, err
	}
	ev := &evaluator{ctx: ctx}
	return ev.eval(n)
}

type evaluator struct {
	ctx   context.Context
	work  int64 // spent so far, see maxWork
	steps int
}

// charge accounts for an exact operation whose operands (or result) are
// about bits long, and fails once the expression has spent its budget.
func (ev *evaluator) charge(pos, bits int) error {
	w := int64(bits/64 + 1)
	ev.work += w * w
	if ev.work > maxWork {
		return &Error{Pos: pos, Msg: "expression too expensive to compute exactly (work limit reached)"}
	}
	return nil
}

// ratBits is the size that drives the cost of arithmetic on r.
func ratBits(vs ...Value) int {
	b := 0
	for _, v := range vs {
		if v.Exact {
			b = max(b, v.r.Num().BitLen(), v.r.Denom().BitLen())
		}
	}
	return b
}

func (ev *evaluator) eval(n *node) (Value, error) {
	if err := ev.ctx.Err(); err != nil {
		return Value{}, fmt.Errorf("calculation abandoned: %w", err)
	}
	// Under js/wasm there is no preemption: yielding now and then lets the
	// timer behind a context deadline fire, so ctx.Err above can see it.
	if ev.steps++; ev.steps%64 == 0 {
		runtime.Gosched()
	}
	switch n.kind {
	case nodeNum:
		return exact(n.num), nil
	case nodeConst:
		return approx(constants[n.name]), nil
	case nodeUnary:
		x, err := ev.eval(n.args[0])
		if err != nil || n.op == "+" {
			return x, err
		}
		if x.Exact {
			return exact(new(big.Rat).Neg(x.r)), nil
		}
		return approx(-x.f), nil
	case nodePostfix:
		x, err := ev.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		switch n.op {
		case "!":
			if x.isExactInt() && x.r.Num().IsInt64() {
				// n! has about n·log2(n) bits.
				k := min(max(x.r.Num().Int64(), 1), MaxFactorial+1)
				if err := ev.charge(n.pos, int(float64(k)*math.Log2(float64(k)+1))); err != nil {
					return Value{}, err
				}
			}
			return factorial(x, n.pos)
		case "%":
			return div(x, exactInt(100), n.pos)
		default: // "°"
			return mul(x, approx(math.Pi/180), n.pos)
		}
	case nodeBinary:
		a, err := ev.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		b, err := ev.eval(n.args[1])
		if err != nil {
			return Value{}, err
		}
		// Rational + - / % cross-multiply, then reduce by a gcd of
		// numbers twice as long as the operands.
		if err := ev.charge(n.pos, 2*ratBits(a, b)); err != nil {
			return Value{}, err
		}
		if n.op == "^" && a.Exact && b.Exact {
			// Charge for the result a^(p/q), about bits(a)·|p|/q long;
			// pow itself refuses results beyond MaxBits.
			p := new(big.Float).SetInt(b.r.Num())
			p.Quo(p, new(big.Float).SetInt(b.r.Denom()))
			f, _ := p.Float64()
			if est := float64(ratBits(a)) * math.Abs(f); est <= MaxBits*2 {
				if err := ev.charge(n.pos, int(est)); err != nil {
					return Value{}, err
				}
			}
		}
		switch n.op {
		case "+":
			return add(a, b, n.pos)
		case "-":
			return add(a, neg(b), n.pos)
		case "*":
			return mul(a, b, n.pos)
		case "/":
			return div(a, b, n.pos)
		case "%":
			return mod(a, b, n.pos)
		default: // "^"
			return pow(a, b, n.pos)
		}
	default: // nodeCall
		args := make([]Value, len(n.args))
		for i, a := range n.args {
			v, err := ev.eval(a)
			if err != nil {
				return Value{}, err
			}
			args[i] = v
		}
		if err := ev.charge(n.pos, ratBits(args...)); err != nil {
			return Value{}, err
		}
		return functions()[n.name].fn(args, n.pos)
	}
}

// fitExact rejects exact results whose size would make later steps slow.
func fitExact(r *big.Rat, pos int) (Value, error) {
	if r.Num().BitLen() > MaxBits || r.Denom().BitLen() > MaxBits {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("result too large to compute exactly (over %d bits, about %d digits)", MaxBits, MaxBits*3/10)}
	}
	return exact(r), nil
}

func neg(x Value) Value {
	if x.Exact {
		return exact(new(big.Rat).Neg(x.r))
	}
	return approx(-x.f)
}

func add(a, b Value, pos int) (Value, error) {
	if a.Exact && b.Exact {
		return fitExact(new(big.Rat).Add(a.r, b.r), pos)
	}
	return checkFloat(a.Float64()+b.Float64(), pos, "sum")
}

func mul(a, b Value, pos int) (Value, error) {
	if a.Exact && b.Exact {
		return fitExact(new(big.Rat).Mul(a.r, b.r), pos)
	}
	return checkFloat(a.Float64()*b.Float64(), pos, "product")
}

func div(a, b Value, pos int) (Value, error) {
	if b.isZero() {
		return Value{}, &Error{Pos: pos, Msg: "division by zero"}
	}
	if a.Exact && b.Exact {
		return fitExact(new(big.Rat).Quo(a.r, b.r), pos)
	}
	return checkFloat(a.Float64()/b.Float64(), pos, "quotient")
}

// mod is floored modulo: a - b·floor(a/b), so the result takes the sign of
// b, as in mathematics and Python (and unlike C, Go and JavaScript).
func mod(a, b Value, pos int) (Value, error) {
	if b.isZero() {
		return Value{}, &Error{Pos: pos, Msg: "modulo by zero"}
	}
	if a.Exact && b.Exact {
		q := new(big.Rat).Quo(a.r, b.r)
		fl := floorRat(q)
		return fitExact(new(big.Rat).Sub(a.r, new(big.Rat).Mul(b.r, fl)), pos)
	}
	x, y := a.Float64(), b.Float64()
	m := math.Mod(x, y)
	if m != 0 && (m < 0) != (y < 0) {
		m += y
	}
	return checkFloat(m, pos, "modulo")
}

func floorRat(r *big.Rat) *big.Rat {
	q := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean; denominator > 0, so this is floor
	return new(big.Rat).SetInt(q)
}

func factorial(x Value, pos int) (Value, error) {
	if !x.Exact {
		// A float that is a whole number (say round(2.9·…)) is fine.
		if x.f != math.Trunc(x.f) || math.IsInf(x.f, 0) {
			return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("factorial needs a whole number, got %s", x)}
		}
		x = exact(new(big.Rat).SetFloat64(x.f))
	}
	if !x.r.IsInt() {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("factorial needs a whole number, got %s", x)}
	}
	n := x.r.Num()
	if n.Sign() < 0 {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("factorial of negative number %s is undefined", x)}
	}
	if !n.IsInt64() || n.Int64() > MaxFactorial {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("factorial of %s is too large (limit %d!)", x, MaxFactorial)}
	}
	f := new(big.Int).MulRange(1, n.Int64())
	return exact(new(big.Rat).SetInt(f)), nil
}

// pow computes a^b exactly when it can: integer exponents, and rational
// exponents p/q when a is a perfect q-th power (8^(1/3) = 2). Otherwise it
// uses float64.
func pow(a, b Value, pos int) (Value, error) {
	if a.Exact && b.Exact {
		if b.r.IsInt() {
			return powInt(a.r, b.r.Num(), pos)
		}
		if v, ok, err := powRational(a.r, b.r, pos); ok || err != nil {
			return v, err
		}
	}
	x, y := a.Float64(), b.Float64()
	if x == 0 && y < 0 {
		return Value{}, &Error{Pos: pos, Msg: "division by zero (0 raised to a negative power)"}
	}
	if x < 0 && y != math.Trunc(y) {
		// An odd root of a negative number is real: (-8)^(1/3) = -2.
		if b.Exact && b.r.Denom().Bit(0) == 1 {
			r := math.Pow(-x, y)
			if b.r.Num().Bit(0) == 1 {
				r = -r
			}
			return checkFloat(r, pos, "power")
		}
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("negative number %s raised to the fractional power %s has no real result", a, b)}
	}
	return checkFloat(math.Pow(x, y), pos, "power")
}

func powInt(base *big.Rat, e *big.Int, pos int) (Value, error) {
	switch {
	case base.Sign() == 0:
		if e.Sign() < 0 {
			return Value{}, &Error{Pos: pos, Msg: "division by zero (0 raised to a negative power)"}
		}
		if e.Sign() == 0 {
			return exactInt(1), nil // the usual convention for 0^0
		}
		return exactInt(0), nil
	case base.IsInt() && base.Num().CmpAbs(big.NewInt(1)) == 0:
		if base.Sign() > 0 || e.Bit(0) == 0 {
			return exactInt(1), nil
		}
		return exactInt(-1), nil
	}
	// |e|·log2(base) predicts the result's size before computing it.
	if !e.IsInt64() || e.Int64() > MaxBits || e.Int64() < -MaxBits ||
		float64(abs64(e.Int64()))*max(bigLog(base.Num()), bigLog(base.Denom()))/math.Ln2 > MaxBits {
		return Value{}, &Error{Pos: pos, Msg: fmt.Sprintf("power too large to compute exactly (over %d bits, about %d digits)", MaxBits, MaxBits*3/10)}
	}
	k := new(big.Int).Abs(e)
	num := new(big.Int).Exp(base.Num(), k, nil)
	den := new(big.Int).Exp(base.Denom(), k, nil)
	if e.Sign() < 0 {
		num, den = den, num
		if num.Sign() == 0 {
			return Value{}, &Error{Pos: pos, Msg: "division by zero"}
		}
	}
	return fitExact(new(big.Rat).SetFrac(num, den), pos)
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// powRational tries base^(p/q) exactly. ok is false when the root is not
// exact (or q is too large to try), so the caller falls back to float64.
func powRational(base, e *big.Rat, pos int) (v Value, ok bool, err error) {
	q := e.Denom()
	if !q.IsInt64() || q.Int64() > maxRootDegree {
		return Value{}, false, nil
	}
	n := int(q.Int64())
	negBase := base.Sign() < 0
	if negBase && n%2 == 0 {
		return Value{}, false, nil // no real even root; pow reports it
	}
	absBase := new(big.Rat).Abs(base)
	rn, ok1 := intRoot(absBase.Num(), n)
	rd, ok2 := intRoot(absBase.Denom(), n)
	if !ok1 || !ok2 {
		return Value{}, false, nil
	}
	root := new(big.Rat).SetFrac(rn, rd)
	if negBase {
		root.Neg(root)
	}
	v, err = powInt(root, e.Num(), pos)
	return v, true, err
}

// intRoot returns the exact n-th root of x ≥ 0, if x is a perfect n-th power.
func intRoot(x *big.Int, n int) (*big.Int, bool) {
	if x.Sign() == 0 || x.Cmp(big.NewInt(1)) == 0 {
		return new(big.Int).Set(x), true
	}
	if n == 2 {
		r := new(big.Int).Sqrt(x)
		return r, new(big.Int).Mul(r, r).Cmp(x) == 0
	}
	// Newton's method from an overestimate 2^ceil(bits/n).
	N := big.NewInt(int64(n))
	N1 := big.NewInt(int64(n - 1))
	r := new(big.Int).Lsh(big.NewInt(1), uint((x.BitLen()+n-1)/n))
	var t, p big.Int
	for {
		// next = ((n-1)·r + x / r^(n-1)) / n
		p.Exp(r, N1, nil)
		t.Quo(x, &p)
		t.Add(&t, new(big.Int).Mul(N1, r))
		t.Quo(&t, N)
		if t.Cmp(r) >= 0 {
			break
		}
		r.Set(&t)
	}
	return r, new(big.Int).Exp(r, N, nil).Cmp(x) == 0
}
