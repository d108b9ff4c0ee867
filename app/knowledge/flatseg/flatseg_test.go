package flatseg_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum/levenshtein"
	"github.com/blevesearch/vellum/regexp"

	"tinyrag/app/knowledge/flatseg"
)

// A test document: an id and fields whose text is analysed by splitting it
// at spaces, so that every expected posting can be counted by eye.
type doc struct {
	id     string
	fields []fld
}

type fld struct{ name, text string }

// An idScheme makes, for one Builder, the Term.ID of each key in each
// document, the way some analyzer's term cache might. The segment must not
// depend on it.
type idScheme func() func(docNum int, key string) int32

// noIDs leaves every term to be looked up by key.
func noIDs() func(int, string) int32 { return func(int, string) int32 { return -1 } }

// cacheStartingOverEvery hands out ids 0, 1, 2, … by first sight and forgets
// them every n documents, as a bounded analyzer cache does: afterwards an id
// names another key, and a key comes back under another id.
func cacheStartingOverEvery(n int) idScheme {
	return func() func(int, string) int32 {
		var ids map[string]int32
		epoch := -1
		return func(docNum int, key string) int32 {
			if docNum/n != epoch {
				epoch, ids = docNum/n, map[string]int32{}
			}
			id, ok := ids[key]
			if !ok {
				id = int32(len(ids))
				ids[key] = id
			}
			return id
		}
	}
}

// stableIDs never forgets: the fast path only.
var stableIDs = cacheStartingOverEvery(math.MaxInt)

// analyse splits text at spaces into distinct terms with their frequencies,
// in order of first occurrence, and the field length in terms.
func analyse(text string, id func(key string) int32) (int, []flatseg.Term) {
	tokens := strings.Fields(text)
	var terms []flatseg.Term
	at := map[string]int{}
	for _, tok := range tokens {
		if i, ok := at[tok]; ok {
			terms[i].Freq++
			continue
		}
		at[tok] = len(terms)
		terms = append(terms, flatseg.Term{Key: tok, ID: id(tok), Freq: 1})
	}
	return len(tokens), terms
}

func build(t testing.TB, docs []doc, ids idScheme) *flatseg.Segment {
	t.Helper()
	b := flatseg.NewBuilder()
	idOf := ids()
	for n, d := range docs {
		b.AddDocument(d.id)
		for _, f := range d.fields {
			length, terms := analyse(f.text, func(key string) int32 { return idOf(n, key) })
			b.AddField(f.name, length, terms)
		}
	}
	return mustBuild(t, b)
}

func mustBuild(t testing.TB, b *flatseg.Builder) *flatseg.Segment {
	t.Helper()
	s, err := b.Build()
	if err != nil || s == nil {
		t.Fatalf("Build() = %v, %v", s, err)
	}
	return s
}

// library is the small corpus most tests read. Its ids are not added in
// order, title is first seen before body, and doc-a has no title.
var library = []doc{
	{id: "doc-b", fields: []fld{{"title", "cats"}, {"body", "the cat sat on the mat"}}},
	{id: "doc-a", fields: []fld{{"body", "a dog sat"}}},
	{id: "doc-c", fields: []fld{{"title", "dogs and cats"}, {"body", "the dog and the cat the end"}}},
}

type posting struct{ Doc, Freq uint64 }

// A hit is a posting named by document id: how documents are numbered is
// the segment's business, which document holds a term is not.
type hit struct {
	ID   string
	Freq uint64
}

// hitsOf iterates a postings list, checks that document numbers ascend,
// and names each document by its id.
func hitsOf(t testing.TB, s *flatseg.Segment, pl segment.PostingsList) []hit {
	t.Helper()
	out := []hit{}
	ps := postingsOf(t, pl)
	for i, p := range ps {
		if i > 0 && p.Doc <= ps[i-1].Doc {
			t.Fatalf("document numbers do not ascend: %v", ps)
		}
		id, err := s.DocID(p.Doc)
		if err != nil {
			t.Fatalf("DocID(%d) of a posting: %v", p.Doc, err)
		}
		out = append(out, hit{string(id), p.Freq})
	}
	return out
}

// numberOf is the document number of id, found as scorch finds it.
func numberOf(t testing.TB, s *flatseg.Segment, id string) uint64 {
	t.Helper()
	bm, err := s.DocNumbers([]string{id})
	if err != nil || bm.GetCardinality() != 1 {
		t.Fatalf("DocNumbers([%q]) = %v, %v; want one number", id, bm, err)
	}
	return uint64(bm.Minimum())
}

// postingsOf iterates a postings list the way scorch does.
func postingsOf(t testing.TB, pl segment.PostingsList) []posting {
	t.Helper()
	out := []posting{}
	it := pl.Iterator(true, true, false, nil)
	for {
		p, err := it.Next()
		if err != nil {
			t.Fatalf("PostingsIterator.Next: %v", err)
		}
		if p == nil {
			return out
		}
		out = append(out, posting{p.Number(), p.Frequency()})
	}
}

func dictionary(t testing.TB, s *flatseg.Segment, field string) segment.TermDictionary {
	t.Helper()
	d, err := s.Dictionary(field)
	if err != nil {
		t.Fatalf("Dictionary(%q): %v", field, err)
	}
	return d
}

func postingsList(t testing.TB, s *flatseg.Segment, field, term string, except *roaring.Bitmap) segment.PostingsList {
	t.Helper()
	pl, err := dictionary(t, s, field).PostingsList([]byte(term), except, nil)
	if err != nil {
		t.Fatalf("PostingsList(%q, %q): %v", field, term, err)
	}
	if pl == nil {
		t.Fatalf("PostingsList(%q, %q) is nil", field, term)
	}
	return pl
}

func entries(t testing.TB, it segment.DictionaryIterator) []string {
	t.Helper()
	out := []string{}
	for {
		e, err := it.Next()
		if err != nil {
			t.Fatalf("DictionaryIterator.Next: %v", err)
		}
		if e == nil {
			return out
		}
		out = append(out, fmt.Sprintf("%s:%d", e.Term, e.Count))
	}
}

// dump lists everything a segment answers through the interfaces scorch
// and the ranker use, one fact a line, so that two segments can be compared
// whole and the first difference shown.
func dump(t testing.TB, s *flatseg.Segment) []string {
	t.Helper()
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("count %d fields %q", s.Count(), s.Fields())
	for n := range s.Count() {
		id, err := s.DocID(n)
		if err != nil {
			t.Fatalf("DocID(%d): %v", n, err)
		}
		add("doc %d id %q", n, id)
	}
	for _, name := range s.Fields() {
		d := dictionary(t, s, name)
		_, _, lens := s.Postings(name, "")
		add("field %q cardinality %d lens %v", name, d.Cardinality(), lens)
		it := d.AutomatonIterator(nil, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				t.Fatalf("DictionaryIterator.Next: %v", err)
			}
			if e == nil {
				break
			}
			add("  term %q count %d postings %v", e.Term, e.Count, postingsOf(t, postingsList(t, s, name, e.Term, nil)))
		}
	}
	return out
}

