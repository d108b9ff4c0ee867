package calc

import (
	"fmt"
	"math/big"
	"strings"
)

// MaxInputRunes bounds an expression; the engine caps tool input at the
// same 4,096 runes.
const MaxInputRunes = 4096

// maxDepth bounds nesting so "((((…" cannot exhaust the stack (the wasm
// stack in particular).
const maxDepth = 200

// maxLiteralExp bounds the exponent of a literal like 1e5000, which is
// built exactly at parse time, before the work budget applies.
const maxLiteralExp = 10000

type nodeKind int

const (
	nodeNum nodeKind = iota
	nodeConst
	nodeUnary   // op: "-" or "+"
	nodeBinary  // op: + - * / % ^
	nodePostfix // op: ! % °
	nodeCall
)

// node is one AST node. pos points at what an error should blame: the
// operator, the function name, the literal.
type node struct {
	kind nodeKind
	pos  int
	op   string
	num  *big.Rat
	name string
	args []*node
}

// Binding powers. Prefix minus sits between * and ^ so that -2^2 = -4 and
// -2*3 = (-2)*3; postfix operators bind tightest so that 2^3! = 2^6.
const (
	bpAdd     = 10
	bpMul     = 20
	bpPrefix  = 25
	bpPow     = 30
	bpPostfix = 40
)

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// parse turns an expression into an AST, reporting the first syntax error.
func parse(expr string) (*node, error) {
	if n := len([]rune(expr)); n > MaxInputRunes {
		return nil, &Error{Msg: fmt.Sprintf("expression is %d characters long; the limit is %d", n, MaxInputRunes)}
	}
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	if toks[0].kind == tokEOF {
		return nil, &Error{Msg: "empty expression"}
	}
	p := &parser{toks: toks}
	n, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		msg := "expected an operator or the end, found " + t.describe()
		switch t.kind {
		case tokRParen:
			msg = "unmatched ')'"
		case tokComma:
			msg += " (commas only separate function arguments; write 1000, not 1,000)"
		}
		return nil, &Error{Pos: t.pos, Syntax: true, Msg: msg}
	}
	return n, nil
}

// expr is the Pratt loop: parse a prefix expression, then keep absorbing
// infix and postfix operators that bind tighter than minBP.
func (p *parser) expr(minBP int) (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, &Error{Pos: p.peek().pos, Msg: fmt.Sprintf("expression nested more than %d levels deep", maxDepth)}
	}
	left, err := p.prefix()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tokOp {
			return left, nil
		}
		switch t.text {
		case "!", "°":
			if bpPostfix < minBP {
				return left, nil
			}
			p.next()
			left = &node{kind: nodePostfix, pos: t.pos, op: t.text, args: []*node{left}}
			continue
		case "%":
			if !p.moduloFollows(p.i) {
				if bpPostfix < minBP {
					return left, nil
				}
				p.next()
				left = &node{kind: nodePostfix, pos: t.pos, op: "%", args: []*node{left}}
				continue
			}
		}
		lbp, rbp := infixBP(t.text)
		if lbp < minBP {
			return left, nil
		}
		p.next()
		right, err := p.expr(rbp)
		if err != nil {
			return nil, err
		}
		left = &node{kind: nodeBinary, pos: t.pos, op: t.text, args: []*node{left, right}}
	}
}

// moduloFollows decides whether the "%" at toks[i] is modulo (true) or
// percent. It is modulo when an operand follows ("7 % 3", "7 % (1+2)"), or
// a sign that is glued to an operand but not to the "%" ("7 % -3"); it is
// percent otherwise ("15%", "50% - 10", "50%-10", "20% * 3").
func (p *parser) moduloFollows(i int) bool {
	next := p.toks[i+1]
	if startsOperand(next) {
		return true
	}
	if next.kind != tokOp || (next.text != "-" && next.text != "+") {
		return false
	}
	after := p.toks[i+2]
	return next.pos > p.toks[i].pos+1 && after.pos == next.pos+1 && startsOperand(after)
}

func startsOperand(t token) bool {
	return t.kind == tokNum || t.kind == tokIdent || t.kind == tokLParen
}

