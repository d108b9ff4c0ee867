package bundle

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"tinyrag/app/knowledge/rank"
)

// The dictionary lookups of search as you type (rank.Dictionary):
// prefixes and near misses, answered from the lexicon and suffix shards.

// lexiconShard returns a lexicon or suffix shard, fetching it on first
// use.
func (ix *Index) lexiconShard(ctx context.Context, name string) ([]lexEntry, error) {
	return decoded(ctx, ix, ix.lex, name, func(data []byte) ([]lexEntry, error) {
		return decodeLexicon(data, ix.man.Chunks)
	})
}

// maxLookupShards bounds the lexicon shards one prefix lookup reads: a
// short prefix of a large site spans many, and the first few hold enough
// of its terms for a keystroke's suggestions.
const maxLookupShards = 3

// withPrefix returns the lexicon (or suffix) entries that start with
// prefix, from at most maxLookupShards shards.
func (ix *Index) withPrefix(ctx context.Context, prefix string, suffix bool) ([]lexEntry, error) {
	sm := ix.man.Lexicon
	if suffix {
		sm = ix.man.Suffixes
	}
	names, err := ix.span(ctx, sm, prefix, prefixEnd(prefix), maxLookupShards)
	if err != nil {
		return nil, err
	}
	got := make([][]lexEntry, len(names))
	if err := parallel(len(names), func(k int) error {
		es, err := ix.lexiconShard(ctx, names[k])
		got[k] = es
		return err
	}); err != nil {
		return nil, err
	}
	var out []lexEntry
	for _, es := range got {
		i := sort.Search(len(es), func(i int) bool { return es[i].term >= prefix })
		for ; i < len(es) && strings.HasPrefix(es[i].term, prefix); i++ {
			out = append(out, es[i])
		}
	}
	return out, nil
}

// prefixEnd is the least string greater than every string that starts
// with p ("" when there is none).
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return ""
}

// Complete implements rank.Dictionary from the lexicon shards.
func (ix *Index) Complete(ctx context.Context, prefix string, max int) ([]string, error) {
	es, err := ix.withPrefix(ctx, prefix, false)
	if err != nil {
		return nil, err
	}
	return mostFrequent(es, max), nil
}

// Near implements rank.Dictionary. A term one edit from a word keeps
// either the word's first ⌊(n−1)/2⌋ runes or its last n−1−⌊(n−1)/2⌋
// (n: the word's length): an edit touches at most two neighbouring
// runes, which cannot reach into both. So the candidates are the terms
// with that prefix (lexicon shards) and those with that suffix (suffix
// shards, which spell terms backwards).
func (ix *Index) Near(ctx context.Context, term string) ([]string, error) {
	n := utf8.RuneCountInString(term)
	if n < 2 {
		return nil, nil
	}
	r := []rune(term)
	p := (n - 1) / 2
	head, tail := string(r[:p]), string(r[p+1:])
	if p == 0 {
		head = ""
	}
	var cands []lexEntry
	for _, part := range []struct {
		prefix string
		suffix bool
	}{{head, false}, {reverse(tail), true}} {
		es, err := ix.withPrefix(ctx, part.prefix, part.suffix)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			t := e.term
			if part.suffix {
				t = reverse(t)
			}
			if rank.OneEdit(term, t) {
				cands = append(cands, lexEntry{t, e.df})
			}
		}
	}
	return mostFrequent(cands, len(cands)), nil
}

// Has implements rank.Dictionary from the lexicon shards.
func (ix *Index) Has(ctx context.Context, term string) (bool, error) {
	names, err := ix.locateAll(ctx, ix.man.Lexicon, []string{term})
	if err != nil || names[0] == "" {
		return false, err
	}
	es, err := ix.lexiconShard(ctx, names[0])
	if err != nil {
		return false, err
	}
	k := sort.Search(len(es), func(k int) bool { return es[k].term >= term })
	return k < len(es) && es[k].term == term, nil
}

// mostFrequent returns up to max distinct terms of es, those in most
// chunks first, ties in byte order.
func mostFrequent(es []lexEntry, max int) []string {
	sort.Slice(es, func(i, j int) bool {
		if es[i].df != es[j].df {
			return es[i].df > es[j].df
		}
		return es[i].term < es[j].term
	})
	var out []string
	for i, e := range es {
		if len(out) == max {
			break
		}
		if i > 0 && e.term == es[i-1].term {
			continue
		}
		out = append(out, e.term)
	}
	return out
}
