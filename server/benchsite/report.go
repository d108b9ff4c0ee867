package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

func mbs(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

func kbs(n int64) string { return fmt.Sprintf("%.0f kB", float64(n)/1e3) }

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// find returns the row of system in variant v, or nil.
func (r *sizeResult) find(system, v string) *row {
	for i := range r.Rows {
		if r.Rows[i].System == system && r.Rows[i].Variant == v {
			return &r.Rows[i]
		}
	}
	return nil
}

// measured reports whether a row has any visit that succeeded.
func (x *row) measured() bool { return x != nil && x.Visits > x.Failed }

// variants are the variants' names, in the order the tables list them.
var variants = []string{devtools.String(), proxied.String()}

// printSize writes one site's tables: the builds and the visits.
func printSize(w io.Writer, r *sizeResult) {
	fmt.Fprintf(w, "### Site %s (%d pages), %s, load average %s before, %s after\n\n", r.Size, r.Pages, r.Date.Format("2006-01-02 15:04"), r.LoadBefore, r.LoadAfter)
	fmt.Fprintln(w, "| system | build time | files | size on disk | .br siblings |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	for _, name := range []string{"tinyRAG", "Pagefind"} {
		b, ok := r.Builds[name]
		if !ok {
			fmt.Fprintf(w, "| %s | skipped | | | |\n", name)
			continue
		}
		br := "none (gzip inside)"
		if b.Br > 0 {
			br = mbs(b.Br)
		}
		fmt.Fprintf(w, "| %s | %.1f s | %d | %s | %s |\n", name, b.Seconds, b.Files, mbs(b.Raw), br)
	}
	fmt.Fprintln(w)
	printQueryFiles(w, r.QueryFiles)
	if len(r.Rows) == 0 {
		return // built and measured natively only (-browser=false)
	}
	fmt.Fprintln(w, "| system | variant | app ready | first results | results − ready | site data before results | app bytes before results | visits (failed, no hits) |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, v := range variants {
		for _, name := range []string{"tinyRAG", "tinyRAG, no bundle", "Pagefind"} {
			x := r.find(name, v)
			if x == nil {
				continue
			}
			if !x.measured() {
				fmt.Fprintf(w, "| %s | %s | not measured: every visit failed | | | | | %d (%d, %d) |\n", name, v, x.Visits, x.Failed, x.NoHits)
				continue
			}
			results, gap := secs(x.Results), secs(x.Gap)
			appNote := ""
			if x.Results == 0 {
				results, gap, appNote = "—", "—", " (to ready)"
			}
			ready := secs(x.Ready)
			if name == "Pagefind" {
				ready += " (page)"
				gap = "—"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s%s | %d (%d, %d) |\n", name, v, ready, results, gap, kbs(x.SiteBytes), kbs(x.AppBytes), appNote, x.Visits, x.Failed, x.NoHits)
		}
	}
	fmt.Fprintln(w)
	for _, v := range variants {
		for _, name := range []string{"tinyRAG", "tinyRAG, no bundle", "Pagefind"} {
			if x := r.find(name, v); x != nil && len(x.Errors) > 0 {
				fmt.Fprintf(w, "failed visits, %s, %s: %s\n", name, v, strings.Join(x.Errors, " | "))
			}
		}
	}
	if r.Embed != nil {
		fmt.Fprintln(w)
		printEmbed(w, r.Embed)
	}
}

// printEmbed writes the embed search's table.
func printEmbed(w io.Writer, e *embedResult) {
	fmt.Fprintf(w, "tinyRAG embed search (data-search) on a host page, %s; the first %d words of each query typed; load average %s before, %s after\n\n", proxied, e.Words, e.LoadBefore, e.LoadAfter)
	fmt.Fprintln(w, "| page | Ctrl-K → first results | Ctrl-K → results of the first word | bundle data, app bytes: Ctrl-K → first results | per further key: median | p90 | max | keys | bundle data while typing them | visits (failed, first results empty) |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, x := range e.Rows {
		if x.Visits == x.Failed {
			fmt.Fprintf(w, "| %s | not measured: every visit failed | | | | | | | | %d (%d, %d) |\n", x.Page, x.Visits, x.Failed, x.FirstEmpty)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s, %s | %d ms | %d ms | %d ms | %d | %s | %d (%d, %d) |\n", x.Page, secs(x.First), secs(x.Word), kbs(x.ToFirstSite), kbs(x.ToFirstApp),
			x.KeyMedian.Milliseconds(), x.KeyP90.Milliseconds(), x.KeyMax.Milliseconds(), x.Keys, kbs(x.SiteBytes), x.Visits, x.Failed, x.FirstEmpty)
	}
	if len(e.Errors) > 0 {
		fmt.Fprintf(w, "\nfailed embed visits: %s\n", strings.Join(e.Errors, " | "))
	}
}

// printTargets writes the targets next to the figures of results (and,
// for the comparison between sizes, of earlier).
func printTargets(w io.Writer, results, earlier []*sizeResult) {
	fmt.Fprintln(w, "### Targets (medians; met or not, as measured)")
	fmt.Fprintln(w)
	for _, r := range results {
		tb, okT := r.Builds["tinyRAG"]
		pb, okP := r.Builds["Pagefind"]
		if okT && okP {
			fmt.Fprintf(w, "- %s build, tinyRAG no slower than Pagefind: %.1f s vs %.1f s: %s\n", r.Size, tb.Seconds, pb.Seconds, met(tb.Seconds <= pb.Seconds))
		}
		for _, v := range variants {
			t, p, none := r.find("tinyRAG", v), r.find("Pagefind", v), r.find("tinyRAG, no bundle", v)
			if t == nil {
				continue // no visits (-browser=false)
			}
			if !t.measured() {
				fmt.Fprintf(w, "- %s, %s: tinyRAG not measured (every visit failed)\n", r.Size, v)
				continue
			}
			if p.measured() && p.SiteBytes > 0 {
				ratio := float64(t.SiteBytes) / float64(p.SiteBytes)
				fmt.Fprintf(w, "- %s, %s, site data before first results ≤ 2× Pagefind's: %s vs %s = %.2f×: %s\n", r.Size, v, kbs(t.SiteBytes), kbs(p.SiteBytes), ratio, met(ratio <= 2))
			}
			fmt.Fprintf(w, "- %s, %s, first results ≤ 0.5 s after ready: %s: %s\n", r.Size, v, secs(t.Gap), met(t.Gap <= 500*time.Millisecond))
			if none.measured() && none.Ready > 0 {
				ratio := float64(t.Ready) / float64(none.Ready)
				fmt.Fprintf(w, "- %s, %s, ready with the bundle within 10 %% of no bundle: %s vs %s = %.2f×: %s\n", r.Size, v, secs(t.Ready), secs(none.Ready), ratio, met(ratio <= 1.1))
			}
		}
	}
	all := append(append([]*sizeResult(nil), results...), earlier...)
	var small, large *sizeResult
	for _, r := range all {
		switch r.Size {
		case "5k":
			small = r
		case "50k":
			large = r
		}
	}
	if small == nil || large == nil {
		fmt.Fprintln(w, "- site data per query, 50k vs 5k within 1.5×: not measured (needs both sites; run with BENCH_SITE_SIZES=5k,50k)")
		return
	}
	note := ""
	for _, r := range earlier {
		note += fmt.Sprintf(" (%s figures from the run of %s)", r.Size, r.Date.Format("2006-01-02 15:04"))
	}
	printQueryFilesRatio(w, small, large, note)
	for _, v := range variants {
		s, l := small.find("tinyRAG", v), large.find("tinyRAG", v)
		if !s.measured() || !l.measured() || s.SiteBytes == 0 {
			continue
		}
		ratio := float64(l.SiteBytes) / float64(s.SiteBytes)
		fmt.Fprintf(w, "- %s, tinyRAG site data per query, 50k vs 5k within 1.5×: %s vs %s = %.2f×: %s%s\n", v, kbs(l.SiteBytes), kbs(s.SiteBytes), ratio, met(ratio <= 1.5), note)
		if ps, pl := small.find("Pagefind", v), large.find("Pagefind", v); ps.measured() && pl.measured() && ps.SiteBytes > 0 {
			fmt.Fprintf(w, "  (Pagefind: %s vs %s = %.2f×)\n", kbs(pl.SiteBytes), kbs(ps.SiteBytes), float64(pl.SiteBytes)/float64(ps.SiteBytes))
		}
	}
}

// printQueryFilesRatio writes, for each query set and ranking measured
// natively on both sites, how the site data of a first query grew from
// the 5k site to the 50k site: feedback's second round next to none.
func printQueryFilesRatio(w io.Writer, small, large *sizeResult, note string) {
	for _, l := range large.QueryFiles {
		for _, s := range small.QueryFiles {
			if s.Queries != l.Queries || s.Ranking != l.Ranking || s.Bytes == 0 {
				continue
			}
			ratio := float64(l.Bytes) / float64(s.Bytes)
			fmt.Fprintf(w, "- natively, %s, %s: site data per query 50k vs 5k %s vs %s = %.2f× (p90 %s vs %s): %s%s\n",
				l.Queries, l.Ranking, kbs(l.Bytes), kbs(s.Bytes), ratio, kbs(l.BytesP90), kbs(s.BytesP90), met(ratio <= 1.5), note)
		}
	}
}

// met says whether a target was met.
func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}
