// Command benchsite measures a static site's search with tinyRAG next to
// Pagefind (make bench-site): it generates SciFact as HTML pages (5,183
// pages, and a synthetic site ten times larger), indexes each with
// `tinyrag bundle` and with Pagefind, serves both from one local file
// server, and measures first visits in headless Chromium on a throttled
// network: when the app is ready, when the first results of a query
// show, and how many bytes of site data came before them; and, on a page
// of the site that carries the embed's search (data-search), the time
// from Ctrl-K to the first results and from each further key to its
// results. It prints tables and the targets next to the figures; it
// asserts nothing.
//
//	go run ./server/benchsite -scifact ../shared/data/scifact -sizes 5k
//
// See docs/site-knowledge-bench.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"tinyrag/app/knowledge/beir"
	"tinyrag/server/internal/loadavg"
)

// options are the command's flags.
type options struct {
	scifact  string
	out      string
	tinyrag  string
	pagefind string
	chrome   string
	sizes    []string
	queries  int
	timeout  time.Duration
	seed     uint64
	embed    bool
	browser  bool
	trace    string // a folder for traces of each variant's first tinyRAG visit ("": none)
	requests bool   // print every visit's requests and marks, not only the first
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench-site:", err)
		stop()
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("benchsite", flag.ContinueOnError)
	var o options
	sizes := os.Getenv("BENCH_SITE_SIZES")
	if sizes == "" {
		sizes = "5k,50k"
	}
	fl.StringVar(&o.scifact, "scifact", "../shared/data/scifact", "the SciFact folder (corpus.jsonl, queries-test.jsonl)")
	fl.StringVar(&o.out, "out", "bin/bench-site", "where the generated sites, bundles and results go")
	fl.StringVar(&o.tinyrag, "tinyrag", "bin/tinyrag", "the tinyrag binary (make build)")
	fl.StringVar(&o.pagefind, "pagefind", "bin/npm/node_modules/.bin/pagefind", "the pagefind 1.6.0 command; missing: Pagefind is skipped")
	fl.StringVar(&o.chrome, "chromium", "/usr/bin/chromium", "the Chromium binary")
	fl.StringVar(&sizes, "sizes", sizes, "sites to measure, comma-separated: 5k (SciFact), 50k (ten times as many pages); default $BENCH_SITE_SIZES or 5k,50k")
	fl.IntVar(&o.queries, "queries", 20, "how many SciFact test queries (the first ones), one first visit each")
	fl.DurationVar(&o.timeout, "timeout", 2*time.Minute, "how long one visit may take")
	fl.Uint64Var(&o.seed, "seed", 1, "the seed of the synthetic pages' draws")
	fl.BoolVar(&o.embed, "embed", true, "measure the embed's search (Ctrl-K on a host page) too")
	fl.BoolVar(&o.browser, "browser", true, "measure visits in Chromium (false: only build the sites and measure what a query reads natively)")
	fl.BoolVar(&o.requests, "requests", false, "print every visit's site requests and the app's marks (by default only each variant's first visit's)")
	fl.StringVar(&o.trace, "trace", "", "write a Chromium performance trace of each variant's first tinyRAG visit with a query into this folder")
	if err := fl.Parse(args); err != nil {
		return err
	}
	for _, s := range strings.Split(sizes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if s != "5k" && s != "50k" {
				return fmt.Errorf("size %q: want 5k or 50k", s)
			}
			o.sizes = append(o.sizes, s)
		}
	}
	for _, p := range []*string{&o.tinyrag, &o.out} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		*p = abs
	}
	if _, err := os.Stat(o.tinyrag); err != nil {
		return fmt.Errorf("the tinyrag binary is missing (run make build): %w", err)
	}
	if _, err := os.Stat(o.chrome); err != nil && o.browser {
		return fmt.Errorf("Chromium is missing (make e2e-deps installs it): %w", err)
	}
	pagefind := ""
	if v, err := exec.Command(o.pagefind, "--version").Output(); err == nil && strings.TrimSpace(string(v)) == "pagefind 1.6.0" {
		pagefind = o.pagefind
	} else {
		fmt.Printf("Pagefind skipped: %s is not pagefind 1.6.0 (%v)\n", o.pagefind, err)
	}

	files := beir.DirFiles(o.scifact)
	var corpus []beir.Doc
	var queries []beir.Query
	if err := readJSONL(files[0], func(f *os.File) (err error) { corpus, err = beir.ReadCorpus(f); return }); err != nil {
		return err
	}
	if err := readJSONL(files[1], func(f *os.File) (err error) { queries, err = beir.ReadQueries(f); return }); err != nil {
		return err
	}
	if len(queries) > o.queries {
		queries = queries[:o.queries]
	}

	started := time.Now()
	fmt.Printf("bench-site %s on %d cores, load average %s\n", started.Format("2006-01-02 15:04"), runtime.NumCPU(), loadavg.String())
	fmt.Printf("network: %.0f Mbit/s, %d ms latency; a fresh Chromium profile per visit; %d queries per site\n",
		netBitsPerSec/1e6, netLatency.Milliseconds(), len(queries))
	fmt.Println("server: Go's http.FileServer on 127.0.0.1, answering X with its X.br or X.gz sibling when the browser accepts it and the sibling exists (a host set up for precompressed files); Pagefind's own files have no siblings and are served as Pagefind wrote them")
	var results []*sizeResult
	for _, size := range o.sizes {
		n := len(corpus)
		if size == "50k" {
			n *= 10
		}
		r, err := measureSize(ctx, o, size, n, corpus, queries, pagefind)
		if err != nil {
			return fmt.Errorf("site %s: %w", size, err)
		}
		results = append(results, r)
		// A run without visits leaves the last full run's figures, which
		// a later run of one size compares with, as they were.
		if o.browser {
			if err := saveResult(o.out, r); err != nil {
				return err
			}
		}
		fmt.Println()
		printSize(os.Stdout, r)
	}
	fmt.Printf("\nbench-site done in %s, load average %s\n\n", time.Since(started).Round(time.Second), loadavg.String())
	printTargets(os.Stdout, results, loadEarlier(o.out, results))
	return nil
}

