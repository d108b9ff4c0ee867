// Package calc evaluates arithmetic expressions for the "calculate" tool: a
// tokenizer, a Pratt parser and an evaluator over exact rationals
// (math/big), falling back to float64 only where a function is irrational.
// Nothing is ever handed to an interpreter, so an expression can compute but
// never act.
//
// Grammar, loosest binding first:
//
//	a + b, a - b                 left-assoc
//	a * b, a / b, a % b          left-assoc; × · ÷ − are accepted too
//	-a, +a                       prefix; -2^2 is -(2^2)
//	a ^ b  (also a ** b)         right-assoc; 2^-1 is allowed
//	a!, a%, a°                   postfix factorial, percent, degrees
//	f(x, …), pi, e, (…)          functions, constants, grouping
//
// "%" is modulo when a number, name or "(" follows it, or a sign glued to
// one but set apart from the "%" ("7 % -3"); otherwise it is percent
// (x/100): "7 % 3" is 1, "200 * 15%" is 30, "50% - 10" is -9.5.
// Modulo is floored: the result has the sign of the divisor (-7 % 3 = 2).
// Trigonometric functions take radians; 30° is 30·π/180.
package calc

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokIdent
	tokOp // one of + - * / % ^ ! °
	tokLParen
	tokRParen
	tokComma
)

type token struct {
	kind tokKind
	text string // normalised: "×" becomes "*", "**" becomes "^"
	pos  int    // 1-based rune position in the input
}

// describe names a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokNum:
		return "number " + t.text
	case tokIdent:
		return fmt.Sprintf("name %q", t.text)
	default:
		return fmt.Sprintf("%q", t.text)
	}
}

// opAliases maps the Unicode spellings people (and models) paste to the
// ASCII operator they mean.
var opAliases = map[rune]string{
	'+': "+", '-': "-", '−': "-", '–': "-",
	'*': "*", '×': "*", '·': "*", '⋅': "*", '∗': "*",
	'/': "/", '÷': "/", '∕': "/",
	'%': "%", '^': "^", '!': "!", '°': "°",
}

// lex splits expr into tokens. It fails on the first character that
// cannot start a token, naming it and its position.
func lex(expr string) ([]token, error) {
	var toks []token
	pos := 0 // runes consumed so far
	for i := 0; i < len(expr); {
		r, size := utf8.DecodeRuneInString(expr[i:])
		pos++
		start := pos
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, &Error{Pos: start, Msg: "invalid UTF-8 in input"}
		case unicode.IsSpace(r):
			i += size
		case r >= '0' && r <= '9' || r == '.':
			j := scanNumber(expr, i)
			text := expr[i:j]
			if text == "." {
				return nil, &Error{Pos: start, Syntax: true, Msg: "a lone '.' is not a number"}
			}
			toks = append(toks, token{tokNum, text, start})
			pos += utf8.RuneCountInString(text) - 1
			i = j
		case r == 'π':
			toks = append(toks, token{tokIdent, "pi", start})
			i += size
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(expr) {
				r2, s2 := utf8.DecodeRuneInString(expr[j:])
				if !(unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '_') || r2 == 'π' {
					break
				}
				j += s2
			}
			text := expr[i:j]
			toks = append(toks, token{tokIdent, text, start})
			pos += utf8.RuneCountInString(text) - 1
			i = j
		case r == '(':
			toks = append(toks, token{tokLParen, "(", start})
			i += size
		case r == ')':
			toks = append(toks, token{tokRParen, ")", start})
			i += size
		case r == ',':
			toks = append(toks, token{tokComma, ",", start})
			i += size
		case r == '*' && i+1 < len(expr) && expr[i+1] == '*':
			toks = append(toks, token{tokOp, "^", start})
			pos++
			i += 2
		default:
			op, ok := opAliases[r]
			if !ok {
				return nil, &Error{Pos: start, Msg: fmt.Sprintf("unexpected character %q", r)}
			}
			toks = append(toks, token{tokOp, op, start})
			i += size
		}
	}
	toks = append(toks, token{tokEOF, "", pos + 1})
	return toks, nil
}

// scanNumber returns the end of the number literal starting at i: digits,
// an optional fraction, an optional exponent. "2e" stops before the "e" so
// that it reads as 2 followed by the name e (and then fails as a syntax
// error rather than silently meaning 2·e).
func scanNumber(s string, i int) int {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	return j
}