// infixBP returns left and right binding powers; right-associative ^ has a
// right power below its left one.
func infixBP(op string) (int, int) {
	switch op {
	case "+", "-":
		return bpAdd, bpAdd + 1
	case "*", "/", "%":
		return bpMul, bpMul + 1
	case "^":
		return bpPow, bpPow - 1
	}
	return -1, -1
}

func (p *parser) prefix() (*node, error) {
	t := p.next()
	switch t.kind {
	case tokNum:
		r, err := parseLiteral(t.text)
		if err != nil {
			return nil, &Error{Pos: t.pos, Msg: err.Error()}
		}
		return &node{kind: nodeNum, pos: t.pos, num: r}, nil
	case tokOp:
		if t.text == "-" || t.text == "+" {
			operand, err := p.expr(bpPrefix)
			if err != nil {
				return nil, err
			}
			return &node{kind: nodeUnary, pos: t.pos, op: t.text, args: []*node{operand}}, nil
		}
	case tokLParen:
		inner, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tokRParen {
			return nil, &Error{Pos: c.pos, Syntax: true, Msg: "expected ')' to close the '(' at position " + itoa(t.pos) + ", found " + c.describe()}
		}
		return inner, nil
	case tokIdent:
		return p.name(t)
	}
	if t.kind == tokEOF {
		return nil, &Error{Pos: t.pos, Syntax: true, Msg: "expression ends where a number was expected"}
	}
	return nil, &Error{Pos: t.pos, Syntax: true, Msg: "expected a number, name or '(', found " + t.describe()}
}

// name parses a constant or a function call.
func (p *parser) name(t token) (*node, error) {
	key := strings.ToLower(t.text)
	_, isConst := constants[key]
	fn, isFunc := functions()[key]
	if !isConst && !isFunc {
		return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("unknown name %q", t.text)}
	}
	if p.peek().kind != tokLParen {
		if isConst {
			return &node{kind: nodeConst, pos: t.pos, name: key}, nil
		}
		return nil, &Error{Pos: t.pos, Syntax: true, Msg: fmt.Sprintf("function %s needs parentheses, as in %s(…)", key, key)}
	}
	if isConst {
		return nil, &Error{Pos: t.pos, Syntax: true, Msg: fmt.Sprintf("%s is a constant, not a function", key)}
	}
	open := p.next()
	var args []*node
	if p.peek().kind != tokRParen {
		for {
			a, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if p.peek().kind != tokComma {
				break
			}
			p.next()
		}
	}
	if c := p.next(); c.kind != tokRParen {
		return nil, &Error{Pos: c.pos, Syntax: true, Msg: "expected ',' or ')' to close the '(' at position " + itoa(open.pos) + ", found " + c.describe()}
	}
	if len(args) < fn.minArgs || (fn.maxArgs >= 0 && len(args) > fn.maxArgs) {
		return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("%s takes %s, got %d", key, fn.arity(), len(args))}
	}
	return &node{kind: nodeCall, pos: t.pos, name: key, args: args}, nil
}

// parseLiteral reads a decimal literal exactly: "0.1" is 1/10, not the
// nearest float64.
func parseLiteral(s string) (*big.Rat, error) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		var e big.Int
		if _, ok := e.SetString(strings.TrimPrefix(s[i+1:], "+"), 10); !ok {
			return nil, fmt.Errorf("malformed number %s", s)
		}
		if !e.IsInt64() || e.Int64() > maxLiteralExp || e.Int64() < -maxLiteralExp {
			return nil, fmt.Errorf("exponent of %s is beyond ±%d", s, maxLiteralExp)
		}
		exp = int(e.Int64())
	}
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, fmt.Errorf("malformed number %s", s)
	}
	if exp != 0 {
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
		// SetFrac reduces by gcd(small mantissa, 10^k): one cheap pass,
		// where Rat.Quo would multiply first and reduce a larger pair.
		if exp > 0 {
			r.SetFrac(scale.Mul(scale, r.Num()), r.Denom())
		} else {
			r.SetFrac(r.Num(), scale.Mul(scale, r.Denom()))
		}
	}
	return r, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func itoa(n int) string { return fmt.Sprint(n) }
