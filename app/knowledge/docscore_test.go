package knowledge

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"tinyrag/app/knowledge/rank"
)

// filler is n sentences that match no query of these tests.
func filler(n int) string {
	return strings.Repeat("The crew logged the weather and checked the ropes. ", n)
}

func TestScoring_MatchesSpreadOverChunksCountWithTheWholeDocument(t *testing.T) {
	// "walrus" and "lichen" stand in different chunks of the expedition
	// log; the diary has "walrus" alone, in a chunk shorter than any of
	// the log's, so its best chunk beats either of the log's. The other
	// notes are about as long as the log, as a collection's documents
	// tend to be, so the log's length is not held against it.
	notes := fillers(20)
	for i := range notes {
		notes[i].Text += " " + filler(6)
	}
	docs := append(notes,
		Input{Title: "Log", Source: "log", Text: "A walrus rested on the floe. " + filler(3) + "\n\n" + "Lichen grew on the cliffs. " + filler(3)},
		Input{Title: "Diary", Source: "diary", Text: "A walrus rested on the floe. " + filler(1)},
	)
	tests := []struct {
		name    string
		scoring rank.Scoring
		want    []string
	}{
		{"whole document on (the default)", rank.Scoring{}, []string{"log", "diary"}},
		{"best chunk only", rank.Scoring{ChunkOnly: true}, []string{"diary", "log"}},
		{"whole document on, bleve's formula", rank.Scoring{Formula: rank.FormulaBleve}, []string{"log", "diary"}},
		{"best chunk only, bleve's formula", rank.Scoring{ChunkOnly: true, Formula: rank.FormulaBleve}, []string{"diary", "log"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{ChunkSize: 200, ChunkOverlap: -1, Scoring: tt.scoring, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			if n := len(kb.docs.chunks[kb.docs.bySource["log"]]); n < 2 {
				t.Fatalf("the log is %d chunk(s); the test needs its words in different chunks", n)
			}
			if got := sources(find(t, kb, "walrus lichen")); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("walrus lichen: %v, want %v", got, tt.want)
			}
		})
	}
}

func TestScoring_WholeDocumentScoreDoesNotDependOnTheChunking(t *testing.T) {
	// Without overlap, a document's words are the same however it is cut:
	// its whole-document score (the default score less the best chunk's)
	// must be too, although every chunk's body repeats the title.
	doc := Input{Title: "Narwhal tusks", Source: "tusks",
		Text: "A narwhal tusk is a tooth. " + filler(3) + "\n\n" + "Tusks sense the water. " + filler(3) + "\n\n" + "Narwhal pods travel far. " + filler(3)}
	wholeScore := func(chunkSize int) (float64, int) {
		var score [2]float64
		var chunks int
		for i, s := range []rank.Scoring{{}, {ChunkOnly: true}} {
			kb := newKB(t, Config{ChunkSize: chunkSize, ChunkOverlap: -1, Scoring: s, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, append(fillers(20), doc)...)
			hits := find(t, kb, "narwhal tusk water")
			if len(hits) == 0 || hits[0].Source != "tusks" {
				t.Fatalf("chunk size %d: %v, want tusks first", chunkSize, sources(hits))
			}
			score[i] = hits[0].Score
			chunks = len(kb.docs.chunks[hits[0].DocID])
		}
		return score[0] - score[1], chunks
	}
	one, n1 := wholeScore(4000)
	three, n3 := wholeScore(200)
	if n1 != 1 || n3 < 3 {
		t.Fatalf("the document is %d and %d chunks; the test needs 1 and at least 3", n1, n3)
	}
	if math.Abs(one-three) > 1e-9*one || one <= 0 {
		t.Errorf("whole-document score: %v in one chunk, %v in %d", one, three, n3)
	}
}

func TestScoring_IDFCountsDocumentsNotChunks(t *testing.T) {
	// "gamma" is in two documents, one of them long with the word in each
	// of its chunks; "delta" is in three short ones. Counted by document,
	// gamma is the rarer word, so the gamma note beats the delta note (the
	// two are alike but for the word); counted by chunk, gamma looks the
	// commoner.
	docs := append(fillers(20),
		Input{Title: "Saga", Source: "saga", Text: strings.Repeat("Gamma rays again. "+filler(3)+"\n\n", 6)},
		Input{Title: "Note", Source: "gamma", Text: "Gamma rays."},
		Input{Title: "Note", Source: "delta", Text: "Delta rays."},
		Input{Title: "Memo", Source: "delta2", Text: "Delta wing. " + filler(2)},
		Input{Title: "Memo", Source: "delta3", Text: "Delta river. " + filler(2)},
	)
	tests := []struct {
		name    string
		scoring rank.Scoring
		want    string
	}{
		{"documents (the default)", rank.Scoring{}, "gamma"},
		{"chunks", rank.Scoring{ChunkIDF: true}, "delta"},
		{"documents, best chunk only", rank.Scoring{ChunkOnly: true}, "gamma"},
		{"chunks, best chunk only", rank.Scoring{ChunkOnly: true, ChunkIDF: true}, "delta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{ChunkSize: 200, ChunkOverlap: -1, Scoring: tt.scoring, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			if n := len(kb.docs.chunks[kb.docs.bySource["saga"]]); n < 4 {
				t.Fatalf("the saga is %d chunk(s), want at least 4", n)
			}
			if got := sources(find(t, kb, "gamma delta")); len(got) == 0 || got[0] != tt.want {
				t.Errorf("gamma delta: %v, want %s first", got, tt.want)
			}
		})
	}
}

