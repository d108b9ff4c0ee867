package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// buildResult is one indexer's run over one site.
type buildResult struct {
	took  time.Duration
	files int   // files as served (not counting .gz/.br siblings)
	raw   int64 // their bytes
	br    int64 // the .br siblings' bytes (0: the indexer writes none)
	err   error
}

// timed runs a command and returns how long it took; its output is
// returned only when it fails.
func timed(ctx context.Context, name string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	return took, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// diskSize adds up a folder's files: those without a .gz/.br suffix as
// raw, the .br siblings apart.
func diskSize(dir string) (files int, raw, br int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".br"):
			br += fi.Size()
		case strings.HasSuffix(p, ".gz"):
		default:
			files++
			raw += fi.Size()
		}
		return nil
	})
	return files, raw, br, err
}

// buildTinyRAG indexes the pages into a bundle folder with `tinyrag
// bundle`, as a site's owner would.
func buildTinyRAG(ctx context.Context, bin, pages, out string) buildResult {
	os.RemoveAll(out)
	took, err := timed(ctx, bin, "bundle", "-o", out, "-title", "SciFact", "-prefix", "/docs/", pages)
	r := buildResult{took: took, err: err}
	if err == nil {
		r.files, r.raw, r.br, r.err = diskSize(out)
	}
	return r
}

// buildPagefind indexes the site with Pagefind, which writes
// root/pagefind/.
func buildPagefind(ctx context.Context, bin, root string) buildResult {
	out := filepath.Join(root, "pagefind")
	os.RemoveAll(out)
	took, err := timed(ctx, bin, "--site", root)
	r := buildResult{took: took, err: err}
	if err == nil {
		r.files, r.raw, r.br, r.err = diskSize(out)
	}
	return r
}

// searchPage is the Pagefind side's page: it imports pagefind.js, searches
// for ?q= on load and shows the first results' titles and excerpts once
// their fragments are loaded (data()), as many as the tinyRAG knowledge
// panel shows. It records when, for the benchmark to read.
const searchPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Search</title></head>
<body>
<input id="q" type="search" aria-label="Search">
<ol id="results"></ol>
<script type="module">
const bench = window.__bench = {};
const q = new URLSearchParams(location.search).get("q") || "";
document.getElementById("q").value = q;
bench.ready = performance.now();
try {
  const pagefind = await import("/pagefind/pagefind.js");
  const search = await pagefind.search(q);
  const data = await Promise.all(search.results.slice(0, %d).map((r) => r.data()));
  const list = document.getElementById("results");
  for (const d of data) {
    const li = document.createElement("li");
    li.className = "hit";
    const title = document.createElement("strong");
    title.textContent = d.meta.title;
    const excerpt = document.createElement("p");
    excerpt.innerHTML = d.excerpt;
    li.append(title, excerpt);
    list.append(li);
  }
  bench.hits = data.length;
  bench.results = performance.now();
} catch (e) {
  bench.error = String(e);
}
</script>
</body>
</html>
`

// writeSearchPage writes the Pagefind search page as root/search.html.
func writeSearchPage(root string, hits int) error {
	return os.WriteFile(filepath.Join(root, "search.html"), []byte(fmt.Sprintf(searchPage, hits)), 0o644)
}
