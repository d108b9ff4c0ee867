package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tinyrag/app/knowledge/beir"
)

// embedScript is the line a site's owner adds to a page for the embed's
// search: the app under /kb/, as `tinyrag static --base /kb/` wrote it.
const embedScript = `<script src="/kb/web/embed.js" defer data-title="Ask SciFact" data-search="true"></script>`

// embedHosts writes two pages of the site with the embed's script line,
// under embed/ (after the indexers ran, so neither indexes them): the
// first and the later page of a visit. It returns their paths.
func embedHosts(site string, corpus []beir.Doc) ([2]string, error) {
	var paths [2]string
	if len(corpus) < 2 {
		return paths, fmt.Errorf("the corpus has %d documents; the embed's visits need 2", len(corpus))
	}
	dir := filepath.Join(site, "embed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return paths, err
	}
	for i := range paths {
		d := corpus[i]
		html := strings.Replace(pageHTML(d.Title, d.Text), "</body>", embedScript+"\n</body>", 1)
		if err := os.WriteFile(filepath.Join(dir, d.ID+".html"), []byte(html), 0o644); err != nil {
			return paths, err
		}
		paths[i] = "/embed/" + d.ID + ".html"
	}
	return paths, nil
}

// typedQuery splits what a visit types of a query: the first word, typed
// at once after Ctrl-K, and the next words (each after a space), typed a
// key at a time with each key's results awaited. words bounds how many
// words are typed in all.
func typedQuery(q string, words int) (first, rest string) {
	f := strings.FieldsFunc(q, unicode.IsSpace)
	if len(f) > words {
		f = f[:words]
	}
	if len(f) == 0 {
		return "", ""
	}
	if len(f) == 1 {
		return f[0], ""
	}
	return f[0], " " + strings.Join(f[1:], " ")
}

// embedWords is how many words of each query a visit types.
const embedWords = 3

// embedMarks runs in the host page from its first script on. embed.js
// keeps its shadow root closed, so the root is taken as it is attached:
// a MutationObserver on it notes, by the page's clock, every time the
// result list is drawn and for what the box held; a capturing listener
// notes every key that reaches the page (the search box is in the page,
// so its keys do too).
const embedMarks = `(() => {
  const b = window.__embed = {keys: [], renders: []};
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (this.hasAttribute("data-tinyrag-embed")) {
      b.mounted = performance.now();
      new MutationObserver((ms) => {
        const list = root.querySelector("#tr-list"), input = root.querySelector("#tr-q");
        if (!list || !input || !ms.some((m) => m.target === list && m.addedNodes.length)) return;
        b.renders.push({t: performance.now(), value: input.value, hits: list.querySelectorAll("li:not(.ask):not(.pending)").length,
          pending: list.querySelectorAll("li.pending").length});
      }).observe(root, {subtree: true, childList: true});
    }
    return root;
  };
  addEventListener("keydown", (e) => { b.keys.push({t: performance.now(), key: e.key}); }, true);
})();`

// embedState is window.__embed: times in ms after the page's navigation.
type embedState struct {
	Mounted float64 `json:"mounted"`
	Keys    []struct {
		T   float64 `json:"t"`
		Key string  `json:"key"`
	} `json:"keys"`
	Renders []embedRender `json:"renders"`
	Origin  float64       `json:"origin"` // performance.timeOrigin, ms since the epoch
}

// embedRender is one drawing of the result list.
type embedRender struct {
	T     float64 `json:"t"`
	Value string  `json:"value"` // the search box's text then
	Hits  int     `json:"hits"`  // pages listed (the "Ask about" line not counted)
	// Pending counts the rows of pages whose texts are still loading
	// (partial results).
	Pending int `json:"pending"`
}

// shows reports whether a drawing shows results: a page, or the whole
// (possibly empty) list; not rows that all wait for their texts.
func (r embedRender) shows() bool { return r.Hits > 0 || r.Pending == 0 }

// renderFor returns the first drawing after ms that shows results for
// the box holding value.
func renderFor(rs []embedRender, after float64, value string) (embedRender, bool) {
	for _, r := range rs {
		if r.T >= after && r.Value == value && r.shows() {
			return r, true
		}
	}
	return embedRender{}, false
}

// firstRender returns the first drawing after ms that shows results.
func firstRender(rs []embedRender, after float64) (embedRender, bool) {
	for _, r := range rs {
		if r.T >= after && r.shows() {
			return r, true
		}
	}
	return embedRender{}, false
}

// pageSearch is one page's search: Ctrl-K, the first word, then key by key.
type pageSearch struct {
	First     time.Duration   // Ctrl-K to the first results drawn
	FirstHits int             // pages in them
	Word      time.Duration   // Ctrl-K to the results of the whole first word
	Keys      []time.Duration // each further key to its results
	// ToFirstSite and ToFirstApp crossed the line between Ctrl-K and the
	// first results: bundle files, and the rest (the app).
	ToFirstSite, ToFirstApp int64
	// ToFirstPaths and KeysPaths are what crossed the line in those two
	// spans, by path (for the run's log).
	ToFirstPaths, KeysPaths map[string]int64
	// SiteBytes crossed the line (bundle files) while the further keys
	// were typed.
	SiteBytes int64
	Err       string
}

