// Package snippet turns Go code written by a model or a user into a complete
// program the nanoGo interpreter can run: bare statements are wrapped into
// package main and func main, packages from the sandbox's allowlist that the
// code uses are imported for it, and any other import is refused before the
// interpreter ever sees it.
//
// Positions stay those of the user's text: every piece of user code in the
// generated file is preceded by a /*line snippet.go:L:C*/ directive, so the
// parser, the type checker and the interpreter all report errors as
// snippet.go:LINE:COL of what the user wrote, whatever was moved or added.
package snippet

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// File is the file name positions in the user's code are reported under.
const File = "snippet.go"

// Program is a snippet made ready for the interpreter.
type Program struct {
	// Source is a complete Go file in package main.
	Source string
	// Imports lists the import paths the program uses, sorted.
	Imports []string
	// Wrapped is true when the snippet was bare statements and the
	// func main around them was added.
	Wrapped bool
}

// Prepare turns src into a program that only imports packages in allowed
// (import path → package name). The error for code that does not parse or
// imports something else names the line in src and, for a refused import,
// the package.
func Prepare(src string, allowed map[string]string) (Program, error) {
	if strings.TrimSpace(src) == "" {
		return Program{}, errors.New("the snippet is empty")
	}
	if strings.Contains(src, "\x00") {
		return Program{}, errors.New("the snippet contains a NUL byte; send Go source text")
	}
	src = blankFences(src)
	l := split(src)
	asm, err := assemble(src, l, nil)
	if err != nil {
		return Program{}, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, File, asm, parser.AllErrors)
	if err != nil {
		return Program{}, compileError(err)
	}
	if l.full {
		if f.Name.Name != "main" {
			return Program{}, fmt.Errorf("%s: package %s: a program must be package main",
				fset.Position(f.Name.Pos()), f.Name.Name)
		}
		if !hasMain(f) {
			return Program{}, fmt.Errorf("%s: package main has no func main", fset.Position(f.Name.Pos()))
		}
	}
	imported := map[string]bool{} // package names visible in the file
	paths := map[string]bool{}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if _, ok := allowed[p]; !ok {
			return Program{}, refused(fset.Position(spec.Pos()), p, allowed)
		}
		paths[p] = true
		name := allowed[p]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imported[name] = true
	}
	missing := missingImports(f, allowed, imported)
	for _, p := range missing {
		paths[p] = true
	}
	prog := Program{Source: asm, Wrapped: !l.full && !l.declaresMain(), Imports: sortedKeys(paths)}
	if len(missing) > 0 {
		if prog.Source, err = assemble(src, l, missing); err != nil {
			return Program{}, err
		}
	}
	return prog, nil
}

// blankFences blanks a Markdown code fence around the code (```go … ```),
// which models sometimes put inside <source>. The fence lines become empty
// lines, so line numbers still match what the model wrote.
func blankFences(src string) string {
	lines := strings.Split(src, "\n")
	first, last := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || first == last || !strings.HasPrefix(strings.TrimSpace(lines[first]), "```") ||
		strings.TrimSpace(lines[last]) != "```" {
		return src
	}
	lines[first], lines[last] = "", ""
	return strings.Join(lines, "\n")
}

// allowedList names the allowed import paths for an error message.
func allowedList(allowed map[string]string) string {
	return strings.Join(sortedKeys(allowed), ", ")
}

func refused(pos token.Position, p string, allowed map[string]string) error {
	why := "only a restricted standard library is available"
	switch {
	case p == "os" || strings.HasPrefix(p, "os/") || p == "io/fs" || strings.HasPrefix(p, "path/filepath"):
		why = "the sandbox has no files, processes or environment"
	case p == "net" || strings.HasPrefix(p, "net/"):
		why = "the sandbox has no network"
	case p == "unsafe" || p == "syscall" || p == "reflect" || strings.HasPrefix(p, "runtime"):
		why = "it could escape the interpreter"
	case strings.Contains(strings.SplitN(p, "/", 2)[0], "."):
		why = "third-party packages cannot be loaded"
	}
	return fmt.Errorf("%s: import %q is not allowed in the nanoGo sandbox (%s); allowed packages: %s",
		pos, p, why, allowedList(allowed))
}

// compileError keeps the first few parser errors; the positions already
// name snippet.go lines thanks to the line directives.
func compileError(err error) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 3 {
		return fmt.Errorf("%v\n%v\n%v\n(and %d more errors)", list[0], list[1], list[2], len(list)-3)
	}
	if errors.As(err, &list) && len(list) > 1 {
		msgs := make([]string, len(list))
		for i, e := range list {
			msgs[i] = e.Error()
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	return err
}

func hasMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
			return true
		}
	}
	return false
}

// missingImports finds allowed packages the code refers to (fmt.Println)
// without importing them. It relies on the parser's scope resolution, so a
// local variable that happens to be called strings is not mistaken for the
// package.
func missingImports(f *ast.File, allowed map[string]string, imported map[string]bool) []string {
	byName := map[string]string{}
	for _, p := range sortedKeys(allowed) {
		if _, dup := byName[allowed[p]]; !dup {
			byName[allowed[p]] = p
		}
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	need := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && unresolved[id] && !imported[id.Name] {
			if p, ok := byName[id.Name]; ok {
				need[p] = true
			}
		}
		return true
	})
	return sortedKeys(need)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
