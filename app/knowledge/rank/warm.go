package rank

import (
	"context"
	"fmt"
	"sync"
)

// Warming the ranking's code. In the browser V8 compiles a WebAssembly
// function the first time it is called, on the page's one thread. A site
// bundle's first query called the scoring loops only once its last term
// shard had arrived, so their compiling came between that shard and the
// hits' fragment requests (docs/site-knowledge.md, "The ranking's code is
// compiled before the query needs it"). Warm calls them where the app
// waits anyway: while the first query's shards download.

var warmed sync.Once

// Warm ranks a two-chunk index made here, with cfg's scoring, and drops
// the result, once per program. It shares nothing with any Ranker in
// use; what it leaves behind is the compiled code.
func Warm(cfg Config) {
	warmed.Do(func() { _, _ = warmRank(cfg) })
}

// warmRank ranks warmIndex for both its terms with a Ranker of its own.
func warmRank(cfg Config) ([]Result, error) {
	terms := []queryTerm{{"warm", 1}, {"code", 1}}
	return New(cfg).rankTerms(context.Background(), warmIndex{}, terms, 2, &bodyStats{})
}

// warmIndex is an index of two one-chunk documents, "a" and "b", whose
// bodies hold the terms "warm" and "code" and whose titles hold "warm".
type warmIndex struct{}

func (warmIndex) View() (*View, error) {
	return &View{
		Segments:    []ViewSegment{{Segment: warmIndex{}}},
		Chunks:      2,
		Cardinality: func(string) (uint64, error) { return 2, nil },
		Release:     func() {},
	}, nil
}

func (warmIndex) ChunkText(context.Context, Doc, int) (string, error) { return "warm code", nil }
func (warmIndex) Common(string) (bool, error)                         { return false, nil }
func (warmIndex) Count() uint64                                       { return 2 }

func (warmIndex) Postings(field, term string) (docs, freqs, lens []uint32) {
	switch {
	case field == FieldBody && (term == "warm" || term == "code"):
		return []uint32{0, 1}, []uint32{1, 2}, []uint32{3, 4}
	case field == FieldTitle && term == "warm":
		return []uint32{0, 1}, []uint32{1, 1}, []uint32{1, 1}
	}
	return nil, nil, nil
}

func (warmIndex) Lengths(field string) []uint32 {
	if field == FieldTitle {
		return []uint32{1, 1}
	}
	return []uint32{3, 4}
}

func (warmIndex) DocID(num uint64) ([]byte, error) {
	if num > 1 {
		return nil, fmt.Errorf("rank: chunk %d of 2", num)
	}
	return []byte(string(rune('a'+num)) + "#0"), nil
}