func sameSegment(t testing.TB, got, want *flatseg.Segment) {
	t.Helper()
	g, w := dump(t, got), dump(t, want)
	line := func(l []string, i int) string {
		if i < len(l) {
			return l[i]
		}
		return "(end)"
	}
	for i := range max(len(g), len(w)) {
		if line(g, i) != line(w, i) {
			t.Fatalf("segments differ at line %d:\n got: %s\nwant: %s", i, line(g, i), line(w, i))
		}
	}
}

func encode(t testing.TB, s *flatseg.Segment) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := s.WriteTo(&buf)
	if err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// --- Builder → Segment ---

func TestBuild_CountsEveryAddedDocument(t *testing.T) {
	for _, tc := range []struct {
		name string
		docs []doc
		want uint64
	}{
		{"no documents", nil, 0},
		{"documents without fields", []doc{{id: "x"}, {id: "y"}}, 2},
		{"library", library, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := build(t, tc.docs, noIDs).Count(); got != tc.want {
				t.Errorf("Count() = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestBuild_SameIDTwice_IsAnError(t *testing.T) {
	b := flatseg.NewBuilder()
	for _, id := range []string{"x", "y", "x"} {
		b.AddDocument(id)
	}
	if s, err := b.Build(); err == nil {
		t.Errorf("Build() = %v, nil; want an error", s)
	}
}

func TestBuild_NumbersDocumentsInIDOrder(t *testing.T) {
	// So that the id field's dictionary is the id list (see Build).
	s := build(t, randomCorpus(50, 1), noIDs)
	var ids []string
	for n := range s.Count() {
		id, err := s.DocID(n)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, string(id))
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids by document number are not sorted: %q", ids)
	}
}

func TestSegment_DocIDAndDocNumbers_AgreeOnEveryAddedID(t *testing.T) {
	s := build(t, library, noIDs)
	seen := map[uint64]string{}
	for _, d := range library {
		n := numberOf(t, s, d.id)
		if other, ok := seen[n]; ok {
			t.Errorf("%q and %q share document number %d", d.id, other, n)
		}
		seen[n] = d.id
		if id, err := s.DocID(n); err != nil || string(id) != d.id {
			t.Errorf("DocID(%d) = %q, %v; want %q", n, id, err, d.id)
		}
	}
}

func TestSegment_VisitStoredFields_VisitsOnlyTheID(t *testing.T) {
	s := build(t, library, noIDs)
	for _, d := range library {
		var got []string
		err := s.VisitStoredFields(numberOf(t, s, d.id), func(field string, typ byte, value []byte, pos []uint64) bool {
			got = append(got, fmt.Sprintf("%s %c %q %v", field, typ, value, pos))
			return true
		})
		if want := []string{fmt.Sprintf("_id t %q []", d.id)}; err != nil || !slices.Equal(got, want) {
			t.Errorf("VisitStoredFields of %s visited %q, %v; want %q", d.id, got, err, want)
		}
	}
}

func TestSegment_OutOfRangeDocNumber_IsAnError(t *testing.T) {
	s := build(t, library, noIDs)
	for _, num := range []uint64{3, 4, math.MaxUint32 + 1, math.MaxUint64} {
		t.Run(fmt.Sprint(num), func(t *testing.T) {
			if id, err := s.DocID(num); err == nil {
				t.Errorf("DocID(%d) = %q, want an error", num, id)
			}
			visited := false
			err := s.VisitStoredFields(num, func(string, byte, []byte, []uint64) bool { visited = true; return true })
			if err == nil || visited {
				t.Errorf("VisitStoredFields(%d): error %v, visited %v; want an error and no visit", num, err, visited)
			}
		})
	}
}

func TestSegment_Fields_ListsTheIDFieldFirstThenTheOthersByName(t *testing.T) {
	// "Zeta" sorts before "_id" byte-wise: the id field is first by rule,
	// not by sorting.
	s := build(t, []doc{
		{id: "1", fields: []fld{{"title", "x"}, {"body", "y"}, {"Zeta", "z"}}},
		{id: "2", fields: []fld{{"ärger", "x"}, {"body", "y"}, {"alpha", ""}}},
	}, noIDs)
	want := []string{"_id", "Zeta", "alpha", "body", "title", "ärger"}
	if got := s.Fields(); !slices.Equal(got, want) {
		t.Errorf("Fields() = %q, want %q", got, want)
	}
	if got := build(t, []doc{{id: "1"}}, noIDs).Fields(); !slices.Equal(got, []string{"_id"}) {
		t.Errorf("Fields() without fields = %q, want [_id]", got)
	}
}

func TestBuilder_AddField_IgnoresTheIDField(t *testing.T) {
	b := flatseg.NewBuilder()
	b.AddDocument("real")
	b.AddField(flatseg.IDField, 1, []flatseg.Term{{Key: "bogus", ID: -1, Freq: 1}})
	s := mustBuild(t, b)
	if got := entries(t, dictionary(t, s, flatseg.IDField).AutomatonIterator(nil, nil, nil)); !slices.Equal(got, []string{"real:1"}) {
		t.Errorf("_id terms = %q, want [real:1]", got)
	}
	if got := s.Fields(); !slices.Equal(got, []string{"_id"}) {
		t.Errorf("Fields() = %q, want [_id]", got)
	}
}

func TestBuilder_AddFieldBeforeAddDocument_Panics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AddField before AddDocument did not panic")
		}
	}()
	flatseg.NewBuilder().AddField("body", 1, []flatseg.Term{{Key: "x", ID: -1, Freq: 1}})
}

// --- Dictionary ---

func TestDictionary_Cardinality_CountsDistinctTerms(t *testing.T) {
	s := build(t, library, noIDs)
	for _, tc := range []struct {
		field string
		want  int
	}{
		{"body", 9}, // a and cat dog end mat on sat the
		{"title", 3},
		{"_id", 3},
		{"absent", 0},
	} {
		if got := dictionary(t, s, tc.field).Cardinality(); got != tc.want {
			t.Errorf("Dictionary(%q).Cardinality() = %d, want %d", tc.field, got, tc.want)
		}
	}
}

