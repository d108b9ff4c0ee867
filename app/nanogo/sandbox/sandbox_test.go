package sandbox

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tinyrag/app/nanogo"
	"tinyrag/app/nanogo/sandbox/symbols"
)

func TestRun_PrintsWhatTheProgramPrints(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"bare statement", "fmt.Println(2 + 2)", "4\n"},
		{"full program", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 1; i <= 3; i++ {\n\t\tfmt.Print(i, \" \")\n\t}\n\tfmt.Println()\n}\n", "1 2 3 \n"},
		{"hoisted function and method", "type P struct{ X int }\nfunc (p P) String() string { return fmt.Sprintf(\"P(%d)\", p.X) }\nfunc sq(x int) int { return x * x }\nfmt.Println(P{sq(3)})", "P(9)\n"},
		{"memoised recursion with a leading var", "var memo = map[int]int{}\nfunc fib(n int) int {\n\tif n < 2 { return n }\n\tif v, ok := memo[n]; ok { return v }\n\tmemo[n] = fib(n-1) + fib(n-2)\n\treturn memo[n]\n}\nfmt.Println(fib(80))", "23416728348467685\n"},
		{"builtin println goes to stdout", "println(\"hi\", 3)", "hi 3\n"},
		{"strings strconv and sort", "s := strings.Fields(\"3 1 2\")\nvar n []int\nfor _, f := range s { v, _ := strconv.Atoi(f); n = append(n, v) }\nsort.Ints(n)\nfmt.Println(n)", "[1 2 3]\n"},
		{"generic slices package", "fmt.Println(slices.Contains([]int{1, 2}, 2), slices.Index([]string{\"a\", \"b\"}, \"b\"))", "true 1\n"},
		{"math/big", "x := new(big.Int).Exp(big.NewInt(2), big.NewInt(100), nil)\nfmt.Println(x)", "1267650600228229401496703205376\n"},
		{"encoding/json with struct tags", "type P struct{ A int `json:\"a\"` }\nb, err := json.Marshal(P{3})\nfmt.Println(string(b), err)", "{\"a\":3} <nil>\n"},
		{"time arithmetic", "fmt.Println(time.Duration(90) * time.Second)", "1m30s\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Run(context.Background(), tt.src, Limits{})
			if out.Error != "" {
				t.Fatalf("Error = %q (stdout %q)", out.Error, out.Stdout)
			}
			if out.Stdout != tt.want {
				t.Errorf("Stdout = %q, want %q", out.Stdout, tt.want)
			}
		})
	}
}

func TestRun_RefusesForbiddenImports(t *testing.T) {
	for _, pkg := range []string{"os", "os/exec", "net/http", "unsafe", "syscall", "reflect", "runtime", "io/ioutil", "log"} {
		t.Run(pkg, func(t *testing.T) {
			src := "import \"" + pkg + "\"\nfmt.Println(\"ran\")"
			out := Run(context.Background(), src, Limits{})
			if !strings.Contains(out.Error, `import "`+pkg+`" is not allowed`) {
				t.Errorf("Error = %q, want a refusal naming %q", out.Error, pkg)
			}
			if out.Stdout != "" {
				t.Errorf("the program ran and printed %q", out.Stdout)
			}
		})
	}
}

func TestRun_ReportsErrorsAtTheUsersLine(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undefined name in bare code", "x := 1\nfmt.Println(x)\nundefinedThing()", "snippet.go:3:1: undefined: undefinedThing"},
		{"type error in full program", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar n int = \"s\"\n\tfmt.Println(n)\n}", "snippet.go:6:"},
		{"unknown symbol of an allowed package", "fmt.Printl(1)", "snippet.go:1:1"},
		{"syntax error", "fmt.Println(1\n", "snippet.go:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Run(context.Background(), tt.src, Limits{})
			if !strings.Contains(out.Error, tt.want) {
				t.Errorf("Error = %q, want it to contain %q", out.Error, tt.want)
			}
		})
	}
}

func TestRun_CatchesPanicsAndKeepsEarlierOutput(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"explicit panic", "fmt.Println(\"before\")\npanic(\"boom\")", "panic: boom"},
		{"nil map write", "fmt.Println(\"before\")\nvar m map[string]int\nm[\"a\"] = 1", "panic: assignment to entry in nil map"},
		{"integer division by zero", "fmt.Println(\"before\")\na, b := 1, 0\nfmt.Println(a / b)", "divide by zero"},
		{"index out of range", "fmt.Println(\"before\")\nvar s []int\nfmt.Println(s[5])", "panic:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Run(context.Background(), tt.src, Limits{})
			if !strings.Contains(out.Error, tt.want) {
				t.Errorf("Error = %q, want it to contain %q", out.Error, tt.want)
			}
			if out.Stdout != "before\n" {
				t.Errorf("Stdout = %q, want the output printed before the panic", out.Stdout)
			}
		})
	}
}

