//go:build !js

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// browserBuild runs the go command as `make wasm` builds app.wasm: for
// js/wasm, in the browser workspace (wasm/browser.work) with the browser
// copies of go-app and bleve written first (wasm/browsermod), with the
// browser build's tag.
// A failure fails the test: a graph that cannot be listed cannot be
// checked.
func browserBuild(t *testing.T, args ...string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gen := exec.Command("go", "run", "./wasm/browsermod", "-out", "bin/browsermod")
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("writing the browser copies of modules: %v\n%s", err, out)
	}
	args = append(args[:1:1], append([]string{"-tags", "tinyrag_browser"}, args[1:]...)...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	// PWD as the go command sets it for its children: in a checkout reached
	// through a symbolic link the workspace's path and the go command's
	// working directory must both be the logical one.
	cmd.Env = append(os.Environ(), "PWD="+root, "GOOS=js", "GOARCH=wasm", "GOWORK="+filepath.Join(root, "wasm", "browser.work"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// forbidden are packages app.wasm must not contain, and why. Each one was
// cut to make the first visit smaller (docs/app-wasm.md).
var forbidden = []struct{ prefix, why string }{
	{"github.com/traefik/yaegi", "the interpreter lives in nanogo.wasm"},
	{"codeberg.org/readeck/go-readability", "importers live in importer.wasm"},
	{"github.com/andybalholm/cascadia", "importers live in importer.wasm"},
	{"github.com/go-shiori/", "importers live in importer.wasm"},
	{"golang.org/x/net/html", "importers live in importer.wasm, and the sanitizer that parses HTML in markdown.wasm"},
	{"github.com/yuin/goldmark", "the Markdown renderer lives in markdown.wasm, loaded on first use (app/markdown/mdmodule)"},
	{"github.com/microcosm-cc/bluemonday", "the sanitizer lives in markdown.wasm with the renderer"},
	{"github.com/ledongthuc/pdf", "importers live in importer.wasm"},
	{"tinyrag/app/knowledge/importer", "importers live in importer.wasm"},
	{"tinyrag/app/web/fetch", "the server's fetcher, with its HTML extraction"},
	{"tinyrag/app/web/search", "the server's search backends"},
	{"github.com/golang/snappy", "only zap uses it"},
	{"net/http", "its initialisers keep Go's TLS stack; requests go through app/httpdo's own types and fetch(), and go-app's copy for the browser does without it (wasm/browsermod)"},
	{"crypto/tls", "the browser speaks TLS itself (net/http brought it)"},
	{"crypto/x509", "the browser checks certificates itself (net/http brought it)"},
	{"encoding/asn1", "certificate parsing (net/http brought it)"},
	{"crypto/ecdsa", "TLS's public-key cryptography (net/http brought it)"},
	{"crypto/rsa", "TLS's public-key cryptography (net/http brought it)"},
	{"mime", "its tables of file types; app/llm reads a Content-Type itself"},
	{"compress/gzip", "knowledge backups are gzipped by the browser's CompressionStream (app/knowledge/backup's gzip_js.go)"},
	{"compress/flate", "knowledge backups are gzipped by the browser's CompressionStream (app/knowledge/backup's gzip_js.go)"},
}

// standIns are modules the browser workspace replaces, with the folder
// (relative to wasm/) their replacement must come from.
var standIns = []struct{ module, dir, why string }{
	{"github.com/blevesearch/zapx/", "./zapx/", "zap is not used by the flat segments"},
	{"github.com/json-iterator/go", "./jsoniter", "bleve's geo package gets encoding/json, which app.wasm has anyway"},
	{"github.com/maxence-charriere/go-app/v10", "../bin/browsermod/go-app", "go-app's browser copy imports no net/http"},
	{"github.com/blevesearch/bleve/v2", "../bin/browsermod/bleve", "bleve's browser copy does no start-up work for fuzzy queries"},
	{"github.com/microcosm-cc/bluemonday", "../bin/browsermod/bluemonday", "bluemonday's browser copy parses no CSS and compiles its regular expressions with the first policy"},
	{"github.com/yuin/goldmark", "../bin/browsermod/goldmark", "goldmark's browser copy compiles its regular expressions on first use"},
}

// graphPackage is one package of a wasm file's graph and, when its
// module is replaced, the replacement's path.
type graphPackage struct{ path, replace string }

// wasmGraph lists the packages the wasm main package at dir (./wasm/app,
// ./wasm/importer) is built from, as make wasm builds it.
func wasmGraph(t *testing.T, dir string) []graphPackage {
	t.Helper()
	out := browserBuild(t, "list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{with .Replace}}{{.Path}}{{end}}{{end}}", dir)
	var pkgs []graphPackage
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, replace, _ := strings.Cut(line, " ")
		pkgs = append(pkgs, graphPackage{path, filepath.ToSlash(replace)})
	}
	if len(pkgs) < 50 {
		t.Fatalf("go list printed %d packages; that is not %s's graph:\n%s", len(pkgs), dir, out)
	}
	return pkgs
}

// TestAppWasm_LeavesOutWhatTheBrowserDoesNotNeed checks app.wasm's package
// graph: no forbidden package, and the stand-ins in place of what they
// replace.
func TestAppWasm_LeavesOutWhatTheBrowserDoesNotNeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, p := range wasmGraph(t, "./wasm/app") {
		for _, f := range forbidden {
			if strings.HasPrefix(p.path, f.prefix) {
				t.Errorf("app.wasm depends on %s again: %s", p.path, f.why)
			}
		}
		for _, s := range standIns {
			if strings.HasPrefix(p.path, s.module) && !strings.HasPrefix(p.replace, s.dir) {
				t.Errorf("app.wasm links the real %s (replaced by %q), not the stand-in in %s (%s): the browser workspace lost its replace", p.path, p.replace, s.dir, s.why)
			}
		}
	}
}

// TestImporterWasm_LeavesOutGoHTTP checks importer.wasm's package graph:
// it parses what the browser fetched, so Go's HTTP client and the TLS
// stack behind it are dead weight (go-readability's FromURL brought them;
// its browser copy has none).
func TestImporterWasm_LeavesOutGoHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, p := range wasmGraph(t, "./wasm/importer") {
		switch p.path {
		case "net/http", "crypto/tls", "crypto/x509":
			t.Errorf("importer.wasm depends on %s again", p.path)
		}
		if strings.HasPrefix(p.path, "codeberg.org/readeck/go-readability/") && !strings.HasPrefix(p.replace, "../bin/browsermod/readability") {
			t.Errorf("importer.wasm links the real %s (replaced by %q), not the copy without FromURL", p.path, p.replace)
		}
	}
}

