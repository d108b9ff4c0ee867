package snippet

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// FuzzPrepare: any input either yields a program that parses and imports
// only allowed packages, or an error; never a panic.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		"fmt.Println(2 + 2)",
		"package main\nfunc main() {}",
		"func (p P) M() {}\ntype P int\nP(1).M()",
		"func() {}()",
		"import \"os\"",
		"```go\nx := 1\n```",
		"/*line x.go:9:9*/fmt.Println(1)",
		"((((",
		"package",
		"import (\n\"fmt\"\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Prepare(src, testAllowed)
		if err != nil {
			return
		}
		file, perr := parser.ParseFile(token.NewFileSet(), File, p.Source, parser.ImportsOnly)
		if perr != nil {
			t.Fatalf("Prepare accepted %q but its program does not parse: %v\n%s", src, perr, p.Source)
		}
		for _, spec := range file.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			if _, ok := testAllowed[path]; !ok && !strings.Contains(path, "\x00") {
				t.Fatalf("Prepare let %q through for %q", path, src)
			}
		}
	})
}
