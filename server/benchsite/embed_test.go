package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tinyrag/app/knowledge/beir"
)

func TestTypedQuery_FirstWordAtOnceThenTheNextWordsWithTheirSpaces(t *testing.T) {
	cases := []struct {
		name, q     string
		words       int
		first, rest string
	}{
		{"three words of more", "0-dimensional biomaterials show inductive properties.", 3, "0-dimensional", " biomaterials show"},
		{"fewer words than asked", "ALDH1  expression", 3, "ALDH1", " expression"},
		{"one word", "Aspirin", 3, "Aspirin", ""},
		{"blank", "  ", 3, "", ""},
		{"tabs and newlines are spaces", "a\tb\nc d", 3, "a", " b c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first, rest := typedQuery(c.q, c.words)
			if first != c.first || rest != c.rest {
				t.Errorf("typedQuery(%q, %d) = %q, %q; want %q, %q", c.q, c.words, first, rest, c.first, c.rest)
			}
		})
	}
}

func TestRenderFor_FirstDrawingThatShowsResultsAfterTheKeyForWhatTheBoxHeld(t *testing.T) {
	rs := []embedRender{{T: 10, Value: "ab", Hits: 0}, {T: 15, Value: "abc", Pending: 3}, {T: 20, Value: "abc", Hits: 1, Pending: 2},
		{T: 30, Value: "ab", Hits: 2}, {T: 40, Value: "abc", Hits: 4}}
	cases := []struct {
		name   string
		after  float64
		value  string
		want   embedRender
		wantOK bool
	}{
		{"the first drawing with a page, others still loading", 0, "abc", rs[2], true},
		{"a drawing before the key does not count", 21, "abc", rs[4], true},
		{"the same text typed again", 11, "ab", rs[3], true},
		{"an empty list is results too", 0, "ab", rs[0], true},
		{"nothing drawn for it yet", 0, "abcd", embedRender{}, false},
		{"nothing drawn since", 41, "abc", embedRender{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := renderFor(rs, c.after, c.value)
			if got != c.want || ok != c.wantOK {
				t.Errorf("renderFor(%v, %q) = %+v, %v; want %+v, %v", c.after, c.value, got, ok, c.want, c.wantOK)
			}
		})
	}
	if got, ok := firstRender(rs, 12); !ok || got != rs[2] {
		t.Errorf("firstRender(12) = %+v, %v; want %+v (rows that all wait are no results)", got, ok, rs[2])
	}
}

func TestSummarizeEmbed_LeavesFailedPagesOutAndPoolsTheKeys(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	ok := func(first, word int, hits int, keys ...int) pageSearch {
		p := pageSearch{First: ms(first), Word: ms(word), FirstHits: hits, SiteBytes: int64(first)}
		for _, k := range keys {
			p.Keys = append(p.Keys, ms(k))
		}
		return p
	}
	visits := []embedVisit{
		{First: ok(4000, 4000, 8, 10, 20), Later: ok(1000, 1000, 8, 5)},
		{First: ok(6000, 6500, 0, 30, 400), Later: ok(1200, 1300, 8, 15, 25)},
		{First: ok(5000, 5000, 8, 40), Later: pageSearch{Err: "results for \"x\": not within 2m0s"}},
		{First: pageSearch{Err: "embed.js not mounted"}},
	}
	first, later := summarizeEmbed(visits)
	if first.Visits != 4 || first.Failed != 1 || first.FirstEmpty != 1 {
		t.Errorf("first page: %d visits, %d failed, %d empty; want 4, 1, 1", first.Visits, first.Failed, first.FirstEmpty)
	}
	if first.First != ms(5000) || first.Word != ms(5000) {
		t.Errorf("first page: first %s, word %s; want the medians 5s, 5s", first.First, first.Word)
	}
	if first.Keys != 5 || first.KeyMedian != ms(30) || first.KeyMax != ms(400) {
		t.Errorf("first page keys: %d, median %s, max %s; want 5, 30ms, 400ms", first.Keys, first.KeyMedian, first.KeyMax)
	}
	if later.Visits != 4 || later.Failed != 2 {
		t.Errorf("later page: %d visits, %d failed; want 4, 2 (one failed there, one never got there)", later.Visits, later.Failed)
	}
	if later.First != ms(1100) || later.Keys != 3 || later.KeyMedian != ms(15) || later.KeyMax != ms(25) {
		t.Errorf("later page: first %s, %d keys, median %s, max %s; want 1.1s, 3, 15ms, 25ms", later.First, later.Keys, later.KeyMedian, later.KeyMax)
	}
}