func readEmbed(ctx context.Context) (embedState, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[embedState](`({...(window.__embed || {}), origin: performance.timeOrigin})`))
}

// waitEmbed polls the page until ok holds of its state or timeout passes.
func waitEmbed(ctx context.Context, timeout time.Duration, ok func(embedState) bool) (embedState, error) {
	deadline := time.Now().Add(timeout)
	for {
		st, err := readEmbed(ctx)
		if err == nil && ok(st) {
			return st, nil
		}
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("not within %s", timeout)
			}
			return st, err
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// awaitResults waits until the page saw key number n (counted from the
// page's start) and then drew the results for value; it returns the page's
// state and that drawing.
func awaitResults(ctx context.Context, n int, value string, timeout time.Duration) (embedState, embedRender, error) {
	var r embedRender
	st, err := waitEmbed(ctx, timeout, func(s embedState) bool {
		if len(s.Keys) <= n {
			return false
		}
		var ok bool
		r, ok = renderFor(s.Renders, s.Keys[n].T, value)
		return ok
	})
	if err != nil {
		return st, r, fmt.Errorf("results for %q: %v", value, err)
	}
	return st, r, nil
}

// searchOnPage presses Ctrl-K on the open host page, types first at once
// and waits for its results, then types rest a key at a time, each key's
// results awaited before the next key.
func searchOnPage(ctx context.Context, first, rest string, proxy *throttle, timeout time.Duration) pageSearch {
	var out pageSearch
	st, err := waitEmbed(ctx, timeout, func(s embedState) bool { return s.Mounted > 0 })
	if err != nil {
		out.Err = "embed.js not mounted: " + err.Error()
		return out
	}
	n := len(st.Keys)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(first)); err != nil {
		out.Err = "typing: " + err.Error()
		return out
	}
	st, w, err := awaitResults(ctx, n, first, timeout)
	if err != nil {
		out.Err = err.Error()
		return out
	}
	ctrlK := st.Keys[n].T
	if st.Keys[n].Key != "k" {
		out.Err = fmt.Sprintf("the first key the page saw was %q, not Ctrl-K", st.Keys[n].Key)
		return out
	}
	f, _ := firstRender(st.Renders, ctrlK)
	out.First, out.FirstHits, out.Word = msDuration(f.T-ctrlK), f.Hits, msDuration(w.T-ctrlK)
	if proxy != nil {
		wall := func(t float64) time.Time { return time.UnixMicro(int64((st.Origin + t) * 1000)) }
		s0, a0 := proxy.sentBefore(wall(ctrlK), isSiteData)
		s1, a1 := proxy.sentBefore(wall(f.T), isSiteData)
		out.ToFirstSite, out.ToFirstApp = s1-s0, a1-a0
		out.ToFirstPaths = proxy.sentBetween(wall(ctrlK), wall(f.T))
	}

	value := first
	var site0 int64
	keysFrom := time.Now()
	if proxy != nil {
		site0, _ = proxy.sentBefore(keysFrom, isSiteData)
	}
	for _, c := range rest {
		n := len(st.Keys)
		value += string(c)
		if err := chromedp.Do(ctx, chromedp.KeyEvent(string(c))); err != nil {
			out.Err = "typing: " + err.Error()
			return out
		}
		var r embedRender
		st, r, err = awaitResults(ctx, n, value, timeout)
		if err != nil {
			out.Err = err.Error()
			return out
		}
		out.Keys = append(out.Keys, msDuration(r.T-st.Keys[n].T))
	}
	if proxy != nil {
		site1, _ := proxy.sentBefore(time.Now(), isSiteData)
		out.SiteBytes = site1 - site0
		out.KeysPaths = proxy.sentBetween(keysFrom, time.Now())
	}
	return out
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// embedVisit is one visitor: a fresh profile opens the first host page
// and searches, then opens the later page and searches again (not when
// the first page failed).
type embedVisit struct {
	First, Later pageSearch
}

// Err is the visit's failure, if any.
func (v embedVisit) Err() string {
	if v.First.Err != "" {
		return "first page: " + v.First.Err
	}
	if v.Later.Err != "" {
		return "later page: " + v.Later.Err
	}
	return ""
}

// visitEmbed runs one embed visit through the throttling proxy (the
// service worker allowed, the HTTP cache kept between the two pages).
func visitEmbed(parent context.Context, chrome, base string, hosts [2]string, query string, proxy *throttle, timeout time.Duration) (embedVisit, error) {
	var out embedVisit
	ctx, done, err := startChromium(parent, chrome)
	if err != nil {
		return out, err
	}
	defer done()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: embedMarks}); err != nil {
		return out, err
	}
	proxy.reset()
	first, rest := typedQuery(query, embedWords)
	for i, p := range []*pageSearch{&out.First, &out.Later} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+hosts[i])); err != nil {
			if parent.Err() != nil {
				return out, parent.Err()
			}
			p.Err = fmt.Sprintf("opening %s: %v", hosts[i], err)
			return out, nil
		}
		*p = searchOnPage(ctx, first, rest, proxy, timeout)
		if p.Err != "" {
			return out, nil
		}
	}
	return out, nil
}

