package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/rank"
)

var ctx = context.Background()

// words is a vocabulary for generated documents; drawn with a skewed
// distribution, as words in text are, so some terms are in most chunks
// and many in a few.
var words = strings.Fields(`orchard apple pear cherry plum blossom frost pruning graft rootstock
	soil compost mulch irrigation drought aphid mildew scab canker harvest storage cider juice
	pollination bee hive wind shelter hedge fence ladder basket crate market price yield tree
	branch leaf bud fruit seed core skin flesh sugar acid tannin ferment yeast barrel bottle
	cellar winter spring summer autumn rain sun shade north south slope valley river stone
	clay sand loam nitrogen potassium phosphate lime mower tractor sprayer netting birds deer`)

func sentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		// Squaring a uniform draw favours the first words.
		f := rng.Float64()
		b.WriteString(words[int(f*f*float64(len(words)))])
	}
	return b.String() + ". "
}

// corpus generates n documents of one to about eight chunks, with
// headings, so that documents span chunks and segments; one in fifty
// has nine to seventeen sections, so that the chunk numbers of some
// sort as text ("id#10" < "id#2") and not as numbers, from the first
// document where they differ (eleven chunks) on.
func corpus(n int, seed int64) []knowledge.Input {
	rng := rand.New(rand.NewSource(seed))
	var out []knowledge.Input
	for i := 0; i < n; i++ {
		var text strings.Builder
		sections := 1 + rng.Intn(3)
		if i%50 == 7 {
			sections = 9 + rng.Intn(9)
		}
		for s := 0; s < sections; s++ {
			fmt.Fprintf(&text, "## %s\n\n", strings.TrimSuffix(sentence(rng, 2), ". "))
			for p := rng.Intn(12); p >= 0; p-- {
				text.WriteString(sentence(rng, 5+rng.Intn(20)))
			}
			text.WriteString("\n\n")
		}
		out = append(out, knowledge.Input{Title: strings.TrimSuffix(sentence(rng, 3), ". "),
			Source: fmt.Sprintf("docs/page%d.html", i), Type: "html", Text: text.String()})
	}
	return out
}

// files serves a bundle's files to an Index and counts what it fetched.
type files struct {
	mu      sync.Mutex
	m       map[string][]byte
	fetched []string
}

func (f *files) fetch(_ context.Context, url string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name := strings.TrimPrefix(url, "https://site.example/kb/")
	f.fetched = append(f.fetched, name)
	data, ok := f.m[name]
	if !ok {
		return nil, fmt.Errorf("GET %s: HTTP %d", url, http.StatusNotFound)
	}
	return data, nil
}

func write(t *testing.T, ins []knowledge.Input, opt Options) *Output {
	t.Helper()
	if opt.Now == nil {
		opt.Now = func() time.Time { return time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC) }
	}
	out, err := Write(ctx, ins, opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func open(t *testing.T, out *Output) (*Index, *files) {
	t.Helper()
	fs := &files{m: out.Files}
	ix, err := Open(ctx, "https://site.example/kb/"+out.ManifestName, out.SHA256, fs.fetch)
	if err != nil {
		t.Fatal(err)
	}
	return ix, fs
}

// memory is the in-memory knowledge base of the same inputs, in the
// order Write indexes them (Order): what a bundle must rank exactly like.
func memory(t *testing.T, ins []knowledge.Input) *knowledge.KB {
	t.Helper()
	return memoryRanked(t, ins, knowledge.Config{})
}

// memoryRanked is memory with cfg's ranking switches.
func memoryRanked(t *testing.T, ins []knowledge.Input, cfg knowledge.Config) *knowledge.KB {
	t.Helper()
	cfg.Yield = func() {}
	kb, err := knowledge.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kb.Close() })
	if _, err := kb.AddBatch(ctx, Order(ins, nil), nil); err != nil {
		t.Fatal(err)
	}
	return kb
}

