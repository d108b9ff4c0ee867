package snippet

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

var testAllowed = map[string]string{
	"fmt": "fmt", "strings": "strings", "math/rand": "rand", "sort": "sort", "time": "time",
}

func TestPrepare_ProducesAParsableProgram(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		wantImports []string
		wantWrapped bool
		wantIn      []string // fragments the generated source must contain
	}{
		{"bare call gets fmt imported", "fmt.Println(2 + 2)", []string{"fmt"}, true,
			[]string{"func main() {", "fmt.Println(2 + 2)"}},
		{"full program kept", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
			[]string{"fmt"}, false, []string{"func main() { fmt.Println(1) }"}},
		{"full program missing import", "// Command x.\npackage main\n\nfunc main() { fmt.Println(strings.ToUpper(\"a\")) }\n",
			[]string{"fmt", "strings"}, false, []string{`import ("fmt"; "strings")`}},
		{"hoisted func and type", "type P struct{ X int }\nfunc (p P) Double() int { return 2 * p.X }\nfunc sq(x int) int { return x * x }\nfmt.Println(sq(P{3}.Double()))",
			[]string{"fmt"}, true, []string{"func sq(x int) int"}},
		{"function literal statement stays in main", "func() { fmt.Println(1) }()", []string{"fmt"}, true,
			[]string{"func main() {\n/*line snippet.go:1:1*/func() {"}},
		{"user imports are kept", "import \"strings\"\nfmt.Println(strings.Repeat(\"a\", 2))",
			[]string{"fmt", "strings"}, true, []string{`import "strings"`}},
		{"local variable shadows a package name", "strings := []string{\"a\"}\nfmt.Println(strings[0])",
			[]string{"fmt"}, true, nil},
		{"package name that differs from its path", "fmt.Println(rand.Intn(1) + 1)", []string{"fmt", "math/rand"}, true, nil},
		{"main without package clause", "import \"fmt\"\nfunc main() { fmt.Println(1) }", []string{"fmt"}, false, nil},
		{"leading var is shared with hoisted funcs", "var memo = map[int]int{}\nconst k = 2\nfunc f(n int) int { memo[n] = n * k; return memo[n] }\nfmt.Println(f(3))",
			[]string{"fmt"}, true, []string{"/*line snippet.go:1:1*/var memo = map[int]int{}\n/*line snippet.go:2:1*/const k = 2\n/*line snippet.go:3:1*/func f"}},
		{"var after a statement stays local", "x := 2\nvar y = x * 2\nfmt.Println(y)", []string{"fmt"}, true,
			[]string{"func main() {\n/*line snippet.go:1:1*/x := 2\n/*line snippet.go:2:1*/var y = x * 2"}},
		{"markdown fence is dropped", "```go\nfmt.Println(1)\n```\n", []string{"fmt"}, true,
			[]string{"/*line snippet.go:2:1*/fmt.Println(1)"}},
		{"semicolons on one line", "x := 1; y := 2; fmt.Println(x + y)", []string{"fmt"}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Prepare(tt.src, testAllowed)
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			if !slices.Equal(p.Imports, tt.wantImports) {
				t.Errorf("Imports = %v, want %v", p.Imports, tt.wantImports)
			}
			if p.Wrapped != tt.wantWrapped {
				t.Errorf("Wrapped = %v, want %v", p.Wrapped, tt.wantWrapped)
			}
			for _, frag := range tt.wantIn {
				if !strings.Contains(p.Source, frag) {
					t.Errorf("source lacks %q:\n%s", frag, p.Source)
				}
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "x.go", p.Source, 0); err != nil {
				t.Errorf("generated source does not parse: %v\n%s", err, p.Source)
			}
		})
	}
}

func TestPrepare_RefusesImportsOutsideTheAllowlist(t *testing.T) {
	tests := []struct {
		src, pkg, pos string
	}{
		{`import "os"` + "\nos.Exit(1)", "os", "snippet.go:1:8"},
		{"package main\n\nimport (\n\t\"fmt\"\n\t\"os/exec\"\n)\n\nfunc main() { fmt.Println(exec.Command) }", "os/exec", "snippet.go:5:2"},
		{`import "net/http"`, "net/http", "snippet.go:1:8"},
		{"fmt.Println(1)\nimport \"unsafe\"", "unsafe", ""},
		{`import "syscall"`, "syscall", "snippet.go:1:8"},
		{`import r "reflect"`, "reflect", "snippet.go:1:8"},
		{`import "github.com/evil/pkg"`, "github.com/evil/pkg", "snippet.go:1:8"},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			_, err := Prepare(tt.src, testAllowed)
			if err == nil {
				t.Fatal("Prepare accepted a forbidden import")
			}
			if !strings.Contains(err.Error(), `import "`+tt.pkg+`" is not allowed`) {
				t.Errorf("error %q does not name the package %q", err, tt.pkg)
			}
			if tt.pos != "" && !strings.HasPrefix(err.Error(), tt.pos+":") {
				t.Errorf("error %q does not start at %s", err, tt.pos)
			}
		})
	}
}

func TestPrepare_ErrorsNameTheUsersLine(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax error in bare statement", "x := 1\ny := (2 +\nfmt.Println(x, y)", "snippet.go:3:"},
		{"syntax error after hoisted func", "func f() int { return 1 }\n\nfmt.Println(f()))", "snippet.go:3:17"},
		{"not package main", "package foo\nfunc main() {}", "snippet.go:1:9: package foo"},
		{"program without main", "package main\nfunc f() {}", "package main has no func main"},
		{"main plus loose statements", "func main() {}\nfmt.Println(1)", "snippet.go:2:1: the snippet declares func main"},
		{"empty", " \n\t", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Prepare(tt.src, testAllowed)
			if err == nil {
				t.Fatal("Prepare accepted broken code")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
}
