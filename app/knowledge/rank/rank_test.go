package rank

import (
	"context"
	"fmt"
	"testing"

	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/flatseg"
)

var ctx = context.Background()

// testDoc is one document of a test index: one chunk, its body the title
// and the text.
type testDoc struct{ id, title, text string }

// testIndex is a one-segment index of one-chunk documents, enough to
// exercise the ranker without the knowledge base around it.
type testIndex struct {
	seg  *flatseg.Segment
	body map[string]string // document id → indexed body
}

func newTestIndex(t *testing.T, docs []testDoc) (*testIndex, *Ranker) {
	t.Helper()
	an, err := analyze.New("en")
	if err != nil {
		t.Fatal(err)
	}
	b := flatseg.NewBuilder()
	ix := &testIndex{body: map[string]string{}}
	for _, d := range docs {
		body := d.title + "\n" + d.text
		ix.body[d.id] = body
		b.AddDocument(d.id + "#0")
		n, terms := analyze.Frequencies(an, []byte(d.title))
		b.AddField(FieldTitle, n, terms)
		n, terms = analyze.Frequencies(an, []byte(body))
		b.AddField(FieldBody, n, terms)
	}
	if ix.seg, err = b.Build(); err != nil {
		t.Fatal(err)
	}
	return ix, New(Config{Analyzer: an})
}

func (ix *testIndex) View() (*View, error) {
	return &View{Segments: []ViewSegment{{Segment: ix.seg}}, Chunks: ix.seg.Count(), Release: func() {}}, nil
}

func (ix *testIndex) ChunkText(_ context.Context, d Doc, n int) (string, error) {
	return ix.body[d.ID], nil
}

func (ix *testIndex) Common(term string) (bool, error) {
	return CommonTerm(ix.seg.DocFreq(FieldBody, term), int(ix.seg.Count())), nil
}

// fillers are documents about nothing in particular, so that the words of
// the documents under test are rare enough to be feedback terms (in at
// most a tenth of all chunks).
func fillers(n int) []testDoc {
	var out []testDoc
	for i := 0; i < n; i++ {
		out = append(out, testDoc{fmt.Sprintf("note%d", i), fmt.Sprintf("Note %d", i),
			fmt.Sprintf("Filler note number %d about office routine, meetings and schedules.", i)})
	}
	return out
}

var polar = []testDoc{
	{"emperor", "Emperor penguins", "Emperor penguins breed on the Antarctic sea ice during the polar winter."},
	{"adelie", "Adelie penguins", "Adelie penguins nest on rocky Antarctic coasts and hunt krill under the sea ice."},
	{"shelves", "Ice shelves", "Antarctic ice shelves float on the sea; krill swarm beneath the ice."},
}

func TestExpand_InterpolatesQueryAndModelWithOriginalWeight(t *testing.T) {
	ix, r := newTestIndex(t, append(fillers(40), polar...))
	terms := r.queryTokens("penguins")
	first, err := r.rankTerms(ctx, ix, terms, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := r.expand(ctx, ix, terms, first)
	if err != nil || !ok {
		t.Fatalf("expand: %v, %v; want an expanded query", ok, err)
	}
	sum, orig := 0.0, 0.0
	for _, qt := range got {
		sum += qt.weight
		if qt.term == terms[0].term {
			orig = qt.weight
		}
	}
	if len(got) < 2 || len(got) > 1+r.cfg.Feedback.Terms {
		t.Fatalf("expanded query %v: want the query term and 1..%d others", got, r.cfg.Feedback.Terms)
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("weights sum to %v, want 1", sum)
	}
	// The query term has its original half and whatever share the model
	// gives it.
	if orig < 0.5 {
		t.Errorf("original term weight %v, want at least OriginalWeight 0.5", orig)
	}
	for _, qt := range got {
		if qt.term == "note" || qt.term == "filler" {
			t.Errorf("expansion term %q is in most documents; feedback must skip such terms", qt.term)
		}
	}
}

// A site bundle prepares its ranker while no query waits (Prepare): the
// rankings after it are those a ranker learning on its first query gives,
// to the score.
func TestPrepare_RanksAsAFirstQueryLearningOnItsOwn(t *testing.T) {
	docs := append(fillers(40), polar...)
	for _, q := range []string{"penguins", "antarctic sea ice krill", "note meetings", "emperor"} {
		t.Run(q, func(t *testing.T) {
			ix, fresh := newTestIndex(t, docs)
			want, err := fresh.Rank(ctx, ix, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			_, prepared := newTestIndex(t, docs)
			if err := prepared.Prepare(ix); err != nil {
				t.Fatal(err)
			}
			got, err := prepared.Rank(ctx, ix, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("prepared ranker gives %v, a fresh one %v", got, want)
			}
		})
	}
}
