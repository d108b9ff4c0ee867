package main

import (
	"bytes"
	"strings"
	"testing"
)

// section is one wasm section: id, LEB128 size, payload.
func section(id byte, payload ...[]byte) []byte {
	p := bytes.Join(payload, nil)
	return append(append([]byte{id}, uleb(len(p))...), p...)
}

func uleb(n int) []byte {
	var out []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n != 0 {
			out = append(out, c|0x80)
			continue
		}
		return append(out, c)
	}
}

func name(s string) []byte { return append(uleb(len(s)), s...) }

// tinyModule is a module with one imported function and three defined
// ones, named as Go's wasm linker names them.
func tinyModule() []byte {
	imports := section(2, uleb(1), name("go"), name("runtime.wasmExit"), []byte{0}, uleb(0))
	bodies := [][]byte{make([]byte, 10), make([]byte, 200), make([]byte, 3000)}
	code := [][]byte{uleb(len(bodies))}
	for _, b := range bodies {
		code = append(code, uleb(len(b)), b)
	}
	funcs := section(1, uleb(3),
		uleb(1), name("runtime.mallocgc"),
		uleb(2), name("github.com_maxence_charriere_go_app_v10_pkg_app.__Compo_.Mount"),
		uleb(3), name("tinyrag_app_ui.__Controller_.Start"))
	names := section(0, name("name"), funcs)
	data := section(11, make([]byte, 77))
	out := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range [][]byte{imports, section(10, code...), data, names} {
		out = append(out, s...)
	}
	return out
}

func TestParse_SumsCodePerPackageFromTheNameSection(t *testing.T) {
	m, err := Parse(tinyModule())
	if err != nil {
		t.Fatal(err)
	}
	if m.Imports != 1 || len(m.Bodies) != 3 || m.Data != 77 {
		t.Fatalf("imports %d, bodies %v, data %d; want 1, three, 77", m.Imports, m.Bodies, m.Data)
	}
	pkgs := NewPackages([]string{"runtime", "github.com/maxence-charriere/go-app/v10/pkg/app", "tinyrag/app/ui"})
	got := m.CodeBy(pkgs.Of)
	// Each body is its size plus nothing else: the LEB128 size is not code.
	want := map[string]int{"runtime": 10, "github.com/maxence-charriere/go-app/v10/pkg/app": 200, "tinyrag/app/ui": 3000}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d bytes, want %d (all: %v)", k, got[k], v, got)
		}
	}
}

func TestParse_RefusesWhatIsNotWasm(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"not wasm", []byte("#!/bin/sh\necho hello\n")},
		{"truncated section", append([]byte("\x00asm\x01\x00\x00\x00"), 10, 0x80, 0x80, 0x01)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse(tc.b); err == nil {
				t.Error("parsed")
			}
		})
	}
}

func TestPackagesOf_UndoesTheLinkersMangling(t *testing.T) {
	pkgs := NewPackages([]string{
		"github.com/yuin/goldmark", "github.com/yuin/goldmark/parser", "slices", "tinyrag/app/chats", "main",
	})
	for _, tc := range []struct{ sym, want string }{
		{"github.com_yuin_goldmark_parser.NewParser", "github.com/yuin/goldmark/parser"},
		{"github.com_yuin_goldmark.New", "github.com/yuin/goldmark"},
		{"slices.SortFunc_go.shape.__uint8_tinyrag_app_chats.Chat_", "slices"},
		{"type_.eq.tinyrag_app_chats.Message", "type: (compiler-made equality and hash functions)"},
		{"main.main", "main"},
		{"somewhere.F", "somewhere (unknown package)"},
		{"memchr", "runtime (assembly)"},
	} {
		if got := pkgs.Of(tc.sym); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.sym, got, tc.want)
		}
	}
}

func TestModuleOf_RollsPackagesUpToWhatIsKeptOrDroppedWhole(t *testing.T) {
	for _, tc := range []struct{ pkg, want string }{
		{"github.com/blevesearch/bleve/v2/index/scorch", "github.com/blevesearch/bleve/v2"},
		{"github.com/yuin/goldmark/parser", "github.com/yuin/goldmark"},
		{"golang.org/x/net/html", "golang.org/x/net"},
		{"tinyrag/app/knowledge/flatseg", "tinyrag/app/knowledge"},
		{"crypto/internal/fips140/nistec", "crypto/*"},
		{"internal/runtime/maps", "runtime, reflect, sync, internal/*"},
		{"runtime", "runtime, reflect, sync, internal/*"},
		{"runtime (assembly)", "runtime, reflect, sync, internal/*"},
	} {
		if got := ModuleOf(tc.pkg); got != tc.want {
			t.Errorf("ModuleOf(%q) = %q, want %q", tc.pkg, got, tc.want)
		}
	}
}

func TestReport_ShowsEachGroupsChangeBetweenTwoBuilds(t *testing.T) {
	a, _ := Parse(tinyModule())
	b, _ := Parse(tinyModule())
	b.Bodies = []int{10, 200, 1000} // the ui package got smaller
	b.Code -= 2000
	var out strings.Builder
	report(&out, []*Module{a, b}, NewPackages([]string{"runtime", "tinyrag/app/ui"}).Of, 0)
	lines := strings.Split(out.String(), "\n")
	// The header, the sections, then the biggest change first.
	if len(lines) < 5 || !strings.Contains(lines[4], "-2.0 KB") || !strings.HasSuffix(lines[4], "tinyrag/app/ui") {
		t.Fatalf("report:\n%s", out.String())
	}
}