func readJSONL(path string, read func(*os.File) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f)
}

// measureSize builds one site and measures its visits.
func measureSize(ctx context.Context, o options, size string, n int, corpus []beir.Doc, queries []beir.Query, pagefind string) (*sizeResult, error) {
	root := filepath.Join(o.out, size)
	site := filepath.Join(root, "site")
	res := &sizeResult{Size: size, Pages: n, Date: time.Now(), Builds: map[string]buildSummary{}}
	fmt.Printf("\n== site %s: %d pages ==\n", size, n)
	if err := os.RemoveAll(site); err != nil {
		return nil, err
	}
	if err := writePages(filepath.Join(site, "docs"), sitePages(corpus, n, o.seed)); err != nil {
		return nil, fmt.Errorf("writing the pages: %w", err)
	}

	res.LoadBefore = loadavg.String()
	bundleDir := filepath.Join(root, "bundle", "scifact")
	tb := buildTinyRAG(ctx, o.tinyrag, filepath.Join(site, "docs"), bundleDir)
	if tb.err != nil {
		return nil, tb.err
	}
	res.Builds["tinyRAG"] = summarizeBuild(tb)
	fmt.Printf("tinyRAG bundle: %.1f s, %d files, %s raw, %s as .br (load %s)\n", tb.took.Seconds(), tb.files, mbs(tb.raw), mbs(tb.br), loadavg.String())
	qf, err := measureQueryFiles(ctx, bundleDir, queries)
	if err != nil {
		return nil, fmt.Errorf("what a query reads: %w", err)
	}
	res.QueryFiles = qf
	if pagefind != "" {
		pb := buildPagefind(ctx, pagefind, site)
		if pb.err != nil {
			return nil, pb.err
		}
		res.Builds["Pagefind"] = summarizeBuild(pb)
		fmt.Printf("Pagefind: %.1f s, %d files, %s (its index files are gzip inside) (load %s)\n", pb.took.Seconds(), pb.files, mbs(pb.raw), loadavg.String())
	}
	if !o.browser {
		res.LoadAfter = loadavg.String()
		return res, nil
	}
	if err := writeSearchPage(site, 8); err != nil {
		return nil, err
	}
	if _, err := timed(ctx, o.tinyrag, "static", "-o", filepath.Join(site, "kb"), "--base", "/kb/", "--bundle", bundleDir); err != nil {
		return nil, err
	}
	if _, err := timed(ctx, o.tinyrag, "static", "-o", filepath.Join(site, "kb-none"), "--base", "/kb-none/"); err != nil {
		return nil, err
	}

	files, err := serve(ctx, precompressed(site))
	if err != nil {
		return nil, err
	}
	target, _ := url.Parse(files)
	thr := newThrottle(target, netLatency, netBitsPerSec)
	proxy, err := serve(ctx, thr)
	if err != nil {
		return nil, err
	}

	type system struct {
		name    string
		path    func(q string) string
		tinyRAG bool
		query   bool
	}
	systems := []system{
		{"tinyRAG", func(string) string { return "/kb/" }, true, true},
		{"tinyRAG, no bundle", func(string) string { return "/kb-none/" }, true, false},
	}
	if pagefind != "" {
		systems = append(systems, system{"Pagefind", func(q string) string { return "/search.html?q=" + url.QueryEscape(q) }, false, true})
	}
	for _, v := range []variant{devtools, proxied} {
		base := files
		var p *throttle
		if v == proxied {
			base, p = proxy, thr
		}
		runs := map[string][]visitResult{}
		for i, q := range queries {
			// The systems take turns query by query, so that a change
			// in the machine's load falls on all of them alike.
			for _, s := range systems {
				spec := visitSpec{url: base + s.path(q.Text), tinyRAG: s.tinyRAG, variant: v, proxy: p, chrome: o.chrome, timeout: o.timeout}
				if s.query {
					spec.query = q.Text
				}
				if o.trace != "" && i == 0 && s.tinyRAG && s.query {
					spec.trace = filepath.Join(o.trace, fmt.Sprintf("%s-%s.json", size, shortVariant(v)))
				}
				r, err := visit(ctx, spec)
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", s.name, v, err)
				}
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				runs[s.name] = append(runs[s.name], r)
				fmt.Printf("  %s | %-18s | q%-2d ready %5d ms, results %5d ms, %2d hits, site %7d B, app %8d B %s\n",
					shortVariant(v), s.name, i+1, r.Ready.Milliseconds(), r.Results.Milliseconds(), r.Hits, r.SiteBytes, r.AppBytes, r.Err)
				if (i == 0 || o.requests) && r.Trace != "" {
					fmt.Printf("      requests (path start-end ms): %s\n", r.Trace)
				}
			}
		}
		for _, s := range systems {
			res.Rows = append(res.Rows, summarize(s.name, v.String(), s.query, runs[s.name]))
		}
	}
	if o.embed {
		hosts, err := embedHosts(site, corpus)
		if err != nil {
			return nil, err
		}
		if res.Embed, err = measureEmbed(ctx, o, proxy, hosts, queries, thr); err != nil {
			return nil, err
		}
	}
	res.LoadAfter = loadavg.String()
	return res, nil
}

