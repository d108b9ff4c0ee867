// Command browsermod writes the copies of third-party modules that app.wasm
// is built with: each module as the go.sum verified it in the module cache,
// with a few exact changes for the browser, into bin/browsermod/NAME, which
// the browser workspace (wasm/browser.work) puts in place of the module.
//
//	go run ./wasm/browsermod       # make wasm runs it
//
// The changes (docs/startup.md says what each saves):
//
//   - go-app's pkg/app imports net/http for its server side: the Handler that
//     serves pages, and a file server that LocalDir keeps. In a browser build
//     that is dead code, but importing net/http runs the initialisers of Go's
//     TLS stack, which keep its public-key cryptography, certificate parsing
//     and math/big in app.wasm. The copy's http.go has only the Handler type
//     (GenerateStaticWebsite's wasm stub names it) and its resource.go no
//     file server; serving pages is the server's, built with the real module.
//
//   - bluemonday's CSS support (its css package, douceur's parser, gorilla's
//     scanner) compiles about seventy regular expressions at every start, for
//     style attributes, which tinyRAG's policy never allows: the copy parses
//     no CSS and drops every style attribute (fail closed).
//
//   - bleve's scorch builds two Levenshtein automaton builders in its package
//     initialiser, for fuzzy queries, which tinyRAG does not make: at every
//     start, tens of thousands of allocations and code compiled only for
//     them, before main runs. The copy builds them on the first fuzzy query.
//
//   - go-readability's FromURL fetches a page with net/http, which the
//     importer never calls (it parses what the browser fetched): importing
//     net/http compiles Go's TLS stack into importer.wasm, its largest
//     part, and about eight seconds into every build. The copy has no
//     FromURL.
//
//   - goldmark and bluemonday compile about forty regular expressions in
//     their package initialisers, for Markdown's HTML blocks, tables, task
//     lists and links, and for the sanitizer's attribute rules: at every
//     start, before main, and the first of them makes the browser compile
//     the regexp packages' code on the page's only thread. The copies
//     compile them on first use: goldmark's when first matched, bluemonday's
//     when the first policy is made (NewPolicy; every policy starts there).
//
// Everything else is copied byte for byte. The go command refuses overlays
// of files in the module cache, hence copies. A module at another version
// than the one below stops the build until its changes are reviewed.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// copyOf is one module's browser copy.
type copyOf struct {
	name    string // folder under -out
	module  string
	version string
	dirs    []string // folders to copy; none: all
	goMod   string   // the copy's go.mod; "": the module's own
	// patches are exact replacements in the module's files.
	patches map[string][]patch
	// replaced are files written whole; added, files the module has not.
	replaced, added map[string]string
}

// patch replaces old by new; old must occur exactly times times (0: once).
type patch struct {
	old, new string
	times    int
}

