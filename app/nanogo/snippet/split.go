package snippet

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strings"
)

type segKind int

const (
	segImport segKind = iota // an import declaration
	segDecl                  // a func, method or type declaration
	segStmt                  // anything else: a statement for func main
)

// segment is one top-level piece of a bare snippet, src[start:end].
type segment struct {
	kind       segKind
	start, end int
	isMain     bool // a declaration of func main
}

// layout is how a snippet is split: either a full program (a package
// clause ending at pkgEnd) or a list of top-level segments.
type layout struct {
	full   bool
	pkgEnd int
	segs   []segment
}

// split scans src once. Declarations that Go only allows at package level
// (imports, named funcs, methods, types, so their methods work) are
// hoisted, and so are vars and consts that come before the first statement;
// everything else becomes the body of func main. Scanner errors are
// ignored here: the parser reports them later with proper positions.
func split(src string) layout {
	type tok struct {
		off int
		tok token.Token
		lit string
	}
	var toks []tok
	fset := token.NewFileSet()
	file := fset.AddFile(File, -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, 0)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{file.Offset(pos), t, lit})
	}
	if len(toks) > 0 && toks[0].tok == token.PACKAGE {
		end := len(src)
		if len(toks) > 1 {
			end = toks[1].off + len(toks[1].lit)
		}
		return layout{full: true, pkgEnd: end}
	}
	kinds := make([]token.Token, len(toks))
	for i, t := range toks {
		kinds[i] = t.tok
	}
	var out layout
	sawStmt := false
	for i := 0; i < len(toks); {
		// i is at the start of a top-level statement or declaration.
		seg := segment{kind: segStmt, start: toks[i].off, end: len(src)}
		switch toks[i].tok {
		case token.IMPORT:
			seg.kind = segImport
		case token.TYPE:
			seg.kind = segDecl
		case token.FUNC:
			if i+1 < len(toks) && toks[i+1].tok == token.IDENT {
				seg.kind, seg.isMain = segDecl, toks[i+1].lit == "main"
			} else if isMethod(kinds[i+1:]) {
				seg.kind = segDecl
			}
		case token.VAR, token.CONST:
			// Before the first statement a var or const can only refer to
			// package-level names, so it can become package-level itself,
			// where the hoisted funcs see it (a memo table for fib).
			if !sawStmt {
				seg.kind = segDecl
			}
		}
		if seg.kind == segStmt {
			sawStmt = true
		}
		j, depth := i, 0
	scan:
		for ; j < len(toks); j++ {
			switch toks[j].tok {
			case token.LPAREN, token.LBRACK, token.LBRACE:
				depth++
			case token.RPAREN, token.RBRACK, token.RBRACE:
				depth--
			case token.SEMICOLON:
				if depth <= 0 {
					seg.end = toks[j].off
					break scan
				}
			}
		}
		if seg.end > seg.start {
			out.segs = append(out.segs, seg)
		}
		i = j + 1
	}
	return out
}

// isMethod tells a method declaration, func (r T) Name(…), from a function
// literal used as a statement, func(x int) {…}(1): after the first
// parenthesised group a method has a name and then its parameter list.
// ts starts at the opening parenthesis.
func isMethod(ts []token.Token) bool {
	if len(ts) == 0 || ts[0] != token.LPAREN {
		return false
	}
	depth := 0
	for k, t := range ts {
		switch t {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
			if depth == 0 {
				return k+2 < len(ts) && ts[k+1] == token.IDENT && ts[k+2] == token.LPAREN
			}
		}
	}
	return false
}

// assemble writes the program: the user's pieces each behind a line
// directive giving its original position, the wrapper's own lines in
// between, and extra imports for allowed packages the code uses.
func assemble(src string, l layout, extra []string) (string, error) {
	lines := lineStarts(src)
	at := func(off int) string {
		line, col := position(lines, off)
		return fmt.Sprintf("/*line %s:%d:%d*/", File, line, col)
	}
	var b strings.Builder
	imports := ""
	if len(extra) > 0 {
		imports = "import (\"" + strings.Join(extra, "\"; \"") + "\");"
	}
	if l.full {
		b.WriteString(at(0))
		b.WriteString(src[:l.pkgEnd])
		if imports != "" {
			b.WriteString(";" + imports)
			b.WriteString(at(l.pkgEnd))
		}
		b.WriteString(src[l.pkgEnd:])
		b.WriteString("\n")
		return b.String(), nil
	}
	// The wrapper's own lines sit under snippet.go too: yaegi scopes
	// imports by file name, so the whole program must be one file.
	b.WriteString(at(0) + "package main\n")
	var mainDecl *segment
	var firstStmt *segment
	for _, kind := range []segKind{segImport, segDecl} {
		for i, s := range l.segs {
			if s.kind != kind {
				continue
			}
			if s.isMain {
				mainDecl = &l.segs[i]
			}
			b.WriteString(at(s.start) + src[s.start:s.end] + "\n")
		}
		if kind == segImport && imports != "" {
			b.WriteString(at(0) + imports + "\n")
		}
	}
	for i, s := range l.segs {
		if s.kind == segStmt && firstStmt == nil {
			firstStmt = &l.segs[i]
		}
	}
	if mainDecl != nil {
		if firstStmt != nil {
			line, col := position(lines, firstStmt.start)
			return "", fmt.Errorf("%s:%d:%d: the snippet declares func main and also has statements outside it; put them inside main or drop func main",
				File, line, col)
		}
		return b.String(), nil
	}
	b.WriteString(at(0) + "func main() {\n")
	for _, s := range l.segs {
		if s.kind == segStmt {
			b.WriteString(at(s.start) + src[s.start:s.end] + "\n")
		}
	}
	b.WriteString(at(len(src)) + "}\n")
	return b.String(), nil
}

func lineStarts(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position converts a byte offset to a 1-based line and byte column, as
// go/token counts them.
func position(starts []int, off int) (line, col int) {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, off - starts[lo] + 1
}

// declaresMain reports whether a bare snippet brings its own func main.
func (l layout) declaresMain() bool {
	for _, s := range l.segs {
		if s.isMain {
			return true
		}
	}
	return false
}