func TestBundle_RanksExactlyAsTheInMemoryIndex(t *testing.T) {
	ins := corpus(700, 1)
	queries := []string{
		"apple", "frost pruning", "cider barrel yeast", // short: feedback on
		"apple orchard frost in spring and the pruning of old trees on a north slope",
		"aphid mildew scab canker on pear and plum trees after rain",
		"nitrogen potassium phosphate lime clay loam sand", "deer netting birds",
		"cherry", "storage cellar winter", "unknownword apple",
	}
	// Rankings other than the default: feedback's second, dependent
	// round of shards on every query, and none.
	rankings := []struct {
		name string
		cfg  knowledge.Config
	}{
		{"default ranking", knowledge.Config{}},
		{"feedback on every query", knowledge.Config{Feedback: rank.Feedback{MaxQueryTerms: -1}}},
		{"feedback off, proximity on", knowledge.Config{Feedback: rank.Feedback{Off: true}, Proximity: rank.Proximity{On: true}}},
	}
	kbs := make([]*knowledge.KB, len(rankings))
	for i, r := range rankings {
		kbs[i] = memoryRanked(t, ins, r.cfg)
	}
	for _, tt := range []struct {
		name  string
		opt   Options
		paged bool
	}{
		{"default shards", Options{}, false},
		{"tiny shards, paged maps", Options{ShardBytes: 300, LexiconBytes: 100, MapPage: 4}, true},
		{"default shards grown to fit a map of one-shard pages", Options{LexiconBytes: 100, MapPage: 1}, true},
	} {
		out := write(t, ins, tt.opt)
		for ri, r := range rankings {
			t.Run(tt.name+", "+r.name, func(t *testing.T) {
				if m := out.Manifest; m.Terms.Paged != tt.paged || m.Lexicon.Paged != tt.paged || m.Suffixes.Paged != tt.paged {
					t.Fatalf("maps paged: terms %v, lexicon %v, suffixes %v; want %v", m.Terms.Paged, m.Lexicon.Paged, m.Suffixes.Paged, tt.paged)
				}
				kb := kbs[ri]
				fs := &files{m: out.Files}
				ix, err := OpenRanked(ctx, "https://site.example/kb/"+out.ManifestName, out.SHA256, fs.fetch, r.cfg.Ranking())
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range queries {
					for _, opt := range []knowledge.SearchOptions{{K: 10, Highlight: true}, {K: 10, Highlight: true, AsYouType: true}} {
						qq := q
						if opt.AsYouType {
							qq = q[:len(q)-2] // the last word half typed
						}
						want, err := kb.Search(ctx, qq, opt)
						if err != nil {
							t.Fatal(err)
						}
						got, err := ix.Search(ctx, qq, opt)
						if err != nil {
							t.Fatal(err)
						}
						if len(want) == 0 && q != "unknownword apple" {
							t.Fatalf("%q: the in-memory index finds nothing; the test says nothing", qq)
						}
						for i := range got {
							if !got[i].Site {
								t.Fatalf("%q: hit %d is not marked as the site's", qq, i)
							}
							got[i].Site = false
						}
						if !reflect.DeepEqual(got, want) {
							t.Errorf("%q (as you type %v):\n bundle    %v\n in memory %v", qq, opt.AsYouType, brief(got), brief(want))
						}
					}
				}
			})
		}
	}
}

// brief is a hit list down to what must agree.
func brief(hits []knowledge.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %.17g", h.ChunkID, h.Score))
	}
	return out
}

func TestBundle_AQueryFetchesOnlyItsShardsAndTheFragmentsItShows(t *testing.T) {
	out := write(t, corpus(700, 2), Options{ShardBytes: 2000})
	ix, fs := open(t, out)
	if n := len(out.Manifest.Terms.Files); n < 10 {
		t.Fatalf("%d term shards: too few for this test", n)
	}
	hits, err := ix.Search(ctx, "cider", knowledge.SearchOptions{K: 3})
	if err != nil || len(hits) == 0 {
		t.Fatalf("search: %v, %d hits", err, len(hits))
	}
	var terms, frags int
	for _, f := range fs.fetched[1:] { // after the manifest
		switch f[:2] {
		case "t/":
			terms++
		case "f/":
			frags++
		case "x/", "s/":
			t.Errorf("a plain search fetched lexicon shard %s", f)
		case "g/", "p/":
		default:
			// Ranking reads its terms' shards (and their map pages), and
			// the group table names the hits' fragments.
			t.Errorf("a search fetched %s, neither a shard it ranks with nor a fragment", f)
		}
	}
	// One term; feedback adds up to ten more, and reads ten fragments.
	if terms > 11 || frags > 10+3 {
		t.Errorf("fetched %d term shards and %d fragments of %d and %d: %v", terms, frags, len(out.Manifest.Terms.Files), out.Manifest.Docs, fs.fetched)
	}
	// The same query again fetches nothing.
	before := len(fs.fetched)
	if _, err := ix.Search(ctx, "cider", knowledge.SearchOptions{K: 3}); err != nil {
		t.Fatal(err)
	}
	if len(fs.fetched) != before {
		t.Errorf("a repeated query fetched %v", fs.fetched[before:])
	}
}