func TestDictionary_Contains_ReportsWholeTermsOfThatFieldOnly(t *testing.T) {
	s := build(t, library, noIDs)
	for _, tc := range []struct {
		field, term string
		want        bool
	}{
		{"body", "cat", true},
		{"body", "the", true},
		{"body", "a", true},
		{"body", "ca", false},   // a prefix of a term
		{"body", "cats", false}, // a term of another field
		{"body", "", false},
		{"body", "zzz", false},
		{"title", "cats", true},
		{"_id", "doc-a", true},
		{"_id", "doc-d", false},
		{"absent", "cat", false},
	} {
		got, err := dictionary(t, s, tc.field).Contains([]byte(tc.term))
		if err != nil || got != tc.want {
			t.Errorf("Dictionary(%q).Contains(%q) = %v, %v; want %v", tc.field, tc.term, got, err, tc.want)
		}
	}
}

func TestDictionary_PostingsList_OfAnAbsentTermOrField_IsEmptyNotNil(t *testing.T) {
	s := build(t, library, noIDs)
	for _, tc := range []struct{ field, term string }{
		{"body", "zebra"},
		{"body", ""},
		{"body", "cats"},
		{"absent", "cat"},
		{"_id", "doc-d"},
	} {
		pl := postingsList(t, s, tc.field, tc.term, nil)
		if n, got := pl.Count(), postingsOf(t, pl); n != 0 || len(got) != 0 {
			t.Errorf("PostingsList(%q, %q): Count %d, postings %v; want none", tc.field, tc.term, n, got)
		}
	}
}

func TestPostingsList_ListsDocumentsAscendingWithFrequencies(t *testing.T) {
	s := build(t, library, noIDs)
	for _, tc := range []struct {
		field, term string
		want        []hit
	}{
		{"body", "the", []hit{{"doc-b", 2}, {"doc-c", 3}}},
		{"body", "sat", []hit{{"doc-a", 1}, {"doc-b", 1}}},
		{"body", "dog", []hit{{"doc-a", 1}, {"doc-c", 1}}},
		{"body", "a", []hit{{"doc-a", 1}}},
		{"body", "end", []hit{{"doc-c", 1}}},
		{"title", "cats", []hit{{"doc-b", 1}, {"doc-c", 1}}},
		{"title", "and", []hit{{"doc-c", 1}}},
		{"_id", "doc-a", []hit{{"doc-a", 1}}},
		{"_id", "doc-c", []hit{{"doc-c", 1}}},
	} {
		pl := postingsList(t, s, tc.field, tc.term, nil)
		// hitsOf also fails the test if document numbers do not ascend.
		got := hitsOf(t, s, pl)
		slices.SortFunc(got, func(x, y hit) int { return strings.Compare(x.ID, y.ID) })
		if !slices.Equal(got, tc.want) || pl.Count() != uint64(len(tc.want)) {
			t.Errorf("%s:%s postings = %v (Count %d), want %v", tc.field, tc.term, got, pl.Count(), tc.want)
		}
	}
}

func TestPosting_Norm_IsZapsInverseSquareRootOfTheFieldLengthRoundedToFloat32(t *testing.T) {
	lengths := []int{1, 2, 3, 4, 7, 10, 100, 12345}
	var docs []doc
	for _, l := range lengths {
		docs = append(docs, doc{id: fmt.Sprintf("%05d", l), fields: []fld{{"body", "x" + strings.Repeat(" y", l-1)}}})
	}
	s := build(t, docs, noIDs)
	it := postingsList(t, s, "body", "x", nil).Iterator(true, true, false, nil)
	for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
		if err != nil {
			t.Fatal(err)
		}
		id, _ := s.DocID(p.Number())
		l, _ := strconv.Atoi(string(id))
		// zap stores the norm as a float32 and widens it when read.
		want := float64(float32(1 / math.Sqrt(float64(l))))
		if got := p.Norm(); got != want {
			t.Errorf("field length %d: Norm() = %v, want %v", l, got, want)
		}
		if got := p.(*flatseg.Posting).FieldLength(); got != uint64(l) {
			t.Errorf("field length %d: FieldLength() = %d", l, got)
		}
	}
	// Without this the table could not tell a float32 from a float64 norm.
	if float64(float32(1/math.Sqrt(3))) == 1/math.Sqrt(3) {
		t.Fatal("test lengths do not separate float32 from float64")
	}
}

func TestPosting_Locations_AreNil(t *testing.T) {
	p, err := postingsList(t, build(t, library, noIDs), "body", "the", nil).Iterator(true, true, true, nil).Next()
	if err != nil || p == nil {
		t.Fatalf("Next: %v, %v", p, err)
	}
	if locs := p.Locations(); locs != nil {
		t.Errorf("Locations() = %v, want nil", locs)
	}
}

func TestDictionary_PostingsList_ReusesPreallocWithoutItsOldState(t *testing.T) {
	s := build(t, library, noIDs)
	d := dictionary(t, s, "body")
	first, err := d.PostingsList([]byte("the"), roaring.BitmapOf(uint32(numberOf(t, s, "doc-b"))), nil)
	if err != nil {
		t.Fatal(err)
	}
	it := first.Iterator(true, true, false, nil)
	if got := hitsOf(t, s, first); !slices.Equal(got, []hit{{"doc-c", 3}}) {
		t.Fatalf("first list = %v, want [{doc-c 3}]", got)
	}
	it.Next()
	second, err := d.PostingsList([]byte("sat"), nil, first)
	if err != nil {
		t.Fatal(err)
	}
	if second != first {
		t.Errorf("PostingsList did not reuse prealloc")
	}
	// Neither the old except set nor the old iterator position may leak.
	it = second.Iterator(true, true, false, it)
	var got []hit
	for p, _ := it.Next(); p != nil; p, _ = it.Next() {
		id, _ := s.DocID(p.Number())
		got = append(got, hit{string(id), p.Frequency()})
	}
	slices.SortFunc(got, func(x, y hit) int { return strings.Compare(x.ID, y.ID) })
	if want := []hit{{"doc-a", 1}, {"doc-b", 1}}; !slices.Equal(got, want) || second.Count() != 2 {
		t.Errorf("reused list: postings %v (Count %d), want %v", got, second.Count(), want)
	}
	third, err := d.PostingsList([]byte("absent"), nil, second)
	if err != nil {
		t.Fatal(err)
	}
	if got := postingsOf(t, third); len(got) != 0 || third.Count() != 0 {
		t.Errorf("list reused for an absent term: postings %v (Count %d), want none", got, third.Count())
	}
}

// --- Term ids ---