// TestMarkdownWasm_HoldsTheRendererAlone checks markdown.wasm's package
// graph: it is fetched with a visitor's first answer, so it carries the
// renderer and nothing of the app's (the UI, the knowledge index, go-app)
// nor Go's HTTP client.
func TestMarkdownWasm_HoldsTheRendererAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	var renderer bool
	for _, p := range wasmGraph(t, "./wasm/markdown") {
		renderer = renderer || p.path == "tinyrag/app/markdown"
		for _, prefix := range []string{"github.com/maxence-charriere/go-app", "github.com/blevesearch/", "tinyrag/app/ui", "tinyrag/app/control", "tinyrag/app/knowledge", "net/http", "crypto/tls"} {
			if strings.HasPrefix(p.path, prefix) {
				t.Errorf("markdown.wasm depends on %s", p.path)
			}
		}
	}
	if !renderer {
		t.Error("markdown.wasm does not hold tinyrag/app/markdown")
	}
}

// TestAppWasm_DoesNotLinkGoHTTPClient checks what the linker keeps, since
// net/http is in the package graph anyway (go-app imports it): calling an
// *http.Client anywhere in the browser code links Go's HTTP and TLS client
// (about 0.8 MB of brotli), which fetch() makes unnecessary.
func TestAppWasm_DoesNotLinkGoHTTPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("links app.wasm")
	}
	out := browserBuild(t, "build", "-trimpath", "-ldflags=-dumpdep", "-o", os.DevNull, "./wasm/app")
	if !strings.Contains(out, "-> main.main") {
		t.Fatalf("the linker printed no dependency list:\n%.2000s", out)
	}
	for _, sym := range []string{
		"net/http.(*Client).do",
		"net/http.(*Transport).roundTrip",
		"crypto/tls.(*Conn).clientHandshake",
		"crypto/x509.(*Certificate).Verify",
	} {
		if strings.Contains(out, "-> "+sym+"\n") {
			t.Errorf("app.wasm links %s: some browser code calls Go's HTTP client instead of httpdo.Doer", sym)
		}
	}
}

// TestAppWasm_CompilesNoRegexpAtStart checks that no package in app.wasm
// outside the standard library compiles a regular expression in a
// package-level variable or an init function: that runs at every start,
// before main, and the first one makes the browser compile the regexp
// packages' code on the page's only thread (docs/startup.md). Such
// expressions belong in app/internal/lazyregexp, or, in a third-party
// module, in its browser copy's changes (wasm/browsermod).
func TestAppWasm_CompilesNoRegexpAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out := browserBuild(t, "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{end}}", "./wasm/app")
	files := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		for _, name := range fields[1:] {
			path := filepath.Join(fields[0], name)
			files++
			for _, at := range startupRegexps(t, path) {
				t.Errorf("%s compiles a regular expression at start", at)
			}
		}
	}
	if files < 200 {
		t.Fatalf("go list named %d files; that is not app.wasm's graph:\n%s", files, out)
	}
}

// startupRegexps lists where the Go file at path calls regexp.MustCompile
// or regexp.Compile in a package-level variable's value or in an init
// function, outside function literals (those run when called).
func startupRegexps(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	regexpName := ""
	for _, imp := range f.Imports {
		if imp.Path.Value == `"regexp"` {
			regexpName = "regexp"
			if imp.Name != nil {
				regexpName = imp.Name.Name
			}
		}
	}
	if regexpName == "" {
		return nil
	}
	var at []string
	find := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == regexpName && (sel.Sel.Name == "MustCompile" || sel.Sel.Name == "Compile") {
						at = append(at, fset.Position(n.Pos()).String())
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				for _, spec := range d.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						find(v)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				find(d.Body)
			}
		}
	}
	return at
}