// measureEmbed makes one embed visit per query, through the proxy.
func measureEmbed(ctx context.Context, o options, base string, hosts [2]string, queries []beir.Query, thr *throttle) (*embedResult, error) {
	out := &embedResult{Words: embedWords, LoadBefore: loadavg.String()}
	var visits []embedVisit
	for i, q := range queries {
		v, err := visitEmbed(ctx, o.chrome, base, hosts, q.Text, thr, o.timeout)
		if err != nil {
			return nil, fmt.Errorf("embed search: %w", err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		visits = append(visits, v)
		first, rest := typedQuery(q.Text, embedWords)
		fmt.Printf("  b | embed search       | q%-2d %q: first visit %s; later page %s %s\n", i+1, first+rest, v.First, v.Later, v.Err())
		if i == 0 {
			for _, p := range []struct {
				name string
				s    pageSearch
			}{{"first visit", v.First}, {"later page", v.Later}} {
				fmt.Printf("      %s, Ctrl-K to first results: %s\n", p.name, pathList(p.s.ToFirstPaths, 12))
				fmt.Printf("      %s, while typing the further keys: %s\n", p.name, pathList(p.s.KeysPaths, 12))
			}
		}
		if e := v.Err(); e != "" {
			out.Errors = append(out.Errors, fmt.Sprintf("q%d: %s", i+1, e))
		}
	}
	first, later := summarizeEmbed(visits)
	out.Rows = []embedRow{first, later}
	out.LoadAfter = loadavg.String()
	return out, nil
}

func shortVariant(v variant) string {
	if v == devtools {
		return "a"
	}
	return "b"
}

// serve serves h on a loopback port until ctx ends and returns its URL.
func serve(ctx context.Context, h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "bench-site: server:", err)
		}
	}()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	return "http://" + ln.Addr().String(), nil
}

