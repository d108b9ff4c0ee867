// Package docs holds tinyRAG's engineering notes (the Markdown files beside
// this one) and the test that keeps every relative link in the repository's
// Markdown working. It has no code of its own; `go test ./...` runs the test.
package docs

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's top folder: the one above docs/.
const repoRoot = ".."

// skipDirs are folders whose Markdown is not the repository's own: build
// output and installed packages, all ignored by git.
var skipDirs = map[string]bool{
	"bin":                    true,
	"screenshots":            true,
	"server/webapp/dist/web": true,
}

// TestMarkdownLinks_RelativeTargetsExist checks every relative link of every
// Markdown file in the repository: the file or folder it names exists
// inside the repository, and a #fragment names a heading of the Markdown
// file it points to, by GitHub's anchor rules. Absolute links (http, https,
// mailto) are not checked: the test never fetches anything.
func TestMarkdownLinks_RelativeTargetsExist(t *testing.T) {
	files, err := markdownFiles(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	// A walk that starts in the wrong place would find nothing and pass.
	for _, must := range []string{"README.md", "docs/protocol.md"} {
		if !slices.Contains(files, must) {
			t.Fatalf("%s not found among the Markdown files %v: is the test running in docs/?", must, files)
		}
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(file)))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range links(string(src)) {
				if err := checkLink(repoRoot, file, l.target); err != nil {
					t.Errorf("%s:%d: link %q: %v", file, l.line, l.target, err)
				}
			}
		})
	}
}