// idSchemes are ways of filling in Term.ID that a Builder must treat as
// mere hints.
var idSchemes = []struct {
	name string
	ids  idScheme
}{
	{"stable ids (fast path)", stableIDs},
	{"cache starting over every document", cacheStartingOverEvery(1)},
	{"cache starting over every other document", cacheStartingOverEvery(2)},
	{"sparse large ids", func() func(int, string) int32 {
		next := stableIDs()
		return func(n int, key string) int32 { return 5000 + 7*next(n, key) }
	}},
	{"ids on every other document only", func() func(int, string) int32 {
		next := stableIDs()
		return func(n int, key string) int32 {
			if n%2 == 1 {
				return -1
			}
			return next(n, key)
		}
	}},
	{"random ids", func() func(int, string) int32 {
		r := rand.New(rand.NewPCG(7, 7))
		return func(int, string) int32 { return r.Int32N(6) }
	}},
}

// restarts is built so that a cache starting over each document gives
// "cherry" apple's old id 0, "apple" banana's old id 1, and "banana" the id
// 3 no key had before; trusting ids would misfile all three.
var restarts = []doc{
	{id: "0", fields: []fld{{"body", "apple banana cherry"}, {"title", "apple"}}},
	{id: "1", fields: []fld{{"body", "cherry apple apple date"}}},
	{id: "2", fields: []fld{{"title", "fig"}, {"body", "date fig grape banana"}}},
	{id: "3", fields: []fld{{"body", "banana apple"}}},
}

func TestBuild_TermIDs_AreHintsThatNeverChangeTheSegment(t *testing.T) {
	corpora := []struct {
		name string
		docs []doc
	}{
		{"library", library},
		{"restarts", restarts},
		{"random", randomCorpus(120, 3)},
	}
	for _, c := range corpora {
		want := build(t, c.docs, noIDs)
		for _, sc := range idSchemes {
			t.Run(c.name+"/"+sc.name, func(t *testing.T) {
				sameSegment(t, build(t, c.docs, sc.ids), want)
			})
		}
	}
	// The reference itself, on the case the schemes are built to trip.
	s := build(t, restarts, noIDs)
	for term, want := range map[string][]hit{
		"apple":  {{"0", 1}, {"1", 2}, {"3", 1}},
		"banana": {{"0", 1}, {"2", 1}, {"3", 1}},
		"cherry": {{"0", 1}, {"1", 1}},
		"date":   {{"1", 1}, {"2", 1}},
	} {
		if got := hitsOf(t, s, postingsList(t, s, "body", term, nil)); !slices.Equal(got, want) {
			t.Errorf("body:%s = %v, want %v", term, got, want)
		}
	}
}

// randomCorpus makes n documents from a small vocabulary with unicode
// words and shared prefixes; some lack a title, a few have tags.
func randomCorpus(n int, seed uint64) []doc {
	vocab := strings.Fields("a an and ant anti antic car card care cart cat café cafe ça zebra über übel " +
		"日本 日本語 x xy xyz naïve naive the then there these")
	r := rand.New(rand.NewPCG(seed, seed))
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	ids := r.Perm(n)
	docs := make([]doc, n)
	for i := range docs {
		d := doc{id: fmt.Sprintf("id-%04d", ids[i])}
		if r.IntN(3) > 0 {
			d.fields = append(d.fields, fld{"title", words(1 + r.IntN(4))})
		}
		d.fields = append(d.fields, fld{"body", words(r.IntN(30))})
		if r.IntN(10) == 0 {
			d.fields = append(d.fields, fld{"tags", words(2)})
		}
		docs[i] = d
	}
	return docs
}

// --- Except bitmaps and Advance ---

// sparse has term "x" in documents 1, 3, 4, 7 and 9 of 0…10, with
// frequency doc+1. Its ids sort as they are added, so the document
// numbers are those whatever order Build numbers in.
func sparse(t testing.TB) *flatseg.Segment {
	b := flatseg.NewBuilder()
	for n := range 11 {
		b.AddDocument(fmt.Sprintf("%02d", n))
		if slices.Contains([]int{1, 3, 4, 7, 9}, n) {
			b.AddField("f", n+1, []flatseg.Term{{Key: "x", ID: -1, Freq: uint32(n + 1)}})
		} else {
			b.AddField("f", 1, []flatseg.Term{{Key: "y", ID: -1, Freq: 1}})
		}
	}
	s := mustBuild(t, b)
	if n := numberOf(t, s, "07"); n != 7 {
		t.Fatalf("document 07 is number %d", n)
	}
	return s
}

func TestPostingsList_LeavesOutExceptedDocuments(t *testing.T) {
	s := sparse(t)
	for _, tc := range []struct {
		name   string
		except *roaring.Bitmap
		want   []uint64
	}{
		{"no except set", nil, []uint64{1, 3, 4, 7, 9}},
		{"empty except set", roaring.New(), []uint64{1, 3, 4, 7, 9}},
		{"some excepted", roaring.BitmapOf(3, 7), []uint64{1, 4, 9}},
		{"first and last excepted", roaring.BitmapOf(1, 9), []uint64{3, 4, 7}},
		{"only documents without the term excepted", roaring.BitmapOf(0, 2, 10), []uint64{1, 3, 4, 7, 9}},
		{"all excepted", roaring.BitmapOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), []uint64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := postingsList(t, s, "f", "x", tc.except)
			got := []uint64{}
			for _, p := range postingsOf(t, pl) {
				got = append(got, p.Doc)
				if p.Freq != p.Doc+1 {
					t.Errorf("doc %d has frequency %d, want %d", p.Doc, p.Freq, p.Doc+1)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("postings %v, want %v", got, tc.want)
			}
			if pl.Count() != uint64(len(tc.want)) {
				t.Errorf("Count() = %d, want %d", pl.Count(), len(tc.want))
			}
		})
	}
}