var copies = []copyOf{
	{
		name:    "go-app",
		module:  "github.com/maxence-charriere/go-app/v10",
		version: "v10.1.11",
		dirs:    []string{"pkg/app", "pkg/errors"},
		goMod:   "module github.com/maxence-charriere/go-app/v10\n\ngo 1.23.0\n\nrequire github.com/google/uuid v1.6.0\n",
		patches: map[string][]patch{
			"pkg/app/resource.go": {
				{old: "import (\n\t\"net/http\"\n\t\"strings\"\n)\n", new: "import (\n\t\"strings\"\n)\n"},
				{old: "\t\tHandler:   http.FileServer(http.Dir(directory)),\n", new: ""},
				{old: "type localResourceResolver struct {\n\thttp.Handler\n", new: "type localResourceResolver struct {\n"},
			},
		},
		replaced: map[string]string{
			"pkg/app/http.go": `package app

// Handler is go-app's HTTP handler, which serves the app's pages. The
// browser build has none (see wasm/browsermod): the type stays because the
// wasm stub of GenerateStaticWebsite names it.
type Handler struct{}
`,
		},
	},
	{
		name:    "bleve",
		module:  "github.com/blevesearch/bleve/v2",
		version: "v2.6.3",
		patches: map[string][]patch{
			"index/scorch/snapshot_index.go": {
				{old: "\tvar err error\n\tlb1, err = lev.NewLevenshteinAutomatonBuilder(1, true)\n\tif err != nil {\n\t\tpanic(fmt.Errorf(\"levenshtein automaton ed1 builder err: %v\", err))\n\t}\n\tlb2, err = lev.NewLevenshteinAutomatonBuilder(2, true)\n\tif err != nil {\n\t\tpanic(fmt.Errorf(\"levenshtein automaton ed2 builder err: %v\", err))\n\t}\n", new: ""},
				{old: "\tswitch fuzziness {\n\tcase 1:\n\t\treturn lb1.BuildDfa(term, fuzziness)\n", new: "\tlevBuildersOnce.Do(makeLevBuilders)\n\tswitch fuzziness {\n\tcase 1:\n\t\treturn lb1.BuildDfa(term, fuzziness)\n"},
				{old: "// re usable, threadsafe levenshtein builders\nvar lb1, lb2 *lev.LevenshteinAutomatonBuilder\n", new: `// re usable, threadsafe levenshtein builders
var lb1, lb2 *lev.LevenshteinAutomatonBuilder

// levBuildersOnce makes lb1 and lb2 on the first fuzzy query, not in the
// package initialiser (tinyRAG's browser build: wasm/browsermod).
var levBuildersOnce sync.Once

func makeLevBuilders() {
	var err error
	lb1, err = lev.NewLevenshteinAutomatonBuilder(1, true)
	if err != nil {
		panic(fmt.Errorf("levenshtein automaton ed1 builder err: %v", err))
	}
	lb2, err = lev.NewLevenshteinAutomatonBuilder(2, true)
	if err != nil {
		panic(fmt.Errorf("levenshtein automaton ed2 builder err: %v", err))
	}
}
`},
			},
		},
	},
	{
		name:    "bluemonday",
		module:  "github.com/microcosm-cc/bluemonday",
		version: "v1.0.27",
		patches: map[string][]patch{
			"policy.go": {
				{old: "\t\"strings\"\n\n\t\"github.com/microcosm-cc/bluemonday/css\"\n)\n", new: "\t\"strings\"\n)\n"},
				{old: "sp.handler = css.GetDefaultHandler(attr)", new: "sp.handler = rejectStyle", times: 3},
				{old: "func NewPolicy() *Policy {\n\n\tp := Policy{}\n", new: "func NewPolicy() *Policy {\n\tcompileRegexps() // lazyregexps.go\n\n\tp := Policy{}\n"},
			},
			"sanitize.go": {
				{old: "\t\"golang.org/x/net/html\"\n\n\t\"github.com/aymerick/douceur/parser\"\n)\n", new: "\t\"golang.org/x/net/html\"\n)\n"},
				{old: "decs, err := parser.ParseDeclarations(attr.Val)", new: "decs, err := parseDeclarations(attr.Val)"},
				// The block's variables are declared in lazyregexps.go.
				{old: "var (\n\tdataAttribute             = regexp.MustCompile(", new: "func compileSanitizeRegexps() {\n\tdataAttribute             = regexp.MustCompile("},
				{old: "\tdataURIbase64Prefix       = regexp.MustCompile(`^data:[^,]*;base64,`)\n)\n", new: "\tdataURIbase64Prefix       = regexp.MustCompile(`^data:[^,]*;base64,`)\n}\n"},
			},
			"helpers.go": {
				{old: "var (\n\t// CellAlign handles the `align` attribute\n", new: "func compileHelperRegexps() {\n\t// CellAlign handles the `align` attribute\n"},
				{old: "\t\t`^image/(gif|jpeg|png|svg\\+xml|webp);base64,`,\n\t)\n)\n", new: "\t\t`^image/(gif|jpeg|png|svg\\+xml|webp);base64,`,\n\t)\n}\n"},
			},
		},
		added: map[string]string{
			"lazyregexps.go": `package bluemonday

import (
	"regexp"
	"sync"
)

// tinyRAG's browser build (wasm/browsermod) compiles bluemonday's regular
// expressions when the first policy is made, not in the package
// initialiser: helpers.go and sanitize.go assign them in
// compileHelperRegexps and compileSanitizeRegexps, which NewPolicy calls
// once. Every policy starts in NewPolicy, and only a policy uses them.

// The helpers' expressions (helpers.go says what each matches).
var (
	CellAlign, CellVerticalAlign, Direction, ImageAlign, Integer, ISO8601 *regexp.Regexp
	ListType, SpaceSeparatedTokens, Number, NumberOrPercent, Paragraph    *regexp.Regexp
	dataURIImagePrefix                                                    *regexp.Regexp
)

// The sanitizer's own expressions (sanitize.go).
var dataAttribute, dataAttributeXMLPrefix, dataAttributeInvalidChars, cssUnicodeChar, dataURIbase64Prefix *regexp.Regexp

var compileRegexps = sync.OnceFunc(func() {
	compileHelperRegexps()
	compileSanitizeRegexps()
})
`,
			"nostyles.go": `package bluemonday

import "errors"

// tinyRAG's browser build (wasm/browsermod) parses no CSS: its policy
// allows no style attribute, and bluemonday's CSS support (its css package,
// douceur's parser, gorilla's scanner) compiles about seventy regular
// expressions at every start. Fail closed: a style attribute is dropped
// whole, and a style rule without a handler of its own admits nothing.

// declaration is what douceur's parser returns for one property.
type declaration struct{ Property, Value string }

var errNoStyles = errors.New("bluemonday: CSS is not parsed in tinyRAG's browser build")

// parseDeclarations stands in for douceur's parser: nothing is parsed.
func parseDeclarations(string) ([]*declaration, error) { return nil, errNoStyles }

// rejectStyle stands in for the css package's default handlers.
func rejectStyle(string) bool { return false }
`,
		},
	},
	{
		name:    "goldmark",
		module:  "github.com/yuin/goldmark",
		version: "v1.8.7",
		patches: map[string][]patch{
			"parser/html_block.go": {
				{old: "\t\"bytes\"\n\t\"regexp\"\n", new: "\t\"bytes\"\n"},
				{old: " = regexp.MustCompile(", new: " = newLazyRegexp(", times: 8},
			},
			"parser/raw_html.go": {
				{old: "\t\"bytes\"\n\t\"regexp\"\n", new: "\t\"bytes\"\n"},
				{old: " = regexp.MustCompile(", new: " = newLazyRegexp(", times: 2},
				{old: "parseMultiLineRegexp(reg *regexp.Regexp,", new: "parseMultiLineRegexp(reg *lazyRegexp,"},
				{old: "if block.Match(reg) {", new: "if block.Match(reg.Regexp()) {"},
			},
			"extension/table.go": {
				{old: "\t\"fmt\"\n\t\"regexp\"\n", new: "\t\"fmt\"\n"},
				{old: " = regexp.MustCompile(", new: " = newLazyRegexp(", times: 4},
			},
			"extension/tasklist.go": {
				{old: "import (\n\t\"regexp\"\n\n", new: "import (\n"},
				{old: " = regexp.MustCompile(", new: " = newLazyRegexp("},
			},
			"extension/linkify.go": {
				{old: "var wwwURLRegxp = regexp.MustCompile(", new: "var wwwURLRegxp = newLazyRegexp("},
				{old: "var urlRegexp = regexp.MustCompile(", new: "var urlRegexp = newLazyRegexp("},
				{old: "\t\t\tURLRegexp:        urlRegexp,\n\t\t\tWWWRegexp:        wwwURLRegxp,\n", new: "\t\t\tURLRegexp:        urlRegexp.Regexp(),\n\t\t\tWWWRegexp:        wwwURLRegxp.Regexp(),\n"},
			},
			"util/util.go": {
				{old: "\t\"net/url\"\n\t\"regexp\"\n", new: "\t\"net/url\"\n"},
				{old: "var emailDomainRegexp = regexp.MustCompile(", new: "var emailDomainRegexp = newLazyRegexp("},
			},
		},
		added: map[string]string{
			"parser/lazyregexp.go":    lazyRegexpFile("parser"),
			"extension/lazyregexp.go": lazyRegexpFile("extension"),
			"util/lazyregexp.go":      lazyRegexpFile("util"),
		},
	},
	{
		name:    "readability",
		module:  "codeberg.org/readeck/go-readability/v2",
		version: "v2.1.3",
		dirs:    []string{".", "internal/re2go", "render"},
		patches: map[string][]patch{
			"readability.go": {
				{old: "import (\n\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n\tnurl \"net/url\"\n\t\"strings\"\n\t\"time\"\n\n", new: "import (\n\t\"io\"\n\tnurl \"net/url\"\n\n"},
				{old: readabilityFromURL, new: ""},
			},
		},
	},
}

