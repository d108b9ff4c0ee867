package flatseg_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"tinyrag/app/knowledge/flatseg"
)

// The contract with scorch: an in-memory scorch index whose every batch
// becomes a flat segment must answer as it does with zap, its own format.

const (
	testSegmentType    = "flatseg-test"
	testSegmentVersion = 1
)

// testPlugin builds flat segments from analysed bleve documents, reading
// every field through bleve's Field interface (no ids: bleve's own fields
// are no TermListers).
type testPlugin struct{}

func init() { scorch.RegisterSegmentPlugin(testPlugin{}, false) }

var errInMemory = errors.New("flatseg-test: segments live in memory only")

func (testPlugin) Type() string    { return testSegmentType }
func (testPlugin) Version() uint32 { return testSegmentVersion }

func (p testPlugin) New(docs []index.Document) (segment.Segment, uint64, error) {
	return p.NewUsing(docs, nil)
}

func (testPlugin) NewUsing(docs []index.Document, _ map[string]interface{}) (segment.Segment, uint64, error) {
	b := flatseg.NewBuilder()
	for _, d := range docs {
		b.AddIndexDocument(d)
	}
	s, err := b.Build()
	if err != nil {
		return nil, 0, err
	}
	return s, uint64(s.Size()), nil
}

func (testPlugin) Open(string) (segment.Segment, error) { return nil, errInMemory }
func (testPlugin) OpenUsing(string, map[string]interface{}) (segment.Segment, error) {
	return nil, errInMemory
}
func (testPlugin) Merge([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter) ([][]uint64, uint64, error) {
	return nil, 0, errInMemory
}
func (testPlugin) MergeUsing([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter, map[string]interface{}) ([][]uint64, uint64, error) {
	return nil, 0, errInMemory
}

// analyzer splits at non-letters and lower-cases, without stop words, so
// that expected frequencies and lengths can be counted by eye.
var analyzer = &analysis.DefaultAnalyzer{
	Tokenizer:    unicode.NewUnicodeTokenizer(),
	TokenFilters: []analysis.TokenFilter{lowercase.NewLowerCaseFilter()},
}

// An op is one entry of a batch: a document to index, or an id to delete.
type op struct {
	id, title, body string
	del             bool
}

func put(id, title, body string) op { return op{id: id, title: title, body: body} }
func del(id string) op              { return op{id: id, del: true} }

// openScorch opens an in-memory scorch index forced to one segment type,
// as tinyRAG's openIndex does.
func openScorch(t testing.TB, segType string, version int) index.Index {
	t.Helper()
	queue := index.NewAnalysisQueue(1)
	idx, err := scorch.NewScorch(scorch.Name, map[string]interface{}{
		"path":                "",
		"forceSegmentType":    segType,
		"forceSegmentVersion": version,
	}, queue)
	if err == nil {
		err = idx.Open()
	}
	if err != nil {
		t.Fatalf("open scorch with %s v%d: %v", segType, version, err)
	}
	t.Cleanup(func() {
		idx.Close()
		queue.Close()
	})
	return idx
}

func apply(t testing.TB, idx index.Index, batches ...[]op) {
	t.Helper()
	for _, ops := range batches {
		b := index.NewBatch()
		for _, o := range ops {
			if o.del {
				b.Delete(o.id)
				continue
			}
			d := document.NewDocument(o.id)
			if o.title != "" {
				d.AddField(document.NewTextFieldCustom("title", nil, []byte(o.title), index.IndexField, analyzer))
			}
			d.AddField(document.NewTextFieldCustom("body", nil, []byte(o.body), index.IndexField, analyzer))
			b.Update(d)
		}
		if err := idx.Batch(b); err != nil {
			t.Fatalf("Batch: %v", err)
		}
	}
}

func readerOf(t testing.TB, idx index.Index) index.IndexReader {
	t.Helper()
	r, err := idx.Reader()
	if err != nil {
		t.Fatalf("Reader: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// indexed opens a flat-segment index and applies the batches.
func indexed(t testing.TB, batches ...[]op) index.IndexReader {
	t.Helper()
	idx := openScorch(t, testSegmentType, testSegmentVersion)
	apply(t, idx, batches...)
	return readerOf(t, idx)
}

// twoBatches makes two segments. Body lengths: a 4, b 7, c 5, d 3.
var twoBatches = [][]op{
	{put("a", "Foxes", "The quick brown fox"), put("b", "", "the lazy dog sleeps the whole day")},
	{put("c", "", "Quick quick fox jumps high"), put("d", "Days", "a quiet day")},
}

// A tfHit is what a TermFieldReader says of one document.
type tfHit struct {
	ID   string
	Freq uint64
	Norm float64
}

func norm(length int) float64 { return float64(float32(1 / math.Sqrt(float64(length)))) }

// termHits reads a term's documents through scorch, by external id.
func termHits(t testing.TB, r index.IndexReader, field, term string) []tfHit {
	t.Helper()
	tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, true, true, false)
	if err != nil {
		t.Fatalf("TermFieldReader(%s:%s): %v", field, term, err)
	}
	defer tfr.Close()
	out := []tfHit{}
	for {
		d, err := tfr.Next(nil)
		if err != nil {
			t.Fatalf("TermFieldReader(%s:%s).Next: %v", field, term, err)
		}
		if d == nil {
			break
		}
		id, err := r.ExternalID(d.ID)
		if err != nil {
			t.Fatalf("ExternalID: %v", err)
		}
		out = append(out, tfHit{id, d.Freq, d.Norm})
	}
	if tfr.Count() != uint64(len(out)) {
		t.Errorf("TermFieldReader(%s:%s).Count() = %d, but it reads %d documents", field, term, tfr.Count(), len(out))
	}
	slices.SortFunc(out, func(x, y tfHit) int { return strings.Compare(x.ID, y.ID) })
	return out
}

func dictEntries(t testing.TB, what string, fd index.FieldDict, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer fd.Close()
	out := []string{}
	for {
		e, err := fd.Next()
		if err != nil {
			t.Fatalf("%s: Next: %v", what, err)
		}
		if e == nil {
			return out
		}
		out = append(out, fmt.Sprintf("%s:%d", e.Term, e.Count))
	}
}

// termsOf drops the counts from dictEntries' "term:count" entries.
func termsOf(entries []string) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e[:strings.LastIndexByte(e, ':')]
	}
	return out
}

func liveIDs(t testing.TB, r index.IndexReader) []string {
	t.Helper()
	it, err := r.DocIDReaderAll()
	if err != nil {
		t.Fatalf("DocIDReaderAll: %v", err)
	}
	defer it.Close()
	out := []string{}
	for {
		iid, err := it.Next()
		if err != nil {
			t.Fatalf("DocIDReaderAll.Next: %v", err)
		}
		if iid == nil {
			break
		}
		id, err := r.ExternalID(iid)
		if err != nil {
			t.Fatalf("ExternalID: %v", err)
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func docCount(t testing.TB, r index.IndexReader) uint64 {
	t.Helper()
	n, err := r.DocCount()
	if err != nil {
		t.Fatalf("DocCount: %v", err)
	}
	return n
}

func TestScorch_KeepsEachBatchAsAFlatSegment(t *testing.T) {
	r := indexed(t, twoBatches...)
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		t.Fatalf("reader is %T", r)
	}
	if n := len(snap.Segments()); n != 2 {
		t.Fatalf("%d segments, want one per batch: 2", n)
	}
	for i, ss := range snap.Segments() {
		s, ok := ss.Segment().(*flatseg.Segment)
		if !ok {
			t.Fatalf("segment %d is %T, not *flatseg.Segment", i, ss.Segment())
		}
		// Scorch reads stored fields through VisitDocument: the _id.
		for n := range s.Count() {
			var ids []string
			if err := ss.VisitDocument(n, func(field string, _ byte, value []byte, _ []uint64) bool {
				if field == flatseg.IDField {
					ids = append(ids, string(value))
				}
				return true
			}); err != nil {
				t.Fatalf("VisitDocument: %v", err)
			}
			want, _ := s.DocID(n)
			if !slices.Equal(ids, []string{string(want)}) {
				t.Errorf("segment %d doc %d stores _id %q, want %q", i, n, ids, want)
			}
		}
	}
	if n := docCount(t, r); n != 4 {
		t.Errorf("DocCount() = %d, want 4", n)
	}
}

func TestScorch_TermFieldReader_FindsDocumentsWithFrequencyAndNorm(t *testing.T) {
	r := indexed(t, twoBatches...)
	for _, tc := range []struct {
		field, term string
		want        []tfHit
	}{
		{"body", "fox", []tfHit{{"a", 1, norm(4)}, {"c", 1, norm(5)}}},
		{"body", "quick", []tfHit{{"a", 1, norm(4)}, {"c", 2, norm(5)}}},
		{"body", "the", []tfHit{{"a", 1, norm(4)}, {"b", 2, norm(7)}}},
		{"body", "day", []tfHit{{"b", 1, norm(7)}, {"d", 1, norm(3)}}},
		{"title", "foxes", []tfHit{{"a", 1, norm(1)}}},
		{"title", "days", []tfHit{{"d", 1, norm(1)}}},
		{"body", "foxes", nil},
		{"body", "Quick", nil}, // terms are as analysed
		{"absent", "fox", nil},
		{"_id", "c", []tfHit{{"c", 1, norm(1)}}},
	} {
		if got := termHits(t, r, tc.field, tc.term); !slices.Equal(got, tc.want) {
			t.Errorf("%s:%s = %v, want %v", tc.field, tc.term, got, tc.want)
		}
	}
}

func TestScorch_Document_FindsIndexedIDs(t *testing.T) {
	r := indexed(t, twoBatches...)
	for _, id := range []string{"a", "b", "c", "d"} {
		d, err := r.Document(id)
		if err != nil || d == nil || d.ID() != id {
			t.Errorf("Document(%q) = %v, %v", id, d, err)
		}
		iid, err := r.InternalID(id)
		if err != nil || iid == nil {
			t.Fatalf("InternalID(%q) = %v, %v", id, iid, err)
		}
		if ext, err := r.ExternalID(iid); err != nil || ext != id {
			t.Errorf("ExternalID(InternalID(%q)) = %q, %v", id, ext, err)
		}
	}
	if d, err := r.Document("e"); err != nil || d != nil {
		t.Errorf("Document(e) = %v, %v; want nil, nil", d, err)
	}
}

func TestScorch_FieldDict_MergesTheSegmentsTerms(t *testing.T) {
	r := indexed(t, twoBatches...)
	fd, err := r.FieldDict("body")
	if err == nil && fd.Cardinality() != 9+7 {
		// Scorch sums the segments' cardinalities: 9 terms in the first, 7
		// in the second.
		t.Errorf("Cardinality() = %d, want 16", fd.Cardinality())
	}
	want := []string{"a:1", "brown:1", "day:2", "dog:1", "fox:2", "high:1", "jumps:1", "lazy:1",
		"quick:2", "quiet:1", "sleeps:1", "the:2", "whole:1"}
	if got := dictEntries(t, "FieldDict(body)", fd, err); !slices.Equal(got, want) {
		t.Errorf("FieldDict(body) = %q, want %q", got, want)
	}
	fd, err = r.FieldDict("absent")
	if got := dictEntries(t, "FieldDict(absent)", fd, err); len(got) != 0 {
		t.Errorf("FieldDict(absent) = %q, want none", got)
	}
}

func TestScorch_FieldDictRangeAndPrefix_BoundTheTerms(t *testing.T) {
	r := indexed(t, twoBatches...)
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"qu", []string{"quick:2", "quiet:1"}},
		{"d", []string{"day:2", "dog:1"}},
		{"quick", []string{"quick:2"}},
		{"z", nil},
	} {
		fd, err := r.FieldDictPrefix("body", []byte(tc.prefix))
		if got := dictEntries(t, "FieldDictPrefix", fd, err); !slices.Equal(got, tc.want) {
			t.Errorf("FieldDictPrefix(body, %q) = %q, want %q", tc.prefix, got, tc.want)
		}
	}
	fd, err := r.FieldDictRange("body", []byte("fox"), []byte("jumps"))
	if got, want := dictEntries(t, "FieldDictRange", fd, err), []string{"fox:2", "high:1", "jumps:1"}; !slices.Equal(got, want) {
		t.Errorf("FieldDictRange(body, fox, jumps) = %q, want %q", got, want)
	}
}

func TestScorch_FieldDictRegexpAndFuzzy_RunTheirAutomataOverTheTerms(t *testing.T) {
	r := indexed(t, twoBatches...)
	for _, tc := range []struct {
		name string
		dict func() (index.FieldDict, error)
		want []string
	}{
		{"regexp with a literal prefix", func() (index.FieldDict, error) {
			return r.(index.IndexReaderRegexp).FieldDictRegexp("body", "qu.*")
		}, []string{"quick", "quiet"}},
		{"regexp without one", func() (index.FieldDict, error) {
			return r.(index.IndexReaderRegexp).FieldDictRegexp("body", ".*i.*")
		}, []string{"high", "quick", "quiet"}},
		{"fuzzy", func() (index.FieldDict, error) {
			return r.(index.IndexReaderFuzzy).FieldDictFuzzy("body", "dag", 1, "")
		}, []string{"day", "dog"}},
		{"fuzzy with a prefix", func() (index.FieldDict, error) {
			return r.(index.IndexReaderFuzzy).FieldDictFuzzy("body", "quack", 1, "q")
		}, []string{"quick"}},
	} {
		fd, err := tc.dict()
		if got := termsOf(dictEntries(t, tc.name, fd, err)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: terms %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestScorch_DocIDReaderAll_ListsEveryDocumentOnce(t *testing.T) {
	r := indexed(t, twoBatches...)
	if got, want := liveIDs(t, r), []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("DocIDReaderAll = %q, want %q", got, want)
	}
}

func TestScorch_UpdateInALaterBatch_HidesTheOlderDocument(t *testing.T) {
	r := indexed(t, twoBatches[0], twoBatches[1], []op{put("a", "", "A slow turtle")})
	if n := docCount(t, r); n != 4 {
		t.Errorf("DocCount() = %d, want 4", n)
	}
	for _, tc := range []struct {
		field, term string
		want        []tfHit
	}{
		{"body", "fox", []tfHit{{"c", 1, norm(5)}}},
		{"body", "quick", []tfHit{{"c", 2, norm(5)}}},
		{"body", "turtle", []tfHit{{"a", 1, norm(3)}}},
		{"body", "a", []tfHit{{"a", 1, norm(3)}, {"d", 1, norm(3)}}},
		{"title", "foxes", nil},
		{"_id", "a", []tfHit{{"a", 1, norm(1)}}},
	} {
		if got := termHits(t, r, tc.field, tc.term); !slices.Equal(got, tc.want) {
			t.Errorf("%s:%s = %v, want %v", tc.field, tc.term, got, tc.want)
		}
	}
	if got, want := liveIDs(t, r), []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("DocIDReaderAll = %q, want %q", got, want)
	}
}

func TestScorch_Delete_RemovesTheDocument(t *testing.T) {
	r := indexed(t, twoBatches[0], twoBatches[1], []op{del("b"), del("never-indexed")})
	if n := docCount(t, r); n != 3 {
		t.Errorf("DocCount() = %d, want 3", n)
	}
	if got := termHits(t, r, "body", "dog"); len(got) != 0 {
		t.Errorf("body:dog = %v, want none", got)
	}
	if got, want := termHits(t, r, "body", "the"), []tfHit{{"a", 1, norm(4)}}; !slices.Equal(got, want) {
		t.Errorf("body:the = %v, want %v", got, want)
	}
	if d, err := r.Document("b"); err != nil || d != nil {
		t.Errorf("Document(b) = %v, %v; want nil, nil", d, err)
	}
	if got, want := liveIDs(t, r), []string{"a", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("DocIDReaderAll = %q, want %q", got, want)
	}
}

// randomBatches makes batches of puts and deletes over a small id pool, so
// that documents are replaced and deleted across segments.
func randomBatches(seed uint64) [][]op {
	r := rand.New(rand.NewPCG(seed, 1))
	vocab := strings.Fields("Fox fox foxes quick quiet quack the The a an day dog dag café cafe Über über 日本語 naïve x y z")
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	var batches [][]op
	for range 6 {
		var ops []op
		seen := map[string]bool{}
		for range 1 + r.IntN(12) {
			id := fmt.Sprintf("doc-%02d", r.IntN(25))
			if seen[id] {
				continue // one op per id and batch, as a batch keeps only the last
			}
			seen[id] = true
			switch n := r.IntN(10); {
			case n == 0:
				ops = append(ops, del(id))
			case n < 4:
				ops = append(ops, put(id, "", words(1+r.IntN(20))))
			default:
				ops = append(ops, put(id, words(1+r.IntN(3)), words(1+r.IntN(20))))
			}
		}
		batches = append(batches, ops)
	}
	return batches
}

// answers lists what a reader answers to the questions a search asks,
// one answer a line, so that two indexes can be compared.
func answers(t testing.TB, r index.IndexReader) []string {
	t.Helper()
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("doc count %d", docCount(t, r))
	fields, err := r.Fields()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(fields)
	add("fields %q", fields)
	add("live %q", liveIDs(t, r))
	for n := range 25 {
		id := fmt.Sprintf("doc-%02d", n)
		d, err := r.Document(id)
		add("document %s found %v %v", id, d != nil, err)
	}
	for _, field := range []string{"_id", "body", "title"} {
		fd, err := r.FieldDict(field)
		if err != nil {
			t.Fatal(err)
		}
		card := fd.Cardinality()
		entries := dictEntries(t, "FieldDict", fd, nil)
		add("field %s cardinality %d terms %q", field, card, entries)
		for _, e := range entries {
			term := e[:strings.LastIndexByte(e, ':')]
			add("  %s:%s %v", field, term, termHits(t, r, field, term))
		}
		for _, p := range []string{"", "f", "qu", "d", "日", "zz"} {
			fd, err := r.FieldDictPrefix(field, []byte(p))
			add("  prefix %q %q", p, dictEntries(t, "FieldDictPrefix", fd, err))
		}
		// Candidate terms only: zap leaves their counts out, as scorch
		// discards them.
		fd, err = r.(index.IndexReaderFuzzy).FieldDictFuzzy(field, "quick", 2, "")
		add("  fuzzy %q", termsOf(dictEntries(t, "FieldDictFuzzy", fd, err)))
		fd, err = r.(index.IndexReaderRegexp).FieldDictRegexp(field, "(ca|da|ü).*")
		add("  regexp %q", termsOf(dictEntries(t, "FieldDictRegexp", fd, err)))
	}
	return out
}

func TestScorch_AnswersAsItDoesWithZap(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			batches := randomBatches(seed)
			zap := openScorch(t, "zap", 17)
			apply(t, zap, batches...)
			want := answers(t, readerOf(t, zap))
			got := answers(t, indexed(t, batches...))
			for i := range max(len(got), len(want)) {
				g, w := "(end)", "(end)"
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Fatalf("answer %d differs:\nflatseg: %s\n    zap: %s", i, g, w)
				}
			}
		})
	}
}