func TestPostingsIterator_Advance_LandsOnTheDocumentOrTheNextNotExcepted(t *testing.T) {
	const next, none = -1, -1
	type step struct{ advance, want int } // advance next: call Next; want none: nil
	for _, tc := range []struct {
		name   string
		except *roaring.Bitmap
		steps  []step
	}{
		{"onto a posting, then on", nil, []step{{3, 3}, {next, 4}, {next, 7}}},
		{"between postings", nil, []step{{5, 7}, {next, 9}, {next, none}}},
		{"before the first", nil, []step{{0, 1}, {next, 3}}},
		{"after a Next", nil, []step{{next, 1}, {next, 3}, {8, 9}}},
		{"onto the last", nil, []step{{9, 9}, {next, none}}},
		{"past the last", nil, []step{{10, none}, {next, none}}},
		{"far past the last", nil, []step{{1 << 40, none}}},
		{"onto an excepted posting", roaring.BitmapOf(4, 7), []step{{4, 9}, {next, none}}},
		{"Next skips excepted", roaring.BitmapOf(1, 3), []step{{next, 4}, {next, 7}}},
		{"past an excepted posting", roaring.BitmapOf(1, 3, 7), []step{{next, 4}, {5, 9}}},
		{"all excepted", roaring.BitmapOf(1, 3, 4, 7, 9), []step{{0, none}, {next, none}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := postingsList(t, sparse(t), "f", "x", tc.except).Iterator(true, true, false, nil)
			for i, st := range tc.steps {
				var p segment.Posting
				var err error
				if st.advance == next {
					p, err = it.Next()
				} else {
					p, err = it.Advance(uint64(st.advance))
				}
				got := none
				if p != nil {
					got = int(p.Number())
					if p.Frequency() != p.Number()+1 {
						t.Errorf("step %d: doc %d has frequency %d", i, got, p.Frequency())
					}
				}
				if err != nil || got != st.want {
					t.Fatalf("step %d (%+v): got doc %d, %v; want %d", i, st, got, err, st.want)
				}
			}
		})
	}
}

func TestPostingsIterator_Next_StaysNilAfterTheEnd(t *testing.T) {
	it := postingsList(t, sparse(t), "f", "x", nil).Iterator(true, true, false, nil)
	for range 5 {
		it.Next()
	}
	for i := range 3 {
		if p, err := it.Next(); p != nil || err != nil {
			t.Fatalf("Next() #%d after the end = %v, %v; want nil, nil", i+1, p, err)
		}
	}
}

// --- AutomatonIterator ---

// words holds, in byte order: cafe café car card care cart cat dog zebra
// ünïcode — with car in 3 documents and cat in 2.
func words(t testing.TB) segment.TermDictionary {
	return dictionary(t, build(t, []doc{
		{id: "0", fields: []fld{{"w", "car cat dog"}}},
		{id: "1", fields: []fld{{"w", "car card cafe"}}},
		{id: "2", fields: []fld{{"w", "car care café zebra ünïcode cart"}}},
		{id: "3", fields: []fld{{"w", "cat"}}},
	}, noIDs), "w")
}

var allWords = []string{"cafe:1", "café:1", "car:3", "card:1", "care:1", "cart:1", "cat:2", "dog:1", "zebra:1", "ünïcode:1"}

func TestDictionaryIterator_WithoutAutomaton_ListsAllTermsInOrderWithDocumentCounts(t *testing.T) {
	if got := entries(t, words(t).AutomatonIterator(nil, nil, nil)); !slices.Equal(got, allWords) {
		t.Errorf("terms = %q, want %q", got, allWords)
	}
	s := build(t, library, noIDs)
	if got := entries(t, dictionary(t, s, "absent").AutomatonIterator(nil, nil, nil)); len(got) != 0 {
		t.Errorf("absent field terms = %q, want none", got)
	}
}

func TestDictionaryIterator_KeyRange_IncludesStartExcludesEnd(t *testing.T) {
	b := func(s string) []byte { return []byte(s) }
	for _, tc := range []struct {
		name       string
		start, end []byte
		want       []string
	}{
		{"unbounded", nil, nil, allWords},
		{"empty start", b(""), nil, allWords},
		{"start on a term", b("car"), nil, allWords[2:]},
		{"start between terms", b("cas"), nil, allWords[6:]},
		{"start past ASCII", b("zzz"), nil, allWords[9:]},
		{"start past all", b("\xff"), nil, nil},
		{"end on a term", nil, b("car"), allWords[:2]},
		{"end between terms", nil, b("cara"), allWords[:3]},
		{"start and end", b("card"), b("cat"), allWords[3:6]},
		{"start equals end", b("cat"), b("cat"), nil},
		{"start after end", b("z"), b("a"), nil},
		{"end before all", nil, b("a"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := entries(t, words(t).AutomatonIterator(nil, tc.start, tc.end)); !slices.Equal(got, tc.want) {
				t.Errorf("terms in [%q, %q) = %q, want %q", tc.start, tc.end, got, tc.want)
			}
		})
	}
}

// prefix accepts the terms starting with p; unlike vellum's automata it
// reports WillAlwaysMatch once the prefix is read.
type prefix string

func (p prefix) Start() int                 { return 0 }
func (p prefix) IsMatch(s int) bool         { return s == len(p) }
func (p prefix) CanMatch(s int) bool        { return s >= 0 }
func (p prefix) WillAlwaysMatch(s int) bool { return s == len(p) }
func (p prefix) Accept(s int, c byte) int {
	switch {
	case s < 0 || s == len(p):
		return s
	case p[s] == c:
		return s + 1
	}
	return -1
}

func TestDictionaryIterator_Automaton_SelectsTheTermsItAccepts(t *testing.T) {
	lev := func(term string, d uint8) segment.Automaton {
		lb, err := levenshtein.NewLevenshteinAutomatonBuilder(d, false)
		if err != nil {
			t.Fatal(err)
		}
		dfa, err := lb.BuildDfa(term, d)
		if err != nil {
			t.Fatal(err)
		}
		return dfa
	}
	re := func(expr string) segment.Automaton {
		r, err := regexp.New(expr)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		name       string
		a          segment.Automaton
		start, end string
		want       []string
	}{
		{"regexp", re("car.?"), "", "", []string{"car:3", "card:1", "care:1", "cart:1"}},
		{"regexp matching whole terms", re("c.*e"), "", "", []string{"cafe:1", "care:1"}},
		{"regexp on unicode", re("ü.*"), "", "", []string{"ünïcode:1"}},
		{"regexp matching nothing", re("q.*"), "", "", nil},
		{"levenshtein", lev("cat", 1), "", "", []string{"car:3", "cart:1", "cat:2"}},
		// é is one edit though two bytes: the automaton reads UTF-8.
		{"levenshtein on unicode", lev("cafe", 1), "", "", []string{"cafe:1", "café:1", "care:1"}},
		{"levenshtein within a range", lev("cat", 1), "cars", "cat", []string{"cart:1"}},
		{"prefix", prefix("car"), "", "", []string{"car:3", "card:1", "care:1", "cart:1"}},
		{"prefix of everything", prefix(""), "", "", allWords},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var start, end []byte
			if tc.start != "" {
				start = []byte(tc.start)
			}
			if tc.end != "" {
				end = []byte(tc.end)
			}
			if got := entries(t, words(t).AutomatonIterator(tc.a, start, end)); !slices.Equal(got, tc.want) {
				t.Errorf("terms = %q, want %q", got, tc.want)
			}
		})
	}
}

// --- DocNumbers ---