// A query starts each round of requests at once, in order, before the
// goroutines that fetch them run (SetStart): on a bundle opened afresh,
// its map pages and its term shards; once Preload has read the map and
// the group table, its term shards and its hits' fragments, in the order
// of the hits. What it has read it does not start again.
func TestBundle_AQueryStartsEachRoundOfFilesInOrderBeforeFetchingIt(t *testing.T) {
	out := write(t, corpus(700, 2), Options{ShardBytes: 2000, MapPage: 16})
	for _, tt := range []struct {
		name    string
		preload bool
		rounds  []string
	}{
		{"opened afresh", false, []string{"p/", "t/"}},
		{"preloaded", true, []string{"t/", "f/"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix, fs := open(t, out)
			if tt.preload {
				if err := ix.Preload(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			var started []string
			ix.SetStart(func(url string) {
				mu.Lock()
				defer mu.Unlock()
				started = append(started, strings.TrimPrefix(url, "https://site.example/kb/"))
			})
			q := "cider harvest frost orchard barrel shade valley"
			hits, err := ix.Search(ctx, q, knowledge.SearchOptions{K: 8})
			if err != nil || len(hits) < 2 {
				t.Fatalf("search: %v, %d hits", err, len(hits))
			}
			fetched := map[string]bool{}
			for _, f := range fs.fetched {
				fetched[f] = true
			}
			kinds := map[string]int{}
			for _, f := range started {
				kinds[f[:2]]++
				// A file started and never taken is a download for nothing.
				if !fetched[f] {
					t.Errorf("started %s, which the query never fetched", f)
				}
			}
			for _, k := range tt.rounds {
				if kinds[k] < 2 {
					t.Errorf("started %d files under %s, want a round of them: %v", kinds[k], k, started)
				}
			}
			if tt.preload {
				// The fragments are started in the order of the hits they
				// show.
				var want []string
				ix.mu.RLock()
				for _, h := range hits {
					for ord, f := range ix.frags {
						if f.Document.ID == h.DocID {
							want = append(want, ix.fragmentFile(ord))
						}
					}
				}
				ix.mu.RUnlock()
				var frags []string
				for _, f := range started {
					if strings.HasPrefix(f, "f/") {
						frags = append(frags, f)
					}
				}
				if len(frags) < len(want) || !reflect.DeepEqual(frags[:len(want)], want) {
					t.Errorf("fragments started %v, the hits' in order %v", frags, want)
				}
			}
			n := len(started)
			if _, err := ix.Search(ctx, q, knowledge.SearchOptions{K: 8}); err != nil {
				t.Fatal(err)
			}
			if len(started) != n {
				t.Errorf("a repeated query started %v", started[n:])
			}
		})
	}
}

func TestBundle_BadFilesFailTheQueryWithAMessageAndTheRestWorks(t *testing.T) {
	ins := corpus(300, 3)
	for _, tt := range []struct {
		name   string
		damage func(out *Output) string // returns a query that needs the damaged file
		want   string
	}{
		{"a missing term shard", func(out *Output) string {
			i := out.Manifest.Terms.find("cider")
			delete(out.Files, out.Manifest.Terms.Files[i])
			return "cider"
		}, "HTTP 404"},
		{"an altered term shard", func(out *Output) string {
			f := out.Manifest.Terms.Files[out.Manifest.Terms.find("cider")]
			b := append([]byte(nil), out.Files[f]...)
			b[len(b)/2] ^= 1
			out.Files[f] = b
			return "cider"
		}, "damaged"},
		{"a truncated fragment", func(out *Output) string {
			for name, b := range out.Files {
				if strings.HasPrefix(name, "f/") {
					out.Files[name] = b[:len(b)/2]
				}
			}
			return "cider"
		}, "damaged"},
		{"an altered fragment", func(out *Output) string {
			for name, b := range out.Files {
				if i := bytes.Index(b, []byte(`"text":"`)); strings.HasPrefix(name, "f/") && i >= 0 {
					b = append([]byte(nil), b...)
					b[i+len(`"text":"`)] ^= 0x20 // a letter's case: still JSON, not the text hashed
					out.Files[name] = b
				}
			}
			return "cider"
		}, "is not the file it says it is"},
		{"a missing group table", func(out *Output) string {
			delete(out.Files, out.Manifest.Fragments.Table)
			return "cider"
		}, "HTTP 404"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := write(t, ins, Options{ShardBytes: 1500})
			q := tt.damage(out)
			ix, _ := open(t, out)
			_, err := ix.Search(ctx, q, knowledge.SearchOptions{K: 5})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("search %q: %v, want an error saying %q", q, err, tt.want)
			}
			if !strings.Contains(tt.name, "fragment") && !strings.Contains(tt.name, "group table") {
				if hits, err := ix.Search(ctx, "frost", knowledge.SearchOptions{K: 5}); err != nil || len(hits) == 0 {
					t.Errorf("a query that needs no damaged file: %v, %d hits", err, len(hits))
				}
			}
		})
	}
}