func TestEmbedHosts_ArePagesOfTheSiteWithTheScriptLine(t *testing.T) {
	site := t.TempDir()
	corpus := []beir.Doc{{ID: "11", Title: "One", Text: "First text."}, {ID: "22", Title: "Two", Text: "Second text."}}
	hosts, err := embedHosts(site, corpus)
	if err != nil {
		t.Fatal(err)
	}
	if hosts != [2]string{"/embed/11.html", "/embed/22.html"} {
		t.Fatalf("hosts %q", hosts)
	}
	for i, h := range hosts {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(h)))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !strings.Contains(page, embedScript+"\n</body>") || !strings.Contains(page, `data-search="true"`) {
			t.Errorf("%s lacks the script line before </body>:\n%s", h, page)
		}
		if !strings.Contains(page, "<h1>"+corpus[i].Title+"</h1>") {
			t.Errorf("%s is not the page of %q:\n%s", h, corpus[i].Title, page)
		}
	}
	if _, err := embedHosts(site, corpus[:1]); err == nil {
		t.Error("one document made two host pages")
	}
}

func TestPrintEmbed_ATableRowPerPageAndTheFailures(t *testing.T) {
	var b strings.Builder
	printEmbed(&b, &embedResult{Words: 3, LoadBefore: "1.00 1.00 1.00", LoadAfter: "2.00 2.00 2.00", Rows: []embedRow{
		{Page: "first visit (fresh profile)", Visits: 2, First: 4500 * time.Millisecond, Word: 4600 * time.Millisecond, Keys: 30, KeyMedian: 40 * time.Millisecond, KeyP90: 300 * time.Millisecond, KeyMax: 500 * time.Millisecond, SiteBytes: 80000, ToFirstSite: 70000, ToFirstApp: 2300000},
		{Page: "later page (same profile)", Visits: 2, Failed: 2},
	}, Errors: []string{"q2: later page: embed.js not mounted"}})
	out := b.String()
	for _, want := range []string{
		"load average 1.00 1.00 1.00 before, 2.00 2.00 2.00 after",
		"| first visit (fresh profile) | 4.50 s | 4.60 s | 70 kB, 2300 kB | 40 ms | 300 ms | 500 ms | 30 | 80 kB | 2 (0, 0) |",
		"| later page (same profile) | not measured: every visit failed |",
		"failed embed visits: q2: later page: embed.js not mounted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(strings.Split(out, "\n")[2], "|"); n != strings.Count(strings.Split(out, "\n")[4], "|") {
		t.Errorf("the header and a row have different columns:\n%s", out)
	}
}

func TestPathList_LargestFirstThenHowManyMore(t *testing.T) {
	cases := []struct {
		name string
		m    map[string]int64
		n    int
		want string
	}{
		{"none", nil, 3, "none"},
		{"by size, ties by path", map[string]int64{"/b": 5, "/a": 5, "/c": 9}, 3, "/c 9 B, /a 5 B, /b 5 B"},
		{"the rest counted", map[string]int64{"/b": 5, "/a": 4, "/c": 9}, 1, "/c 9 B, 2 more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pathList(c.m, c.n); got != c.want {
				t.Errorf("pathList = %q, want %q", got, c.want)
			}
		})
	}
}
