// Command pkgsize tells where a Go WebAssembly binary's bytes go: it reads
// the wasm name section of an unstripped build (built without -ldflags=-s)
// and sums the code section's function bodies per Go package, next to the
// size of the data section, which Go does not name per package.
//
//	make size-packages            # app.wasm, by package
//	go run ./wasm/pkgsize -pkgs bin/app-pkgs.txt -by module bin/app-names.wasm
//	go run ./wasm/pkgsize old.wasm new.wasm   # each package's change
//
// With two files it prints both sizes and the difference per group, biggest
// change first, so a change's effect on app.wasm is one command away.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode"
)

func main() {
	by := flag.String("by", "package", "group code bytes by package or module")
	top := flag.Int("top", 40, "print at most this many groups (0: all)")
	pkgList := flag.String("pkgs", "", "file listing the binary's packages, one a line (go list -deps); without it third-party names are guessed")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pkgsize [-by package|module] [-top N] -pkgs LIST FILE.wasm [NEW.wasm]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 || (*by != "package" && *by != "module") {
		flag.Usage()
		os.Exit(2)
	}
	var mods []*Module
	for _, p := range flag.Args() {
		b, err := os.ReadFile(p)
		if err != nil {
			fail(err)
		}
		m, err := Parse(b)
		if err != nil {
			fail(fmt.Errorf("%s: %w", p, err))
		}
		if len(m.Names) == 0 {
			fail(fmt.Errorf("%s has no function names: build it without -ldflags=-s (make size-packages does)", p))
		}
		mods = append(mods, m)
	}
	var paths []string
	if *pkgList != "" {
		b, err := os.ReadFile(*pkgList)
		if err != nil {
			fail(err)
		}
		paths = strings.Fields(string(b))
	}
	pkgs := NewPackages(paths)
	group := pkgs.Of
	if *by == "module" {
		group = func(sym string) string { return ModuleOf(pkgs.Of(sym)) }
	}
	report(os.Stdout, mods, group, *top)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pkgsize:", err)
	os.Exit(1)
}

// report prints one file's groups, or two files' groups with the change.
func report(w io.Writer, mods []*Module, group func(string) string, top int) {
	sums := make([]map[string]int, len(mods))
	keys := map[string]bool{}
	for i, m := range mods {
		sums[i] = m.CodeBy(group)
		for k := range sums[i] {
			keys[k] = true
		}
	}
	var order []string
	for k := range keys {
		order = append(order, k)
	}
	last := sums[len(sums)-1]
	weight := func(k string) int { return last[k] }
	if len(mods) == 2 {
		weight = func(k string) int { return abs(last[k] - sums[0][k]) }
	}
	sort.Slice(order, func(i, j int) bool {
		if weight(order[i]) != weight(order[j]) {
			return weight(order[i]) > weight(order[j])
		}
		return order[i] < order[j]
	})
	if top > 0 && len(order) > top {
		order = order[:top]
	}
	kb := func(n int) string { return fmt.Sprintf("%9.1f KB", float64(n)/1e3) }
	if len(mods) == 1 {
		m := mods[0]
		fmt.Fprintf(w, "code %s, data %s, file %s (raw; the code section by group below)\n", kb(m.Code), kb(m.Data), kb(m.Size))
		for _, k := range order {
			fmt.Fprintf(w, "%s %5.1f%%  %s\n", kb(last[k]), 100*float64(last[k])/float64(m.Code), k)
		}
		return
	}
	a, b := mods[0], mods[1]
	fmt.Fprintf(w, "%12s %12s %12s\n", "old", "new", "change")
	fmt.Fprintf(w, "%s %s %s  code section\n", kb(a.Code), kb(b.Code), kb(b.Code-a.Code))
	fmt.Fprintf(w, "%s %s %s  data section\n", kb(a.Data), kb(b.Data), kb(b.Data-a.Data))
	fmt.Fprintf(w, "%s %s %s  file\n", kb(a.Size), kb(b.Size), kb(b.Size-a.Size))
	for _, k := range order {
		fmt.Fprintf(w, "%s %s %s  %s\n", kb(sums[0][k]), kb(last[k]), kb(last[k]-sums[0][k]), k)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Packages maps the linker's names back to Go package paths. The wasm
// name section writes every character other than letters, digits, '_' and
// '.' as '_' (cmd/link/internal/wasm), so "github.com/a/b-c.F" appears as
// "github.com_a_b_c.F" and the package cannot be read off the name alone:
// it is the longest known package (go list -deps) whose mangled path is
// followed by a dot.
type Packages map[string]string

// NewPackages indexes the package paths paths.
func NewPackages(paths []string) Packages {
	p := Packages{}
	for _, path := range paths {
		p[Mangle(path)] = path
	}
	return p
}

// Mangle is what the wasm linker makes of a name.
func Mangle(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, name)
}

// Of is the package a function name belongs to. The symbols the compiler
// makes for types ("type:.eq.…", mangled "type_.eq.…") are one group;
// a name with no known package is grouped by what precedes its first dot,
// and one without a dot is the runtime's assembly.
func (p Packages) Of(sym string) string {
	if strings.HasPrefix(sym, "type_.") {
		return "type: (compiler-made equality and hash functions)"
	}
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] == '.' {
			if path, ok := p[sym[:i]]; ok {
				best = path
			}
		}
	}
	if best != "" {
		return best
	}
	if i := strings.IndexByte(sym, '.'); i > 0 {
		return sym[:i] + " (unknown package)"
	}
	// Without a package: the runtime's assembly (memchr, gcWriteBarrier…).
	return "runtime (assembly)"
}

// ModuleOf rolls a package up to what one decides to keep or drop as a
// whole: a third-party module (host/owner/repo, golang.org/x/repo), one of
// this repository's top-level packages (tinyrag/app/ui), or a standard
// library tree (crypto/..., net/...; the runtime and its internals count as
// "runtime").
func ModuleOf(pkg string) string {
	parts := strings.Split(pkg, "/")
	switch {
	case strings.HasPrefix(pkg, "type:") || strings.HasSuffix(pkg, "(unknown package)"):
		return pkg
	case strings.Contains(parts[0], "."):
		n := 3
		if parts[0] == "gopkg.in" {
			n = 2
		}
		if len(parts) > n && strings.HasPrefix(parts[n], "v") && len(parts[n]) > 1 && parts[n][1] >= '0' && parts[n][1] <= '9' {
			n++ // a major version's path (/v2)
		}
		return strings.Join(parts[:min(n, len(parts))], "/")
	case parts[0] == "tinyrag":
		return strings.Join(parts[:min(3, len(parts))], "/")
	case parts[0] == "vendor":
		return "vendor (std's copies of x/)"
	case strings.HasPrefix(parts[0], "runtime") || parts[0] == "internal" || pkg == "sync" || pkg == "reflect" || strings.HasPrefix(pkg, "sync/"):
		return "runtime, reflect, sync, internal/*"
	}
	return parts[0] + "/*"
}
