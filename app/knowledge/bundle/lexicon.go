package bundle

import (
	"fmt"
	"slices"
)

// Lexicon and suffix shards list terms without their postings, so that a
// prefix or a near miss is looked up in a few kilobytes:
//
//	uvarint terms
//	per term: uvarint shared, uvarint n, n bytes (front-coded), uvarint
//	  the number of chunks whose body has the term
//
// A suffix shard spells each term backwards (by rune): a word misspelt by
// one edit keeps either its first or its last half intact (Index.Near in
// dictionary.go), and the backward spelling makes the last half a prefix.

// lexEntry is a term and how many chunks hold it.
type lexEntry struct {
	term string
	df   uint32
}

func encodeLexicon(b []byte, entries []lexEntry) []byte {
	b = appendUvarint(b, uint64(len(entries)))
	prev := ""
	for _, e := range entries {
		b = appendTerm(b, prev, e.term)
		b = appendUvarint(b, uint64(e.df))
		prev = e.term
	}
	return b
}

func decodeLexicon(data []byte, chunks int) ([]lexEntry, error) {
	d := &decoder{b: data}
	n := d.count(3)
	out := make([]lexEntry, 0, n)
	prev := ""
	for i := 0; i < n && d.err == nil; i++ {
		e := lexEntry{term: d.term(prev), df: d.u32(uint64(chunks))}
		if i > 0 && e.term <= prev && d.err == nil {
			d.err = fmt.Errorf("%w: lexicon out of order", ErrDamaged)
		}
		prev = e.term
		out = append(out, e)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%w: %d bytes after the lexicon", ErrDamaged, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// reverse spells s backwards, rune by rune.
func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}