// readabilityFromURL is go-readability's FromURL (v2.1.3), which the
// browser copy leaves out.
const readabilityFromURL = `type RequestWith func(r *http.Request)

// FromURL fetch the web page from specified url then parses the response to find
// the readable content.
func FromURL(pageURL string, timeout time.Duration, requestModifiers ...RequestWith) (Article, error) {
	// Make sure URL is valid
	parsedURL, err := nurl.ParseRequestURI(pageURL)
	if err != nil {
		return Article{}, fmt.Errorf("failed to parse URL: %v", err)
	}

	// Fetch page from URL
	client := &http.Client{Timeout: timeout}
	req, err := http.NewRequest("GET", pageURL, nil)
	for _, modifer := range requestModifiers {
		modifer(req)
	}
	if err != nil {
		return Article{}, fmt.Errorf("failed to fetch the page: %v", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return Article{}, fmt.Errorf("failed to fetch the page: %v", err)
	}
	defer resp.Body.Close()

	// Make sure content type is HTML
	cp := resp.Header.Get("Content-Type")
	if !strings.Contains(cp, "text/html") {
		return Article{}, fmt.Errorf("URL is not a HTML document")
	}

	// Parse content
	parser := NewParser()
	return parser.Parse(resp.Body, parsedURL)
}

`