func TestScoring_BM25PlusLiftsAMatchInALongChunk(t *testing.T) {
	// Two documents of one chunk each: a short one with "orca" and a
	// long one with "orca" and "seal". Plain BM25 prefers the short
	// chunk; BM25+'s δ gives each
	// matched term a floor, so matching both words wins.
	docs := append(fillers(20),
		Input{Title: "Short", Source: "short", Text: "An orca."},
		Input{Title: "Long", Source: "long", Text: "An orca chased a seal. " + filler(8)},
	)
	tests := []struct {
		name  string
		delta float64
		want  string
	}{
		{"plain BM25 (the default)", 0, "short"},
		{"BM25+ with δ 1", 1, "long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{ChunkSize: 2000, Scoring: rank.Scoring{Delta: tt.delta}, Feedback: rank.Feedback{Off: true}})
			mustAdd(t, kb, docs...)
			if got := sources(find(t, kb, "orca seal")); len(got) == 0 || got[0] != tt.want {
				t.Errorf("orca seal: %v, want %s first", got, tt.want)
			}
		})
	}
}

func TestScoring_DeletedDocumentsLeaveTheDocumentStatistics(t *testing.T) {
	// The deleted document uses only words the others have, so the field
	// dictionaries are alike and the scores must be the same as if it had
	// never been added: its chunks count neither in the number of
	// documents nor in a word's document frequency.
	gone := Input{Title: "Shipping", Source: "policy/express.md", Text: "Express delivery takes two days."}
	for _, scoring := range []rank.Scoring{{}, {ChunkOnly: true}, {Formula: rank.FormulaBleve}, {Formula: rank.FormulaAnserini, ChunkOnly: true}} {
		deleted, never := newKB(t, Config{Scoring: scoring}), newKB(t, Config{Scoring: scoring})
		mustAdd(t, deleted, append(append([]Input{}, corpus...), gone)...)
		if err := deleted.DeleteSource(ctx, gone.Source); err != nil {
			t.Fatal(err)
		}
		mustAdd(t, never, corpus...)
		for _, q := range []string{"express delivery", "two days", "returned items refund"} {
			if got, want := scored(find(t, deleted, q)), scored(find(t, never, q)); !reflect.DeepEqual(got, want) {
				t.Errorf("%+v, %q after a delete: %v\nnever added: %v", scoring, q, got, want)
			}
		}
	}
}