func TestOpen_RefusesAnotherVersionAndAManifestOfAnotherHash(t *testing.T) {
	out := write(t, corpus(20, 4), Options{})
	fs := &files{m: out.Files}
	url := "https://site.example/kb/" + out.ManifestName
	if _, err := Open(ctx, url, strings.Repeat("0", 64), fs.fetch); !errors.Is(err, ErrDamaged) {
		t.Errorf("wrong hash: %v, want ErrDamaged", err)
	}
	for _, v := range []int{Version - 1, Version + 1} {
		m := strings.Replace(string(out.Files[out.ManifestName]), fmt.Sprintf(`"version": %d`, Version), fmt.Sprintf(`"version": %d`, v), 1)
		if _, err := ParseManifest([]byte(m)); !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), fmt.Sprintf("version %d", v)) {
			t.Errorf("version %d: %v, want ErrVersion naming it", v, err)
		}
	}
	if _, err := ParseManifest([]byte(`{"format":"pagefind","version":2}`)); !errors.Is(err, ErrVersion) {
		t.Errorf("another format: %v, want ErrVersion", err)
	}
}

// A republished site, built at another time, whose one page was edited
// (to as many chunks as before): the fragments of the page's group
// (fragments.go) change, and of the term shards only those whose
// postings list the page; every other fragment and term shard keeps its
// name, so a visitor's browser fetches only those. The page keeps its
// ordinal, the place its id (its source) gives it in the index's order.
func TestWrite_RepublishedSiteChangesOnlyTheFilesThatListTheEditedPage(t *testing.T) {
	ins := corpus(200, 5)
	at := func(hour int) Options {
		return Options{Now: func() time.Time { return time.Date(2026, 12, 4, hour, 0, 0, 0, time.UTC) }}
	}
	a := write(t, ins, at(1))
	edited := ins[len(ins)/2].Source
	word := regexp.MustCompile(`\b[a-z]{6,}\b`).FindString(ins[len(ins)/2].Text)
	ins[len(ins)/2].Text = strings.Replace(ins[len(ins)/2].Text, word, "quince"+strings.Repeat("s", len(word)-6), 1)
	b := write(t, ins, at(2))

	fa, fb := fragmentsOf(t, a), fragmentsOf(t, b)
	o := int32(-1)
	for i, d := range fa {
		if d.f.Document.Source == edited {
			o = int32(i)
		}
	}
	if o < 0 || fb[o].f.Document.Source != edited {
		t.Fatalf("the edited page is ordinal %d before the edit and not after", o)
	}
	if fb[o].f.Document.Chunks != fa[o].f.Document.Chunks {
		t.Fatalf("the edit changed the page's chunks from %d to %d: the test needs an edit that does not", fa[o].f.Document.Chunks, fb[o].f.Document.Chunks)
	}
	group := int(o) / a.Manifest.Fragments.Group
	for i := range fa {
		_, kept := b.Files[fa[i].file]
		if ingroup := i/a.Manifest.Fragments.Group == group; kept == ingroup {
			t.Errorf("the fragment of %s (the edited page's group: %v) kept its name: %v", fa[i].f.Document.Source, ingroup, kept)
		}
	}
	checkChangedShards(t, a, b, o)
	if a.ManifestName == b.ManifestName {
		t.Error("the manifest kept its name")
	}
}