func TestSegment_DocNumbers_FindsPresentIDsAndIgnoresAbsentOnes(t *testing.T) {
	s := build(t, library, noIDs)
	for _, tc := range []struct {
		ids  []string
		want []string
	}{
		{nil, nil},
		{[]string{"doc-a"}, []string{"doc-a"}},
		{[]string{"doc-c", "doc-b"}, []string{"doc-b", "doc-c"}},
		{[]string{"doc-a", "nope", "doc-", "doc-cc", ""}, []string{"doc-a"}},
		{[]string{"nope"}, nil},
		{[]string{"doc-b", "doc-b"}, []string{"doc-b"}},
		{[]string{"doc-c", "doc-a", "doc-b"}, []string{"doc-a", "doc-b", "doc-c"}},
	} {
		bm, err := s.DocNumbers(tc.ids)
		if err != nil || bm == nil {
			t.Fatalf("DocNumbers(%q) = %v, %v", tc.ids, bm, err)
		}
		var got []string
		for _, n := range bm.ToArray() {
			id, err := s.DocID(uint64(n))
			if err != nil {
				t.Fatalf("DocNumbers(%q) gave %d: %v", tc.ids, n, err)
			}
			got = append(got, string(id))
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("DocNumbers(%q) are the documents %q, want %q", tc.ids, got, tc.want)
		}
	}
}

// --- Segment.Postings ---

// postingsAgree checks that Segment.Postings gives, for every term of every
// field, what the postings list iterator gives, and the field length each
// Posting reports.
func postingsAgree(t testing.TB, s *flatseg.Segment) {
	t.Helper()
	for _, name := range s.Fields() {
		it := dictionary(t, s, name).AutomatonIterator(nil, nil, nil)
		for e, _ := it.Next(); e != nil; e, _ = it.Next() {
			if df := s.DocFreq(name, e.Term); uint64(df) != e.Count {
				t.Fatalf("%s:%s: DocFreq %d, dictionary count %d", name, e.Term, df, e.Count)
			}
			docs, freqs, lens := s.Postings(name, e.Term)
			if len(docs) != len(freqs) || uint64(len(lens)) != s.Count() || uint64(len(docs)) != e.Count {
				t.Fatalf("%s:%s: %d docs, %d freqs, %d lens, dictionary count %d for %d documents",
					name, e.Term, len(docs), len(freqs), len(lens), e.Count, s.Count())
			}
			pit := postingsList(t, s, name, e.Term, nil).Iterator(true, true, false, nil)
			for i := range docs {
				p, err := pit.Next()
				if err != nil || p == nil {
					t.Fatalf("%s:%s: list ends at %d of %d (%v)", name, e.Term, i, len(docs), err)
				}
				if p.Number() != uint64(docs[i]) || p.Frequency() != uint64(freqs[i]) ||
					p.(*flatseg.Posting).FieldLength() != uint64(lens[docs[i]]) {
					t.Fatalf("%s:%s #%d: list has doc %d freq %d length %d; Postings has doc %d freq %d length %d",
						name, e.Term, i, p.Number(), p.Frequency(), p.(*flatseg.Posting).FieldLength(), docs[i], freqs[i], lens[docs[i]])
				}
			}
			if p, _ := pit.Next(); p != nil {
				t.Fatalf("%s:%s: list goes on past Postings' %d", name, e.Term, len(docs))
			}
		}
	}
}

func TestSegment_Postings_GivesWhatThePostingsListGives(t *testing.T) {
	s := build(t, randomCorpus(60, 5), noIDs)
	postingsAgree(t, s)
	decoded, err := flatseg.Decode(encode(t, s))
	if err != nil {
		t.Fatal(err)
	}
	postingsAgree(t, decoded)
}

func TestSegment_Postings_GivesFieldLengthsByDocumentNumber(t *testing.T) {
	s := build(t, library, noIDs)
	type lensByID map[string]uint32
	for _, tc := range []struct {
		field, term string
		hits        []hit
		lens        lensByID
	}{
		{"body", "the", []hit{{"doc-b", 2}, {"doc-c", 3}}, lensByID{"doc-a": 3, "doc-b": 6, "doc-c": 7}},
		{"title", "cats", []hit{{"doc-b", 1}, {"doc-c", 1}}, lensByID{"doc-a": 0, "doc-b": 1, "doc-c": 3}}, // doc-a has no title
		{"title", "absent", nil, lensByID{"doc-a": 0, "doc-b": 1, "doc-c": 3}},
		{"_id", "doc-a", []hit{{"doc-a", 1}}, lensByID{"doc-a": 1, "doc-b": 1, "doc-c": 1}},
	} {
		docs, freqs, lens := s.Postings(tc.field, tc.term)
		var hits []hit
		for i, d := range docs {
			id, _ := s.DocID(uint64(d))
			hits = append(hits, hit{string(id), uint64(freqs[i])})
		}
		slices.SortFunc(hits, func(x, y hit) int { return strings.Compare(x.ID, y.ID) })
		if !slices.Equal(hits, tc.hits) {
			t.Errorf("Postings(%q, %q) hits %v, want %v", tc.field, tc.term, hits, tc.hits)
		}
		got := lensByID{}
		for n, l := range lens {
			id, _ := s.DocID(uint64(n))
			got[string(id)] = l
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.lens) || len(lens) != 3 {
			t.Errorf("Postings(%q, %q) lens %v (%v), want %v", tc.field, tc.term, got, lens, tc.lens)
		}
	}
	if df, df2 := s.DocFreq("absent", "the"), s.DocFreq("body", "absent"); df != 0 || df2 != 0 {
		t.Errorf("DocFreq of an absent field, term = %d, %d, want 0", df, df2)
	}
	if docs, freqs, lens := s.Postings("absent", "the"); docs != nil || freqs != nil || lens != nil {
		t.Errorf("Postings of an absent field = %v %v %v, want all nil", docs, freqs, lens)
	}
}

// --- WriteTo and Decode ---