// TestGitHubAnchor_FollowsGitHubRules pins the heading → anchor rule the
// link check relies on: lower case, spaces to hyphens, punctuation dropped,
// inline code and link markup reduced to their text.
func TestGitHubAnchor_FollowsGitHubRules(t *testing.T) {
	tests := []struct {
		heading, want string
	}{
		{"Architecture", "architecture"},
		{"The browser's HTTP", "the-browsers-http"},
		{"bleve in WebAssembly: the bbolt stand-in", "bleve-in-webassembly-the-bbolt-stand-in"},
		{"The SSRF guard of /api/fetch", "the-ssrf-guard-of-apifetch"},
		{"`tinyrag.json`", "tinyragjson"},
		{"BM25+", "bm25"},
		{"Parsing rules (`app/protocol`, `XMLParseState.Feed` and `Flush`)", "parsing-rules-appprotocol-xmlparsestatefeed-and-flush"},
		{"Before and after — the diet", "before-and-after--the-diet"},
		{"snake_case stays", "snake_case-stays"},
		{"See [the guide](guide.md)", "see-the-guide"},
		{"Größe und Überblick", "größe-und-überblick"},
	}
	for _, tt := range tests {
		if got := githubAnchor(tt.heading); got != tt.want {
			t.Errorf("githubAnchor(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

// TestAnchors_NumbersRepeatedHeadings checks that a heading used twice gets
// GitHub's -1 suffix the second time, and that headings inside code blocks
// are not headings.
func TestAnchors_NumbersRepeatedHeadings(t *testing.T) {
	md := "# Notes\n## Setup\n```sh\n# not a heading\n```\n## Setup\n"
	got := anchors(md)
	for _, want := range []string{"notes", "setup", "setup-1"} {
		if !got[want] {
			t.Errorf("anchors: %q missing from %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Errorf("anchors: a comment in a code block was taken for a heading: %v", got)
	}
}

// TestLinks_FindsLinksOutsideCodeOnly checks which targets the scanner
// reports: inline links, images and reference definitions, but nothing
// inside code spans or fenced code blocks.
func TestLinks_FindsLinksOutsideCodeOnly(t *testing.T) {
	tests := []struct {
		name, md string
		want     []string
	}{
		{"inline link", "see [the docs](docs/a.md) now", []string{"docs/a.md"}},
		{"link with title", `see [a](a.md "A") now`, []string{"a.md"}},
		{"fragment only", "[up](#top)", []string{"#top"}},
		{"image", "![logo](assets/logo.png)", []string{"assets/logo.png"}},
		{"code in link text", "[`x.go`](app/x.go)", []string{"app/x.go"}},
		{"reference definition", "[ref]: docs/b.md#part", []string{"docs/b.md#part"}},
		{"two on a line", "[a](a.md) and [b](b.md)", []string{"a.md", "b.md"}},
		{"code span", "call `f[i](x)` here", nil},
		{"fenced block", "```go\nx := a[i](y)\n```\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range links(tt.md) {
				got = append(got, l.target)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("links(%q) = %q, want %q", tt.md, got, tt.want)
			}
		})
	}
}

// TestCheckLink_RefusesBrokenLinks proves the check fails on what it is
// for — a missing file, a missing heading, a link that leaves the
// repository — and passes good and absolute links, in a small repository
// made for the test.
func TestCheckLink_RefusesBrokenLinks(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"README.md":       "# Top\n\n## Three ways to use it\n",
		"docs/guide.md":   "# Guide\n\n## Safety rules\n\n## Safety rules\n",
		"app/main.go":     "package main\n",
		"docs/sub/new.md": "no headings\n",
	} {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		from, target string
		wantErr      bool
	}{
		{"README.md", "docs/guide.md", false},
		{"README.md", "docs/guide.md#safety-rules-1", false},
		{"README.md", "#three-ways-to-use-it", false},
		{"README.md", "app/", false},
		{"README.md", "app/main.go#L1", false},
		{"README.md", "/docs/guide.md#guide", false},
		{"docs/sub/new.md", "../guide.md#safety-rules", false},
		{"docs/sub/new.md", "../../README.md#top", false},
		{"README.md", "https://example.org/nowhere.md", false},
		{"README.md", "mailto:someone@example.org", false},
		{"README.md", "docs/no-such-file.md", true},
		{"README.md", "docs/guide.md#no-such-heading", true},
		{"README.md", "docs/guide.md#safety-rules-2", true},
		{"README.md", "#no-such-heading", true},
		{"README.md", "../outside.md", true},
		{"docs/sub/new.md", "guide.md", true},
	}
	for _, tt := range tests {
		err := checkLink(root, tt.from, tt.target)
		if (err != nil) != tt.wantErr {
			t.Errorf("checkLink(%s, %q) = %v, want error: %v", tt.from, tt.target, err, tt.wantErr)
		}
	}
}

// markdownFiles lists the repository's Markdown files, slash-separated and
// relative to root, skipping hidden folders, node_modules and build output.
func markdownFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || skipDirs[rel]) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(strings.ToLower(d.Name()), ".md") {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

// link is one link target and the line it is on.
type link struct {
	target string
	line   int
}

var (
	fenceRe   = regexp.MustCompile("^ {0,3}(```|~~~)")
	codeRe    = regexp.MustCompile("`+[^`]*`+")
	inlineRe  = regexp.MustCompile(`\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refDefRe  = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	headingRe = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$`)
	htmlIDRe  = regexp.MustCompile(`<a\s[^>]*(?:name|id)="([^"]+)"`)
	schemeRe  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	mdLinkRe  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// proseLines yields the lines of md outside fenced code blocks, with their
// 1-based numbers.
func proseLines(md string, yield func(n int, line string)) {
	inFence, fence := false, ""
	for i, line := range strings.Split(md, "\n") {
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			switch {
			case !inFence:
				inFence, fence = true, m[1]
			case m[1] == fence:
				inFence = false
			}
			continue
		}
		if !inFence {
			yield(i+1, line)
		}
	}
}

// links returns the targets of md's inline links, images and reference
// definitions, outside code.
func links(md string) []link {
	var out []link
	proseLines(md, func(n int, line string) {
		if m := refDefRe.FindStringSubmatch(line); m != nil {
			out = append(out, link{m[1], n})
			return
		}
		// Code spans go first, so their text is never taken for a link, but
		// a link's text may be code: keep the brackets, drop what is inside.
		line = codeRe.ReplaceAllString(line, "code")
		for _, m := range inlineRe.FindAllStringSubmatch(line, -1) {
			out = append(out, link{m[1], n})
		}
	})
	return out
}

// checkLink checks one link target found in the Markdown file from (a path
// relative to root).
func checkLink(root, from, target string) error {
	if schemeRe.MatchString(target) {
		return nil // absolute: http, https, mailto
	}
	p, frag, _ := strings.Cut(target, "#")
	p, err := url.PathUnescape(p)
	if err != nil {
		return err
	}
	switch {
	case p == "":
		p = from
	case strings.HasPrefix(p, "/"):
		p = path.Clean(strings.TrimPrefix(p, "/"))
	default:
		p = path.Join(path.Dir(from), p)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("it leaves the repository (%s)", p)
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	if _, err := os.Stat(full); err != nil {
		return fmt.Errorf("%s does not exist", p)
	}
	if frag == "" || !strings.HasSuffix(strings.ToLower(p), ".md") {
		return nil // a fragment on a code file is a line number
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return err
	}
	if !anchors(string(src))[strings.ToLower(frag)] {
		return fmt.Errorf("%s has no heading with the anchor #%s", p, frag)
	}
	return nil
}

// anchors returns the anchors GitHub makes for md's headings (a repeated
// heading gets -1, -2, …) and for explicit <a name|id="…"> tags.
func anchors(md string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	proseLines(md, func(_ int, line string) {
		for _, m := range htmlIDRe.FindAllStringSubmatch(line, -1) {
			set[strings.ToLower(m[1])] = true
		}
		m := headingRe.FindStringSubmatch(line)
		if m == nil {
			return
		}
		a := githubAnchor(m[2])
		if n := seen[a]; n > 0 {
			set[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			set[a] = true
		}
		seen[a]++
	})
	return set
}

// githubAnchor turns a heading's text into its anchor the way GitHub does:
// the rendered text in lower case, letters, digits, hyphens and
// underscores kept, each space made a hyphen, everything else dropped.
func githubAnchor(heading string) string {
	text := mdLinkRe.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