// lister is a bleve text field that also hands over its terms, as the
// knowledge base's field type does.
type lister struct {
	*document.TextField
	length int
	terms  []flatseg.Term
}

func (l lister) Terms() (int, []flatseg.Term) { return l.length, l.terms }

func TestBuilder_AddIndexDocument_ReadsTermListersAndPlainFieldsAlike(t *testing.T) {
	doc := document.NewDocument("d1")
	doc.AddField(lister{
		TextField: document.NewTextFieldCustom("title", nil, []byte("ignored"), index.IndexField, analyzer),
		length:    3, terms: []flatseg.Term{{Key: "otter", ID: 4, Freq: 2}, {Key: "stone", ID: 9, Freq: 1}},
	})
	doc.AddField(document.NewTextFieldCustom("body", nil, []byte("Otters keep a stone"), index.IndexField, analyzer))
	doc.AddField(document.NewTextFieldCustom("stored", nil, []byte("not indexed"), index.StoreField, analyzer))
	doc.AddIDField()
	doc.VisitFields(func(f index.Field) { f.Analyze() })

	b := flatseg.NewBuilder()
	b.AddIndexDocument(doc)
	got, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if fields := got.Fields(); !slices.Equal(fields, []string{"_id", "body", "title"}) {
		t.Errorf("fields %q, want _id, body and title (the stored-only field is not indexed)", fields)
	}
	for _, tc := range []struct {
		field, term string
		freq, len   uint32
	}{{"title", "otter", 2, 3}, {"title", "stone", 1, 3}, {"body", "otters", 1, 4}, {"body", "stone", 1, 4}} {
		docs, freqs, lens := got.Postings(tc.field, tc.term)
		if !slices.Equal(docs, []uint32{0}) || !slices.Equal(freqs, []uint32{tc.freq}) || lens[0] != tc.len {
			t.Errorf("%s:%s = %v %v %v, want [0] [%d] length %d", tc.field, tc.term, docs, freqs, lens, tc.freq, tc.len)
		}
	}
}