// roundTrips are segments whose saved form must give them back unchanged.
var roundTrips = []struct {
	name  string
	build func(testing.TB) *flatseg.Segment
}{
	{"no documents", func(t testing.TB) *flatseg.Segment { return mustBuild(t, flatseg.NewBuilder()) }},
	{"documents without fields", func(t testing.TB) *flatseg.Segment { return build(t, []doc{{id: "x"}, {id: ""}}, noIDs) }},
	{"library", func(t testing.TB) *flatseg.Segment { return build(t, library, noIDs) }},
	{"unicode, shared prefixes, empty fields", func(t testing.TB) *flatseg.Segment {
		return build(t, []doc{
			{id: "ü-1", fields: []fld{{"body", "日本 日本語 日 naïve naive na n"}, {"empty", ""}}},
			{id: "2", fields: []fld{{"empty", ""}}},
			{id: "日本-3", fields: []fld{{"body", "an ant anti antic antic"}, {"ärger", "über übel"}}},
		}, noIDs)
	}},
	{"random", func(t testing.TB) *flatseg.Segment { return build(t, randomCorpus(200, 9), cacheStartingOverEvery(3)) }},
	{"large numbers", func(t testing.TB) *flatseg.Segment {
		// Document numbers, gaps, frequencies and lengths that take
		// several varint bytes, up to the largest a uint32 holds.
		b := flatseg.NewBuilder()
		for n := range 1000 {
			b.AddDocument(fmt.Sprintf("%04d%s", n, strings.Repeat("i", n%200)))
			if n%333 == 0 {
				b.AddField("f", math.MaxUint32, []flatseg.Term{
					{Key: "big", ID: -1, Freq: math.MaxUint32},
					{Key: strings.Repeat("long", 100), ID: 0, Freq: 128},
				})
			}
		}
		return mustBuild(t, b)
	}},
}

func TestDecode_RoundTrip_GivesTheSameSegment(t *testing.T) {
	for _, tc := range roundTrips {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.build(t)
			data := encode(t, s)
			got, err := flatseg.Decode(data)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			sameSegment(t, got, s)
			// A reloaded index is saved again: its bytes must be as good.
			if again := encode(t, got); !bytes.Equal(again, data) {
				_, err := flatseg.Decode(again)
				t.Errorf("the decoded segment encodes differently (%d bytes, not %d; decoding them: %v)", len(again), len(data), err)
			}
		})
	}
}

func TestDecode_SegmentSearchedThenSavedAgain_GivesTheSameBytes(t *testing.T) {
	// A reloaded segment decodes postings as searches ask for them; saving
	// it afterwards must not depend on which terms were read.
	s := build(t, library, stableIDs)
	data := encode(t, s)
	got, err := flatseg.Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	got.Postings("body", "the")
	got.Postings("title", "cats")
	if again := encode(t, got); !bytes.Equal(again, data) {
		t.Errorf("saved again after searches: %d bytes differ from the %d saved first", len(again), len(data))
	}
}

func TestBuilder_SameFieldTwiceInADocument_CountsAsOneField(t *testing.T) {
	b := flatseg.NewBuilder()
	b.AddDocument("d")
	b.AddField("body", 3, []flatseg.Term{{Key: "cat", ID: 0, Freq: 2}, {Key: "mat", ID: 1, Freq: 1}})
	b.AddField("body", 2, []flatseg.Term{{Key: "cat", ID: 0, Freq: 1}, {Key: "hat", ID: 2, Freq: 1}})
	s := mustBuild(t, b)
	for _, tc := range []struct {
		term string
		freq uint32
	}{{"cat", 3}, {"hat", 1}, {"mat", 1}} {
		docs, freqs, lens := s.Postings("body", tc.term)
		if !slices.Equal(docs, []uint32{0}) || !slices.Equal(freqs, []uint32{tc.freq}) || !slices.Equal(lens, []uint32{5}) {
			t.Errorf("body:%s = %v %v %v, want [0] [%d] [5]", tc.term, docs, freqs, lens, tc.freq)
		}
	}
	// And the segment survives its own saved form.
	if _, err := flatseg.Decode(encode(t, s)); err != nil {
		t.Errorf("Decode of its saved form: %v", err)
	}
}

func TestDecode_ConcurrentReadsOfASavedSegment_AllSeeTheSamePostings(t *testing.T) {
	// A decoded segment may decode postings on first use; scorch reads a
	// segment from many goroutines at once (run with -race).
	s := build(t, randomCorpus(100, 11), noIDs)
	want := dump(t, s)
	decoded, err := flatseg.Decode(encode(t, s))
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan []string)
	for range 8 {
		go func() {
			var out []string
			for _, name := range decoded.Fields() {
				d, _ := decoded.Dictionary(name)
				it := d.AutomatonIterator(nil, nil, nil)
				for e, _ := it.Next(); e != nil; e, _ = it.Next() {
					docs, freqs, _ := decoded.Postings(name, e.Term)
					out = append(out, fmt.Sprint(name, e.Term, docs, freqs))
				}
			}
			results <- out
		}()
	}
	first := <-results
	for range 7 {
		if got := <-results; !slices.Equal(got, first) {
			t.Fatal("two goroutines read different postings")
		}
	}
	if got := dump(t, decoded); !slices.Equal(got, want) {
		t.Error("the decoded segment differs from the original after concurrent reads")
	}
}

type failingWriter struct{}

var errWrite = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriteTo_ReturnsTheWritersError(t *testing.T) {
	if _, err := build(t, library, noIDs).WriteTo(failingWriter{}); !errors.Is(err, errWrite) {
		t.Errorf("WriteTo = %v, want %v", err, errWrite)
	}
}

func decodeFails(t *testing.T, what string, data []byte) {
	t.Helper()
	if s, err := flatseg.Decode(data); err == nil || s != nil {
		t.Errorf("Decode(%s) = %v, %v; want an error", what, s, err)
	}
}

func TestDecode_RejectsOtherHeaders(t *testing.T) {
	valid := encode(t, build(t, library, noIDs))
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"another version", append([]byte("tinyrag-flatseg\x02"), valid[len(savedMagic):]...)},
		{"no header", valid[len(savedMagic):]},
		{"header cut short", []byte(savedMagic[:5])},
		{"another format", []byte("PK\x03\x04 not a segment at all")},
	} {
		decodeFails(t, tc.name, tc.data)
	}
}

func TestDecode_RejectsEveryTruncation(t *testing.T) {
	for _, tc := range roundTrips[:4] {
		valid := encode(t, tc.build(t))
		for n := range len(valid) {
			decodeFails(t, fmt.Sprintf("%s cut to %d of %d bytes", tc.name, n, len(valid)), valid[:n])
		}
	}
}

func TestDecode_RejectsEveryFlippedByte(t *testing.T) {
	for _, tc := range roundTrips[:4] {
		valid := encode(t, tc.build(t))
		for i := range valid {
			for _, mask := range []byte{0x01, 0x80, 0xff} {
				data := slices.Clone(valid)
				data[i] ^= mask
				decodeFails(t, fmt.Sprintf("%s with byte %d ^ %#x", tc.name, i, mask), data)
			}
		}
	}
}

// The saved form written by hand, to make bodies that are well
// checksummed but inconsistent.
const savedMagic = "tinyrag-flatseg\x01"

type body []byte

