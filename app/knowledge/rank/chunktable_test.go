package rank

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"tinyrag/app/knowledge/flatseg"
)

// tabled is a segment that also answers ChunkTable, from its own ids.
type tabled struct {
	Segment
	docs   []string
	ord, n []int32
}

func withTable(t *testing.T, seg Segment) *tabled {
	t.Helper()
	tb := &tabled{Segment: seg}
	local := map[string]int32{}
	for i := uint64(0); i < seg.Count(); i++ {
		id, err := seg.DocID(i)
		if err != nil {
			t.Fatal(err)
		}
		doc, num, _ := strings.Cut(string(id), "#")
		n, _ := strconv.Atoi(num)
		l, ok := local[doc]
		if !ok {
			l = int32(len(tb.docs))
			local[doc] = l
			tb.docs = append(tb.docs, doc)
		}
		tb.ord, tb.n = append(tb.ord, l), append(tb.n, int32(n))
	}
	return tb
}

// listed returns tb with its documents listed as order says: "first
// chunks" as they come (what a bundle writes), "with one no chunk names"
// the same and one more, "backwards" the other way round.
func listed(tb *tabled, order string) *tabled {
	out := &tabled{Segment: tb.Segment, n: tb.n}
	switch order {
	case "first chunks":
		return tb
	case "with one no chunk names":
		out.docs, out.ord = append(append([]string(nil), tb.docs...), "unnamed"), tb.ord
	case "backwards":
		last := int32(len(tb.docs) - 1)
		for i := range tb.docs {
			out.docs = append(out.docs, tb.docs[int(last)-i])
		}
		for _, l := range tb.ord {
			out.ord = append(out.ord, last-l)
		}
	}
	return out
}

func (s *tabled) ChunkTable() ([]string, []int32, []int32) { return s.docs, s.ord, s.n }

type segmentsIndex struct{ segs []Segment }

func (segmentsIndex) ChunkText(context.Context, Doc, int) (string, error) { return "", nil }
func (segmentsIndex) Common(string) (bool, error)                         { return false, nil }

func (ix segmentsIndex) View() (*View, error) {
	v := &View{Release: func() {}}
	for _, s := range ix.segs {
		v.Segments = append(v.Segments, ViewSegment{Segment: s})
		v.Chunks += s.Count()
	}
	return v, nil
}

// buildSegment indexes chunks named "doc#n", each of the given length.
func buildSegment(t *testing.T, chunks []string) Segment {
	t.Helper()
	b := flatseg.NewBuilder()
	for i, id := range chunks {
		b.AddDocument(id)
		b.AddField(FieldTitle, 2, []flatseg.Term{{Key: "title", ID: -1, Freq: 2}})
		b.AddField(FieldBody, 5+i%7, []flatseg.Term{{Key: "word", ID: -1, Freq: uint32(5 + i%7)}})
	}
	seg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return seg
}

// A segment that hands ranking its chunk table is described exactly as
// one whose ids ranking parses: the same ordinals, numbers, document
// lengths and totals, documents spread over segments included.
func TestChunkTable_DescribesASegmentAsItsIDsDo(t *testing.T) {
	many := func(doc string, k int) []string {
		var out []string
		for n := range k {
			out = append(out, fmt.Sprintf("%s#%d", doc, n))
		}
		sort.Strings(out) // the index keeps a document's chunks by id
		return out
	}
	tests := []struct {
		name     string
		segments [][]string
	}{
		{"one segment, one chunk each", [][]string{{"a#0", "b#0", "c#0"}}},
		{"documents of more than ten chunks", [][]string{append(many("a", 12), many("b", 3)...)}},
		{"a later segment names earlier documents", [][]string{{"a#0", "b#0"}, {"c#0", "a#1", "d#0"}}},
		{"a document's chunks apart", [][]string{{"a#0", "b#0", "a#1", "c#0"}}},
	}
	for _, tc := range tests {
		for _, order := range []string{"first chunks", "with one no chunk names", "backwards"} {
			t.Run(tc.name+", documents listed by "+order, func(t *testing.T) {
				var plain, table []Segment
				for _, chunks := range tc.segments {
					seg := buildSegment(t, chunks)
					plain = append(plain, seg)
					table = append(table, listed(withTable(t, seg), order))
				}
				want, err := New(Config{}).Describe(segmentsIndex{plain})
				if err != nil {
					t.Fatal(err)
				}
				got, err := New(Config{}).Describe(segmentsIndex{table})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("with the table %+v\nfrom the ids %+v", got, want)
				}
			})
		}
	}
}

