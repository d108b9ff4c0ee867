package memindex

import (
	"context"
	"sort"
	"strings"

	"tinyrag/app/knowledge/flatseg"
	"tinyrag/app/knowledge/rank"
)

// dictionary answers search-as-you-type's term lookups (rank.Dictionary)
// from the body terms of the index's flat segments: a sorted table each,
// so a prefix is a binary search and a near miss one pass over the terms.
type dictionary struct{ idx Index }

// Dictionary is the index's terms as search as you type looks them up.
func (m Index) Dictionary() rank.Dictionary { return dictionary{m} }

// segments returns the flat segments of a snapshot and a function that
// closes it.
func (d dictionary) segments() ([]*flatseg.Segment, func(), error) {
	snap, err := d.idx.snapshot()
	if err != nil {
		return nil, nil, err
	}
	var out []*flatseg.Segment
	for _, ss := range snap.Segments() {
		if fs, ok := ss.Segment().(*flatseg.Segment); ok {
			out = append(out, fs)
		}
	}
	return out, func() { snap.Close() }, nil
}

// Complete implements rank.Dictionary.
func (d dictionary) Complete(_ context.Context, prefix string, max int) ([]string, error) {
	segs, done, err := d.segments()
	if err != nil {
		return nil, err
	}
	defer done()
	df := map[string]int{}
	for _, s := range segs {
		terms := s.Terms(fieldBody)
		for i := sort.SearchStrings(terms, prefix); i < len(terms) && strings.HasPrefix(terms[i], prefix); i++ {
			df[terms[i]] += s.DocFreq(fieldBody, terms[i])
		}
	}
	return mostFrequent(df, max), nil
}

// Near implements rank.Dictionary.
func (d dictionary) Near(_ context.Context, term string) ([]string, error) {
	segs, done, err := d.segments()
	if err != nil {
		return nil, err
	}
	defer done()
	df := map[string]int{}
	for _, s := range segs {
		for _, t := range s.Terms(fieldBody) {
			if len(t) >= len(term)-4 && len(t) <= len(term)+4 && rank.OneEdit(term, t) {
				df[t] += s.DocFreq(fieldBody, t)
			}
		}
	}
	return mostFrequent(df, len(df)), nil
}

// Has implements rank.Dictionary.
func (d dictionary) Has(_ context.Context, term string) (bool, error) {
	segs, done, err := d.segments()
	if err != nil {
		return false, err
	}
	defer done()
	for _, s := range segs {
		if s.DocFreq(fieldBody, term) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// mostFrequent returns up to max terms of df, most frequent first, ties
// in alphabetical order.
func mostFrequent(df map[string]int, max int) []string {
	out := make([]string, 0, len(df))
	for t := range df {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if df[out[i]] != df[out[j]] {
			return df[out[i]] > df[out[j]]
		}
		return out[i] < out[j]
	})
	return out[:min(max, len(out))]
}