func (b body) uv(vs ...uint64) body {
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

func (b body) str(s string) body { return append(b.uv(uint64(len(s))), s...) }

func (b body) then(more ...body) body {
	for _, m := range more {
		b = append(b, m...)
	}
	return b
}

// seal adds the header and the checksum, as WriteTo does.
func seal(b body) []byte {
	out := append([]byte(savedMagic), b...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// twoDocs starts a body: documents "a" and "b", one field "f" of length 1
// in both, and numTerms terms to follow.
func twoDocs(numTerms uint64) body {
	return body{}.uv(2).str("a").str("b").uv(1).str("f").uv(1, 1).uv(numTerms)
}

// term is one term: bytes shared with the previous term, the rest, and
// its postings as a count and then gap, frequency pairs.
func term(shared uint64, suffix string, postings ...uint64) body {
	return body{}.uv(shared).str(suffix).uv(postings...)
}

func TestDecode_AcceptsAHandWrittenBody(t *testing.T) {
	// The control for the inconsistent bodies below: the same writing,
	// consistent, decodes to what it says.
	s, err := flatseg.Decode(seal(twoDocs(3).then(term(0, "x", 1, 1, 5), term(0, "y", 2, 1, 1, 1, 2), term(1, "z", 1, 2, 7))))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	for _, tc := range []struct {
		term        string
		docs, freqs []uint32
	}{
		{"x", []uint32{0}, []uint32{5}},
		{"y", []uint32{0, 1}, []uint32{1, 2}},
		{"yz", []uint32{1}, []uint32{7}},
	} {
		docs, freqs, lens := s.Postings("f", tc.term)
		if !slices.Equal(docs, tc.docs) || !slices.Equal(freqs, tc.freqs) || !slices.Equal(lens, []uint32{1, 1}) {
			t.Errorf("f:%s = %v %v %v, want %v %v [1 1]", tc.term, docs, freqs, lens, tc.docs, tc.freqs)
		}
	}
	if got := s.Fields(); !slices.Equal(got, []string{"_id", "f"}) {
		t.Errorf("Fields() = %q", got)
	}
	if id, _ := s.DocID(1); string(id) != "b" {
		t.Errorf("DocID(1) = %q, want b", id)
	}
}

func TestDecode_RejectsInconsistentBodies(t *testing.T) {
	const maxU64 = math.MaxUint64
	for _, tc := range []struct {
		name string
		body body
	}{
		{"empty body", body{}},
		{"more documents than data", body{}.uv(1000).str("a")},
		{"an id longer than the data", body{}.uv(1).uv(50).str("a")},
		{"ids out of order", body{}.uv(2).str("b").str("a").uv(0)},
		{"an id twice", body{}.uv(2).str("a").str("a").uv(0)},
		{"more fields than data", body{}.uv(1).str("a").uv(1000)},
		{"more terms than data", twoDocs(1000).then(term(0, "x", 1, 1, 1))},
		{"fewer terms than counted", twoDocs(2).then(term(0, "x", 1, 1, 1))},
		{"terms out of order", twoDocs(2).then(term(0, "y", 1, 1, 1), term(0, "x", 1, 1, 1))},
		{"a term twice", twoDocs(2).then(term(0, "x", 1, 1, 1), term(1, "", 1, 1, 1))},
		{"the first term sharing bytes", twoDocs(1).then(term(1, "x", 1, 1, 1))},
		{"sharing more than the previous term has", twoDocs(2).then(term(0, "x", 1, 1, 1), term(2, "y", 1, 1, 1))},
		{"sharing a count that wraps negative", twoDocs(2).then(term(0, "x", 1, 1, 1), term(maxU64, "y", 1, 1, 1))},
		{"sharing a count of 2⁶³", twoDocs(2).then(term(0, "x", 1, 1, 1), term(1<<63, "y", 1, 1, 1))},
		{"a document number out of range", twoDocs(1).then(term(0, "x", 1, 3, 1))},
		{"a document twice", twoDocs(1).then(term(0, "x", 2, 1, 1, 0, 1))},
		{"a gap of 2⁶³", twoDocs(1).then(term(0, "x", 2, 1, 1, 1<<63, 1))},
		{"a gap that wraps negative", twoDocs(1).then(term(0, "x", 2, 2, 1, maxU64, 1))},
		{"more postings than data", twoDocs(1).then(term(0, "x", 1000, 1, 1))},
		{"a frequency beyond uint32", twoDocs(1).then(term(0, "x", 1, 1, 1<<32))},
		{"a field length beyond uint32", body{}.uv(1).str("a").uv(1).str("f").uv(1 << 32).uv(0)},
		{"an overlong number", body{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
		{"bytes after the last field", twoDocs(1).then(term(0, "x", 1, 1, 1)).uv(0)},
		{"a field saved twice", body{}.uv(1).str("a").uv(2).str("f").uv(1).uv(0).str("f").uv(1).uv(0)},
		{"an id field among the fields", body{}.uv(1).str("a").uv(1).str("_id").uv(1).uv(0)},
	} {
		t.Run(tc.name, func(t *testing.T) { decodeFails(t, tc.name, seal(tc.body)) })
	}
}

func TestBuild_TwiceIsAnError(t *testing.T) {
	b := flatseg.NewBuilder()
	b.AddDocument("d")
	b.AddField("body", 1, []flatseg.Term{{Key: "x", ID: -1, Freq: 1}})
	mustBuild(t, b)
	if s, err := b.Build(); err == nil || s != nil {
		t.Errorf("second Build = %v, %v; want an error", s, err)
	}
}

func TestSegment_Lengths_AreEachDocumentsFieldLengthBuiltOrDecoded(t *testing.T) {
	b := flatseg.NewBuilder()
	b.AddDocument("a")
	b.AddField("body", 7, []flatseg.Term{{Key: "x", ID: -1, Freq: 7}})
	b.AddField("title", 2, []flatseg.Term{{Key: "y", ID: -1, Freq: 2}})
	b.AddDocument("b")
	b.AddField("body", 3, []flatseg.Term{{Key: "x", ID: -1, Freq: 1}, {Key: "z", ID: -1, Freq: 2}})
	built, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := built.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	decoded, err := flatseg.Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*flatseg.Segment{"built": built, "decoded": decoded} {
		for _, tt := range []struct {
			field string
			want  []uint32
		}{
			{"body", []uint32{7, 3}},
			{"title", []uint32{2, 0}},
			{"missing", nil},
		} {
			if got := s.Lengths(tt.field); !slices.Equal(got, tt.want) {
				t.Errorf("%s: Lengths(%q) = %v, want %v", name, tt.field, got, tt.want)
			}
		}
	}
}