func TestChunkTable_RefusesATableThatDoesNotFitTheSegment(t *testing.T) {
	seg := buildSegment(t, []string{"a#0", "b#0"})
	for name, tb := range map[string]*tabled{
		"too few chunks":      {Segment: seg, docs: []string{"a"}, ord: []int32{0}, n: []int32{0}},
		"an unknown document": {Segment: seg, docs: []string{"a"}, ord: []int32{0, 1}, n: []int32{0, 0}},
	} {
		if _, err := New(Config{}).Describe(segmentsIndex{[]Segment{tb}}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// docSums gives each ordinal its own sum whether the ordinals are dense
// (a slice) or spread thin (a map).
func TestDocSums_OneSumPerOrdinalDenseOrSparse(t *testing.T) {
	for name, ord := range map[string][]int32{
		"dense":  {3, 3, 4, 5, 5, 5, 7},
		"sparse": {0, 0, 1000, 5000, 5000},
		"empty":  {},
	} {
		s := newDocSums[int](ord)
		want := map[int32]int{}
		for _, o := range ord {
			*s.get(o)++
			want[o]++
		}
		var got, wantCounts []int
		s.each(func(n *int) { got = append(got, *n) })
		for _, n := range want {
			wantCounts = append(wantCounts, n)
		}
		sort.Ints(got)
		sort.Ints(wantCounts)
		if s.len() != len(want) || !reflect.DeepEqual(got, wantCounts) && len(want) > 0 {
			t.Errorf("%s: len %d, sums %v; want %d, %v", name, s.len(), got, len(want), wantCounts)
		}
		if (s.byOrd != nil) != (name == "sparse") {
			t.Errorf("%s: map used %v", name, s.byOrd != nil)
		}
	}
}

// sparse is a segment that hands ranking its tables the way a site
// bundle's does (Sparse): filled only for the chunks holding one of the
// terms whose postings are "loaded", zero elsewhere.
type sparse struct {
	Segment
	docs            []string
	ord, n, repeats []int32
	length          []uint32
	ndocs           int
	tokens          int64
	totals          map[string]FieldTotals
}

func (s *sparse) ChunkTable() ([]string, []int32, []int32) { return s.docs, s.ord, s.n }
func (s *sparse) DocumentFigures() ([]uint32, []int32, int, int64) {
	return s.length, s.repeats, s.ndocs, s.tokens
}
func (s *sparse) FieldTotals(field string) FieldTotals { return s.totals[field] }

// A sparse segment, whose tables hold only the chunks of the postings a
// query reads, ranks exactly as the segment it stands for.
func TestSparse_RanksAsTheWholeSegmentFromTheChunksOfItsPostingsAlone(t *testing.T) {
	b := flatseg.NewBuilder()
	var ids []string
	for d := range 9 {
		for n := range 1 + d%4 {
			ids = append(ids, fmt.Sprintf("doc%d#%d", d, n))
		}
	}
	sort.Strings(ids)
	for i, id := range ids {
		b.AddDocument(id)
		if strings.HasSuffix(id, "#0") {
			b.AddField(FieldTitle, 2, []flatseg.Term{{Key: "orchard", ID: -1, Freq: 1}, {Key: "notes", ID: -1, Freq: 1}})
		}
		terms := []flatseg.Term{{Key: "word", ID: -1, Freq: uint32(3 + i%5)}}
		if i%3 == 0 {
			terms = append(terms, flatseg.Term{Key: "apple", ID: -1, Freq: uint32(1 + i%4)})
		}
		if i%4 == 1 {
			terms = append(terms, flatseg.Term{Key: "orchard", ID: -1, Freq: 2})
		}
		b.AddField(FieldBody, 8+i%6, terms)
	}
	seg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	whole := segmentsIndex{[]Segment{seg}}
	desc, err := New(Config{}).Describe(whole)
	if err != nil {
		t.Fatal(err)
	}
	tb := withTable(t, seg)
	for _, q := range []string{"apple", "orchard apple", "orchard"} {
		count := int(seg.Count())
		sp := &sparse{Segment: seg, docs: tb.docs, ord: make([]int32, count), n: make([]int32, count),
			repeats: make([]int32, count), length: make([]uint32, count), ndocs: desc.Docs, tokens: desc.Tokens, totals: desc.Totals}
		for _, term := range strings.Fields(q) {
			for _, field := range []string{FieldBody, FieldTitle} {
				docs, _, _ := seg.Postings(field, term)
				for _, c := range docs {
					sp.ord[c], sp.n[c] = tb.ord[c], tb.n[c]
					sp.length[c], sp.repeats[c] = desc.DocLength[c], desc.Repeats[c]
				}
			}
		}
		for _, cfg := range []Config{{}, {TitleBoost: 1}, {Scoring: Scoring{ChunkIDF: true}}} {
			want, err := New(cfg).rankTerms(context.Background(), whole, terms(q), 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := New(cfg).rankTerms(context.Background(), segmentsIndex{[]Segment{sp}}, terms(q), 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("%q, %+v: sparse %+v\nwhole %+v", q, cfg, got, want)
			}
		}
	}
}

// terms makes a query's terms as they are, one weight each.
func terms(q string) []queryTerm {
	var out []queryTerm
	for _, w := range strings.Fields(q) {
		out = append(out, queryTerm{term: w, weight: 1})
	}
	return out
}