func TestRun_StopsAnInfiniteLoopAtTheTimeout(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm has no preemption: an interpreted busy loop never yields to the timer, " +
			"so in the browser the WorkerRunner terminates the worker instead")
	}
	for _, src := range []string{"for {}", "n := 0\nfor { n++ }", "fmt.Println(\"start\")\nselect {}"} {
		t.Run(src, func(t *testing.T) {
			out := Run(context.Background(), src, Limits{Timeout: 300 * time.Millisecond})
			if !out.TimedOut || !strings.Contains(out.Error, "did not finish within 300ms") {
				t.Errorf("TimedOut = %v, Error = %q; want a timeout", out.TimedOut, out.Error)
			}
		})
	}
}

func TestRun_TruncatesOutputPastTheBound(t *testing.T) {
	tests := []struct {
		name, src string
		max       int
		truncated bool
	}{
		{"stdout flood", "for i := 0; i < 5000; i++ { fmt.Println(\"line\", i) }", 1024, true},
		{"stdout and stderr share the bound", "print(strings.Repeat(\"e\", 800))\nfmt.Print(strings.Repeat(\"o\", 800))", 1024, true},
		{"multibyte runes are not split", "fmt.Print(strings.Repeat(\"é\", 1000))", 1001, true},
		{"output under the bound is whole", "fmt.Print(strings.Repeat(\"x\", 1024))", 1024, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Run(context.Background(), tt.src, Limits{MaxOutput: tt.max})
			if out.Error != "" {
				t.Fatalf("Error = %q", out.Error)
			}
			if out.Truncated != tt.truncated {
				t.Errorf("Truncated = %v, want %v", out.Truncated, tt.truncated)
			}
			if n := len(out.Stdout) + len(out.Stderr); n > tt.max {
				t.Errorf("captured %d bytes, more than the %d bound", n, tt.max)
			}
			if !utf8.ValidString(out.Stdout) {
				t.Errorf("stdout is not valid UTF-8")
			}
			if tt.truncated && !strings.HasSuffix(out.Text(), nanogo.TruncatedMarker) {
				t.Errorf("Text() = …%q, want the truncation marker", tail(out.Text()))
			}
		})
	}
}

func TestRun_RefusesOversizedSource(t *testing.T) {
	src := "fmt.Println(1)\n" + strings.Repeat("// padding\n", 200)
	out := Run(context.Background(), src, Limits{MaxSource: 100})
	if !strings.Contains(out.Error, "more than the 100-byte limit") || out.Stdout != "" {
		t.Errorf("Error = %q, Stdout = %q; want the size refusal and no run", out.Error, out.Stdout)
	}
}

func TestSymbols_ExposeOnlyTheSafeSubset(t *testing.T) {
	allowed := Allowed()
	for _, bad := range []string{"os", "os/exec", "net", "net/http", "unsafe", "syscall", "reflect",
		"runtime", "runtime/debug", "io/fs", "io/ioutil", "path/filepath", "plugin", "log", "context"} {
		if _, ok := allowed[bad]; ok {
			t.Errorf("%s is importable in the sandbox", bad)
		}
	}
	for _, want := range []string{"fmt", "strings", "strconv", "math", "math/big", "math/rand", "sort",
		"slices", "maps", "errors", "unicode", "unicode/utf8", "bytes", "regexp", "time", "encoding/json"} {
		if _, ok := allowed[want]; !ok {
			t.Errorf("%s is missing from the sandbox", want)
		}
	}
	for _, name := range []string{"Sleep", "After", "AfterFunc", "Tick", "NewTicker", "NewTimer", "LoadLocation"} {
		if _, ok := symbols.Symbols["time/time"][name]; ok {
			t.Errorf("time.%s is exposed", name)
		}
	}
	if _, ok := symbols.Symbols["time/time"]["Now"]; !ok {
		t.Error("time.Now is missing")
	}
}

func tail(s string) string {
	if len(s) > 40 {
		return s[len(s)-40:]
	}
	return s
}

func TestRun_ReportsOutputAsItIsWrittenWithinTheBudget(t *testing.T) {
	type piece struct {
		stderr bool
		text   string
		cut    bool
	}
	tests := []struct {
		name string
		src  string
		max  int
		want []piece
	}{
		{"each write in order",
			`fmt.Print("a"); print("b"); fmt.Println("c")`, 0,
			[]piece{{false, "a", false}, {false, "b", false}, {false, "c\n", false}}},
		{"the write that crosses the budget is cut, later ones are not reported",
			`fmt.Print("12345"); fmt.Print("6789"); fmt.Print("more")`, 7,
			[]piece{{false, "12345", false}, {false, "67", true}}},
		{"a write past a full budget reports the cut once",
			`fmt.Print("1234567"); fmt.Print("x"); fmt.Print("y")`, 7,
			[]piece{{false, "1234567", false}, {false, "", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []piece
			out := Run(context.Background(), tt.src, Limits{MaxOutput: tt.max, Output: func(stderr bool, kept []byte, cut bool) {
				got = append(got, piece{stderr, string(kept), cut})
			}})
			if out.Error != "" {
				t.Fatalf("run failed: %s", out.Error)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("reported %v, want %v", got, tt.want)
			}
		})
	}
}