func TestReadDir_ReadsWhatWriteDirWrote(t *testing.T) {
	out := write(t, corpus(30, 6), Options{})
	dir := writeDir(t, out)
	back, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.ManifestName != out.ManifestName || back.SHA256 != out.SHA256 || len(back.Files) != len(out.Files) {
		t.Errorf("read %s %s %d files, wrote %s %s %d", back.ManifestName, back.SHA256, len(back.Files), out.ManifestName, out.SHA256, len(out.Files))
	}
	if err := out.WriteDir(dir); err != nil {
		t.Errorf("writing over an earlier bundle: %v", err)
	}
	other := t.TempDir()
	if err := osWriteFile(other+"/notes.txt", "mine"); err != nil {
		t.Fatal(err)
	}
	if err := out.WriteDir(other); err == nil {
		t.Error("WriteDir wrote into a folder that holds something else")
	}
}

// writeDir writes out into a new folder and returns it.
func writeDir(t *testing.T, out *Output) string {
	t.Helper()
	dir := t.TempDir()
	if err := out.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func osWriteFile(name, s string) error { return os.WriteFile(name, []byte(s), 0o644) }

// Preload reads what queries would wait for: the group table and, unless
// the term map has more than preloadPages pages, every page of it; a
// query after it fetches only its own term shards and its hits'
// fragments. A larger map's pages are left to the queries. Small says
// whether the app reads the map while it starts (a few pages at most).
func TestPreload_LeavesAQueryOnlyItsTermsAndFragments(t *testing.T) {
	ins := corpus(300, 6)
	for _, tt := range []struct {
		name      string
		opt       Options
		pages     [2]int // the test bundle's map pages, at least and at most
		small     bool
		wantPages bool // Preload reads every map page
	}{
		{"unpaged map", Options{}, [2]int{0, 0}, true, false},
		{"a few map pages", Options{ShardBytes: 2000, MapPage: 16}, [2]int{2, smallPages}, true, true},
		{"a large map's pages, up to preloadPages", Options{ShardBytes: 500, MapPage: 8}, [2]int{smallPages + 1, preloadPages}, false, true},
		{"more map pages than preloaded", Options{ShardBytes: 300, MapPage: 2}, [2]int{preloadPages + 1, 1 << 20}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := write(t, ins, tt.opt)
			m := out.Manifest.Terms
			if n := len(m.Files); m.Paged != (tt.pages[1] > 0) || m.Paged && (n < tt.pages[0] || n > tt.pages[1]) {
				t.Fatalf("the test's bundle has %d map pages (paged %v), want %d to %d", n, m.Paged, tt.pages[0], tt.pages[1])
			}
			fs := &files{m: out.Files}
			ix, err := Open(ctx, "https://site.example/kb/"+out.ManifestName, out.SHA256, fs.fetch)
			if err != nil {
				t.Fatal(err)
			}
			if ix.Small() != tt.small {
				t.Errorf("Small() = %v, want %v", ix.Small(), tt.small)
			}
			if err := ix.Preload(ctx); err != nil {
				t.Fatal(err)
			}
			pages := 0
			for _, f := range fs.fetched[1:] {
				if strings.HasPrefix(f, "p/") {
					pages++
				} else if f != out.Manifest.Fragments.Table {
					t.Errorf("Preload fetched %s", f)
				}
			}
			if want := map[bool]int{true: len(m.Files), false: 0}[tt.wantPages]; pages != want {
				t.Errorf("Preload fetched %d map pages, want %d", pages, want)
			}
			before := len(fs.fetched)
			if _, err := ix.Search(ctx, "cider orchard", knowledge.SearchOptions{K: 3}); err != nil {
				t.Fatal(err)
			}
			for _, f := range fs.fetched[before:] {
				if f[:2] == "g/" || (tt.wantPages && f[:2] == "p/") {
					t.Errorf("a query after Preload fetched %s", f)
				}
			}
		})
	}
}