// lazyRegexpFile is the Go file that gives package pkg of a copy a regular
// expression compiled on first use, for its package-level variables: what
// app/internal/lazyregexp is to tinyRAG's own packages, which a copied
// module cannot import.
func lazyRegexpFile(pkg string) string {
	return "package " + pkg + `

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use, not in the
// package initialiser (tinyRAG's browser build: wasm/browsermod).
type lazyRegexp struct{ re func() *regexp.Regexp }

func newLazyRegexp(pattern string) *lazyRegexp {
	return &lazyRegexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// Regexp returns the compiled expression.
func (r *lazyRegexp) Regexp() *regexp.Regexp { return r.re() }

func (r *lazyRegexp) Match(b []byte) bool { return r.re().Match(b) }

func (r *lazyRegexp) FindSubmatchIndex(b []byte) []int { return r.re().FindSubmatchIndex(b) }
`
}

const header = "// Code generated by wasm/browsermod from %s@%s for tinyRAG's browser build. DO NOT EDIT.\n\n"

func main() {
	out := flag.String("out", "bin/browsermod", "where to write the copies, one folder each")
	flag.Parse()
	for _, c := range copies {
		src, err := moduleDir(c)
		if err == nil {
			err = c.write(src, filepath.Join(*out, c.name))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "browsermod:", err)
			os.Exit(1)
		}
	}
}

// moduleDir downloads (if needed) the version of c's module that the
// tinyrag module requires and returns its folder in the module cache.
func moduleDir(c copyOf) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", c.module)
	// The module's own requirement, not a workspace's replacement.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return "", fmt.Errorf("go mod download %s: %w", c.module, err)
	}
	var m struct{ Version, Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("go mod download %s: %w", c.module, err)
	}
	if m.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", c.module, m.Error)
	}
	if m.Version != c.version {
		return "", fmt.Errorf("the tinyrag module requires %s %s; wasm/browsermod was written for %s: review its changes for the new version", c.module, m.Version, c.version)
	}
	return m.Dir, nil
}

// write makes c's copy in out from the module in src. Unchanged files are
// left alone, so the go command's cache keeps them.
func (c copyOf) write(src, out string) error {
	files := map[string][]byte{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") || !c.wants(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = b
		return err
	})
	if err != nil {
		return err
	}
	if c.goMod != "" {
		files["go.mod"] = []byte(c.goMod)
	}
	stamp := []byte(fmt.Sprintf(header, c.module, c.version))
	for name, ps := range c.patches {
		b, ok := files[name]
		if !ok {
			return fmt.Errorf("%s is not in %s@%s", name, c.module, c.version)
		}
		for _, p := range ps {
			want := max(p.times, 1)
			if n := bytes.Count(b, []byte(p.old)); n != want {
				return fmt.Errorf("%s@%s: %s: the text to change occurs %d times, not %d: %q", c.module, c.version, name, n, want, p.old)
			}
			b = bytes.ReplaceAll(b, []byte(p.old), []byte(p.new))
		}
		files[name] = append(stamp, b...)
	}
	for name, text := range c.replaced {
		if _, ok := files[name]; !ok {
			return fmt.Errorf("%s is not in %s@%s", name, c.module, c.version)
		}
		files[name] = append(stamp, text...)
	}
	for name, text := range c.added {
		if _, ok := files[name]; ok {
			return fmt.Errorf("%s is in %s@%s already", name, c.module, c.version)
		}
		files[name] = append(stamp, text...)
	}
	return syncDir(out, files)
}

// wants reports whether the file at rel (slash-separated, relative to the
// module) is in one of c's folders; the LICENSE and go.mod always are.
func (c copyOf) wants(rel string) bool {
	if len(c.dirs) == 0 || rel == "LICENSE" || rel == "go.mod" {
		return true
	}
	for _, d := range c.dirs {
		if filepath.ToSlash(filepath.Dir(rel)) == d {
			return true
		}
	}
	return false
}

// syncDir makes out hold exactly files, rewriting only what differs.
func syncDir(out string, files map[string][]byte) error {
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			return os.Remove(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for name, b := range files {
		p := filepath.Join(out, filepath.FromSlash(name))
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