// sizeResult is one site's figures.
type sizeResult struct {
	Size       string                  `json:"size"`
	Pages      int                     `json:"pages"`
	Date       time.Time               `json:"date"`
	LoadBefore string                  `json:"load_before"`
	LoadAfter  string                  `json:"load_after"`
	Builds     map[string]buildSummary `json:"builds"`
	Rows       []row                   `json:"rows"`
	Embed      *embedResult            `json:"embed,omitempty"`
	QueryFiles []queryFilesRow         `json:"query_files,omitempty"`
}

// buildSummary is an indexer's run as reported.
type buildSummary struct {
	Seconds float64 `json:"seconds"`
	Files   int     `json:"files"`
	Raw     int64   `json:"raw"`
	Br      int64   `json:"br"`
}

func summarizeBuild(b buildResult) buildSummary {
	return buildSummary{Seconds: b.took.Seconds(), Files: b.files, Raw: b.raw, Br: b.br}
}

// row is one system's visits in one variant, by median.
type row struct {
	System  string `json:"system"`
	Variant string `json:"variant"`
	Visits  int    `json:"visits"`
	Failed  int    `json:"failed"`
	// NoHits counts queries whose results were empty.
	NoHits    int           `json:"no_hits"`
	Ready     time.Duration `json:"ready"`
	Results   time.Duration `json:"results"` // 0: the visits made no query
	Gap       time.Duration `json:"gap"`     // results − ready, per visit
	SiteBytes int64         `json:"site_bytes"`
	AppBytes  int64         `json:"app_bytes"`
	Errors    []string      `json:"errors,omitempty"`
}

// summarize takes each figure's median over the visits that succeeded.
func summarize(system, v string, query bool, rs []visitResult) row {
	out := row{System: system, Variant: v, Visits: len(rs)}
	var ready, results, gap, site, app []int64
	for _, r := range rs {
		if r.Err != "" {
			out.Failed++
			out.Errors = append(out.Errors, r.Err)
			continue
		}
		if query && r.Hits == 0 {
			out.NoHits++
		}
		ready = append(ready, int64(r.Ready))
		if query {
			results = append(results, int64(r.Results))
			gap = append(gap, int64(r.Results-r.Ready))
		}
		site = append(site, r.SiteBytes)
		app = append(app, r.AppBytes)
	}
	out.Ready, out.Results, out.Gap = time.Duration(median(ready)), time.Duration(median(results)), time.Duration(median(gap))
	out.SiteBytes, out.AppBytes = median(site), median(app)
	return out
}

// median is the middle value (the mean of the two middle ones for an
// even count); 0 for none.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// saveResult keeps a site's figures, so a later run of the other size
// alone can still compare the two.
func saveResult(dir string, r *sizeResult) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results-"+r.Size+".json"), b, 0o644)
}

// loadEarlier reads the saved figures of the sizes this run did not
// measure.
func loadEarlier(dir string, have []*sizeResult) []*sizeResult {
	var out []*sizeResult
	for _, size := range []string{"5k", "50k"} {
		found := false
		for _, r := range have {
			found = found || r.Size == size
		}
		if found {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "results-"+size+".json"))
		if err != nil {
			continue
		}
		var r sizeResult
		if json.Unmarshal(b, &r) == nil {
			out = append(out, &r)
		}
	}
	return out
}