// bundleDoc is a bundle's fragment with its file.
type bundleDoc struct {
	file string
	f    *fragment
}

// fragmentsOf reads a bundle's fragments by ordinal, with their files.
func fragmentsOf(t *testing.T, out *Output) []bundleDoc {
	t.Helper()
	files, frags, err := readFragments(out.Manifest, func(name string) ([]byte, error) {
		if data, ok := out.Files[name]; ok {
			return data, verify(name, data)
		}
		return nil, fmt.Errorf("no file %s", name)
	})
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]bundleDoc, len(frags))
	for o := range docs {
		docs[o] = bundleDoc{files[o], frags[o]}
	}
	return docs
}

// checkChangedShards checks that the term shards that differ between two
// versions of a bundle, a and b, whose one changed page is ordinal o in
// both, are those a version needs for that page: a changed shard covers a
// term whose postings list the page (before or after the change), or
// follows a changed shard (shards are cut greedily by size, so one that
// changed size moves the cut after it). Some must change and some stay.
func checkChangedShards(t *testing.T, a, b *Output, o int32) {
	t.Helper()
	page := map[string]bool{}
	for _, out := range []*Output{a, b} {
		for _, name := range out.Manifest.Terms.Files {
			terms, err := decodeTermShard(out.Files[name], out.Manifest.Chunks, out.Manifest.Docs)
			if err != nil {
				t.Fatal(err)
			}
			for _, tp := range terms {
				if slices.Contains(tp.body.ord, o) {
					page[tp.term] = true
				}
			}
		}
	}
	kept := 0
	for _, pair := range []struct{ from, to *Output }{{a, b}, {b, a}} {
		sm := pair.from.Manifest.Terms
		if sm.Paged {
			t.Fatal("the test reads an unpaged term map")
		}
		after := false
		for i, name := range sm.Files {
			_, same := pair.to.Files[name]
			covers := false
			for term := range page {
				if term >= sm.First[i] && (i+1 == len(sm.First) || term < sm.First[i+1]) {
					covers = true
				}
			}
			switch {
			case same:
				if pair.from == a {
					kept++
				}
			case !covers && !after:
				t.Errorf("term shard %s changed, and neither it nor the one before covers a term of the changed page", name)
			}
			after = !same
		}
	}
	if shards := len(a.Manifest.Terms.Files); kept == 0 || kept == shards {
		t.Errorf("%d of %d term shards kept: the change should change some and keep others", kept, shards)
	}
}

// A page added to a republished site built with the earlier version's
// order (Options.Previous, which 'tinyrag bundle' reads from the folder it
// replaces) comes after the others: every other page keeps its ordinal,
// the fragments of every group but the last keep their names, and the
// term shards change only for the new page's terms. Without the earlier
// order the page takes its place by source, and the pages after it move.
func TestWrite_APageAddedToARepublishedSiteComesAfterTheOthers(t *testing.T) {
	ins := corpus(200, 5)
	a := write(t, ins, Options{})
	var prev []string
	for _, d := range fragmentsOf(t, a) {
		prev = append(prev, d.f.Document.Source)
	}
	added := knowledge.Input{Title: "Quince jelly", Source: "docs/aaa-quince.html", Type: "html",
		Text: "Quince jelly sets without added pectin when the quinces are picked a little underripe."}
	grown := append(slices.Clone(ins), added)
	if fresh := fragmentsOf(t, write(t, grown, Options{})); fresh[0].f.Document.Source != added.Source {
		t.Fatalf("without the earlier order the new page is ordinal 0? first is %s", fresh[0].f.Document.Source)
	}
	b := write(t, grown, Options{Previous: prev})
	fa, fb := fragmentsOf(t, a), fragmentsOf(t, b)
	if len(fb) != len(fa)+1 || fb[len(fa)].f.Document.Source != added.Source {
		t.Fatalf("the new page is not last: %d documents, last %s", len(fb), fb[len(fb)-1].f.Document.Source)
	}
	per := a.Manifest.Fragments.Group
	last := (len(fa) - 1) / per
	for o, d := range fa {
		if fb[o].f.Document.Source != d.f.Document.Source {
			t.Fatalf("ordinal %d was %s and is %s", o, d.f.Document.Source, fb[o].f.Document.Source)
		}
		if _, kept := b.Files[d.file]; kept != (o/per != last) {
			t.Errorf("the fragment of %s (ordinal %d, the last group: %v) kept its name: %v", d.f.Document.Source, o, o/per == last, kept)
		}
	}
	checkChangedShards(t, a, b, int32(len(fa)))
}