// embedRow is one page of the embed visits (first or later), by median.
type embedRow struct {
	Page   string `json:"page"`
	Visits int    `json:"visits"`
	Failed int    `json:"failed"`
	// FirstEmpty counts visits whose first results listed no page.
	FirstEmpty int           `json:"first_empty"`
	First      time.Duration `json:"first"`
	Word       time.Duration `json:"word"`
	// Keys, KeyP90, KeyMax are over every further key of every visit.
	Keys      int           `json:"keys"`
	KeyMedian time.Duration `json:"key_median"`
	KeyP90    time.Duration `json:"key_p90"`
	KeyMax    time.Duration `json:"key_max"`
	SiteBytes int64         `json:"site_bytes"` // median bundle bytes while typing the further keys
	// ToFirstSite and ToFirstApp are the median bytes between Ctrl-K and
	// the first results: bundle files and the rest.
	ToFirstSite int64 `json:"to_first_site"`
	ToFirstApp  int64 `json:"to_first_app"`
}

// embedResult is a site's embed visits.
type embedResult struct {
	Words      int        `json:"words"`
	LoadBefore string     `json:"load_before"`
	LoadAfter  string     `json:"load_after"`
	Rows       []embedRow `json:"rows"`
	Errors     []string   `json:"errors,omitempty"`
}

// summarizeEmbed makes the two rows (first page, later page) of visits.
func summarizeEmbed(vs []embedVisit) (first, later embedRow) {
	row := func(name string, get func(embedVisit) pageSearch, failed func(embedVisit) bool) embedRow {
		r := embedRow{Page: name, Visits: len(vs)}
		var firsts, words, keys, site, toSite, toApp []int64
		var keyTimes []time.Duration
		for _, v := range vs {
			if failed(v) {
				r.Failed++
				continue
			}
			p := get(v)
			if p.FirstHits == 0 {
				r.FirstEmpty++
			}
			firsts = append(firsts, int64(p.First))
			words = append(words, int64(p.Word))
			site = append(site, p.SiteBytes)
			toSite, toApp = append(toSite, p.ToFirstSite), append(toApp, p.ToFirstApp)
			for _, k := range p.Keys {
				keys = append(keys, int64(k))
			}
			keyTimes = append(keyTimes, p.Keys...)
		}
		r.First, r.Word = time.Duration(median(firsts)), time.Duration(median(words))
		r.Keys = len(keys)
		r.KeyMedian = time.Duration(median(keys))
		r.KeyP90 = beir.Percentile(keyTimes, 90)
		r.KeyMax = beir.Percentile(keyTimes, 100)
		r.SiteBytes, r.ToFirstSite, r.ToFirstApp = median(site), median(toSite), median(toApp)
		return r
	}
	first = row("first visit (fresh profile)", func(v embedVisit) pageSearch { return v.First }, func(v embedVisit) bool { return v.First.Err != "" })
	// A visit whose first page failed never opened the later one.
	later = row("later page (same profile)", func(v embedVisit) pageSearch { return v.Later }, func(v embedVisit) bool { return v.Err() != "" })
	return first, later
}

// String is a page's search as the run's log line shows it.
func (p pageSearch) String() string {
	if p.Err != "" && p.Word == 0 {
		return "failed"
	}
	var ks []int64
	for _, k := range p.Keys {
		ks = append(ks, int64(k))
	}
	keyMax := beir.Percentile(append([]time.Duration(nil), p.Keys...), 100)
	return fmt.Sprintf("first %d ms (%d hits; site %d B, app %d B before), word %d ms, %d keys median %d max %d ms, site %d B",
		p.First.Milliseconds(), p.FirstHits, p.ToFirstSite, p.ToFirstApp, p.Word.Milliseconds(), len(p.Keys),
		time.Duration(median(ks)).Milliseconds(), keyMax.Milliseconds(), p.SiteBytes)
}

// pathList lists paths by bytes, the largest first: at most n of them
// with their sizes, then how many more.
func pathList(m map[string]int64, n int) string {
	type pb struct {
		path  string
		bytes int64
	}
	var all []pb
	for p, b := range m {
		all = append(all, pb{p, b})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].bytes != all[j].bytes {
			return all[i].bytes > all[j].bytes
		}
		return all[i].path < all[j].path
	})
	var parts []string
	for i, x := range all {
		if i == n {
			parts = append(parts, fmt.Sprintf("%d more", len(all)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d B", x.path, x.bytes))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