// Sources reads back a bundle folder's pages by ordinal, for the next
// build's Options.Previous.
func TestSources_ReadsAFoldersPagesByOrdinal(t *testing.T) {
	out := write(t, corpus(100, 8), Options{})
	got, err := Sources(writeDir(t, out))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range fragmentsOf(t, out) {
		want = append(want, d.f.Document.Source)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Sources = %v, want %v", got, want)
	}
	if _, err := Sources(t.TempDir()); err == nil {
		t.Error("Sources of an empty folder: no error")
	}
}

// A site's term shards grow, by default, until its term map has no more
// pages than the app reads while it starts (preloadPages), so that a
// large site's queries wait for no map page; a size given is kept.
func TestWrite_ShardsGrowUntilTheMapIsOneTheAppReadsAtStart(t *testing.T) {
	ins := corpus(300, 11)
	fixed, err := Write(ctx, ins, Options{ShardBytes: DefaultShardBytes, MapPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fixed.Manifest.Terms.Files); n <= preloadPages {
		t.Fatalf("the corpus has %d shards of %d bytes: too few to test with", n, DefaultShardBytes)
	}
	grown, err := Write(ctx, ins, Options{MapPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(grown.Manifest.Terms.Files); n > preloadPages || n < preloadPages/4 {
		t.Errorf("default shards: a map of %d pages, want at most %d and not far fewer (the cut doubles)", n, preloadPages)
	}
	if !reflect.DeepEqual(grown.Manifest.Common, fixed.Manifest.Common) || len(grown.Manifest.Common) == 0 {
		t.Errorf("common terms %v, with fixed shards %v", grown.Manifest.Common, fixed.Manifest.Common)
	}
}

// A search under way reads what it needs; Preload, asked meanwhile (the
// app preloads a large bundle shortly after it is ready, when a visitor
// may already be searching), starts only once the search is done, so
// that it does not take the page's thread while the search's files
// arrive.
func TestPreload_WaitsForTheSearchUnderWay(t *testing.T) {
	out := write(t, corpus(300, 6), Options{ShardBytes: 500, MapPage: 8})
	fs := &files{m: out.Files}
	release := make(chan struct{})
	held := make(chan struct{})
	var once sync.Once
	fetch := func(ctx context.Context, url string) ([]byte, error) {
		if strings.Contains(url, "/t/") {
			once.Do(func() { close(held) })
			<-release
		}
		return fs.fetch(ctx, url)
	}
	ix, err := Open(ctx, "https://site.example/kb/"+out.ManifestName, out.SHA256, fetch)
	if err != nil {
		t.Fatal(err)
	}
	searched := make(chan error, 1)
	go func() {
		_, err := ix.Search(ctx, "cider orchard", knowledge.SearchOptions{K: 3})
		searched <- err
	}()
	<-held // the search waits for its term shards, its map pages read
	fs.mu.Lock()
	before := len(fs.fetched)
	fs.mu.Unlock()
	preloaded := make(chan error, 1)
	go func() { preloaded <- ix.Preload(ctx) }()
	select {
	case err := <-preloaded:
		t.Fatalf("Preload returned (%v) while a search was under way", err)
	case <-time.After(50 * time.Millisecond):
	}
	fs.mu.Lock()
	for _, f := range fs.fetched[before:] {
		if strings.HasPrefix(f, "p/") {
			t.Errorf("Preload read map page %s while a search was under way", f)
		}
	}
	fs.mu.Unlock()
	close(release)
	if err := <-searched; err != nil {
		t.Fatalf("Search: %v", err)
	}
	if err := <-preloaded; err != nil {
		t.Fatalf("Preload after the search: %v", err)
	}

	// A Preload whose context ends while it waits says so.
	ix2, err := Open(ctx, "https://site.example/kb/"+out.ManifestName, out.SHA256, fs.fetch)
	if err != nil {
		t.Fatal(err)
	}
	done := ix2.searchStarts()
	defer done()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := ix2.Preload(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Preload with its context cancelled while a search is under way = %v, want context.Canceled", err)
	}
}

// With Progress, a search shows its hits as their texts arrive: every
// report lists the final hits in their final places, each either the
// final hit itself or, pending, its chunk number and score; each report
// has one pending hit fewer than the one before.
func TestSearch_ProgressReportsEachHitInItsPlaceAsItsTextArrives(t *testing.T) {
	out := write(t, corpus(300, 9), Options{ShardBytes: 800})
	ix, _ := open(t, out)
	// More words than feedback expands, which would read its documents'
	// texts before the hits are known.
	var reports [][]knowledge.Hit
	hits, err := ix.Search(ctx, "cider orchard frost pruning", knowledge.SearchOptions{K: 6, Highlight: true,
		Progress: func(h []knowledge.Hit) { reports = append(reports, h) }})
	if err != nil || len(hits) < 3 {
		t.Fatalf("search: %v, %d hits", err, len(hits))
	}
	if len(reports) != len(hits) {
		t.Fatalf("%d reports for %d hits (one as each text arrives)", len(reports), len(hits))
	}
	for n, r := range reports {
		if len(r) != len(hits) {
			t.Fatalf("report %d lists %d hits, the search %d", n, len(r), len(hits))
		}
		pending := 0
		for i, h := range r {
			switch {
			case h.Pending:
				pending++
				want := knowledge.Hit{Chunk: hits[i].Chunk, Score: hits[i].Score, Site: true, Pending: true}
				if !reflect.DeepEqual(h, want) {
					t.Errorf("report %d, hit %d pending as %+v, want %+v", n, i, h, want)
				}
			case !reflect.DeepEqual(h, hits[i]):
				t.Errorf("report %d, hit %d is %+v, the search's %+v", n, i, h, hits[i])
			}
		}
		if want := len(hits) - 1 - n; pending != want {
			t.Errorf("report %d has %d hits pending, want %d", n, pending, want)
		}
	}
	// Without Progress nothing is pending, and the hits are the same.
	again, err := ix.Search(ctx, "cider orchard frost pruning", knowledge.SearchOptions{K: 6, Highlight: true})
	if err != nil || !reflect.DeepEqual(again, hits) {
		t.Errorf("without Progress: %v, hits differ: %v", err, !reflect.DeepEqual(again, hits))
	}
	// Texts already here are no news: a search of them all reports
	// nothing, and one that needs a few more reports those here made and
	// the others pending, then each as it arrives.
	reports = nil
	if _, err := ix.Search(ctx, "cider orchard frost pruning", knowledge.SearchOptions{K: 6, Highlight: true,
		Progress: func(h []knowledge.Hit) { reports = append(reports, h) }}); err != nil || len(reports) != 0 {
		t.Errorf("a search of texts all here: %v, %d reports, want none", err, len(reports))
	}
	more, err := ix.Search(ctx, "cider orchard frost pruning", knowledge.SearchOptions{K: 9, Highlight: true,
		Progress: func(h []knowledge.Hit) { reports = append(reports, h) }})
	if err != nil || len(more) != 9 || !reflect.DeepEqual(more[:len(hits)], hits) {
		t.Fatalf("K 9: %v, %d hits (the first 6 as before: %v)", err, len(more), err == nil && reflect.DeepEqual(more[:min(len(more), len(hits))], hits))
	}
	if len(reports) != 1+len(more)-len(hits) {
		t.Fatalf("%d reports, want one with the texts here, then one per text fetched (%d)", len(reports), len(more)-len(hits))
	}
	for n, r := range reports {
		pending := 0
		for i, h := range r {
			if h.Pending {
				pending++
				if i < len(hits) {
					t.Errorf("report %d: hit %d pending, its text was here", n, i)
				}
			}
		}
		if want := len(more) - len(hits) - n; pending != want {
			t.Errorf("report %d has %d hits pending, want %d", n, pending, want)
		}
	}
}
