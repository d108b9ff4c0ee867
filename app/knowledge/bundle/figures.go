package bundle

import (
	"fmt"
	"sort"
	"strconv"
)

// A figure shard holds what ranking reads about the chunks of a run of
// documents, Figures.Per documents from ordinal i·Per on:
//
//	per document: its fragment's name (4 bytes, the hash in
//	  f/<hash>.json), uvarint chunks, uvarint title length, then per
//	  chunk, in the index's order: uvarint body length
//
// Everything else follows: a document's chunks come right after the
// previous document's, its length is its chunks' lengths less the title
// they repeat (rank works it out as it does for the in-memory index), and
// the index orders a document's chunks by their ids, "id#0" < "id#1" <
// "id#10" < "id#2", which is the order of their numbers as text.

// docFigures are one document's figures.
type docFigures struct {
	frag     [fragNameLen / 2]byte // the fragment's name (fragmentName)
	titleLen uint32
	lens     []uint32 // body length by slot (the chunk's place in the document)
}

func encodeFigures(docs []docFigures) []byte {
	var b []byte
	for _, d := range docs {
		b = append(b, d.frag[:]...)
		b = appendUvarint(b, uint64(len(d.lens)))
		b = appendUvarint(b, uint64(d.titleLen))
		for _, l := range d.lens {
			b = appendUvarint(b, uint64(l))
		}
	}
	return b
}

// decodeFigures reads a shard of n documents.
func decodeFigures(data []byte, n, maxChunks int) ([]docFigures, error) {
	d := &decoder{b: data}
	out := make([]docFigures, 0, n)
	// The documents' lengths share one array: a length takes at least a
	// byte of data, so it never grows, and a large site's 50,000
	// documents cost a few allocations rather than one each.
	lens := make([]uint32, 0, len(data))
	total := 0
	for i := 0; i < n && d.err == nil; i++ {
		var frag [fragNameLen / 2]byte
		if len(d.b) < len(frag) {
			d.err = fmt.Errorf("%w: the figures end in a document's name", ErrDamaged)
			break
		}
		d.b = d.b[copy(frag[:], d.b):]
		k := int(d.u32(uint64(maxChunks - total)))
		if k == 0 && d.err == nil {
			d.err = fmt.Errorf("%w: a document without chunks", ErrDamaged)
		}
		f := docFigures{frag: frag, titleLen: d.u32(1<<32 - 1)}
		start := len(lens)
		for j := 0; j < k && d.err == nil; j++ {
			lens = append(lens, d.u32(1<<32-1))
		}
		f.lens = lens[start:len(lens):len(lens)]
		total += k
		out = append(out, f)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%w: %d bytes after the figures", ErrDamaged, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// inOrder is slotNumbers' answer for documents of up to ten chunks,
// numbered 0 to 9, whose numbers as text sort as numbers (from eleven
// chunks on, "10" sorts before "2"): shared, so that laying out a large
// site's figures allocates nothing per document.
var inOrder = [...]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}

// slotNumbers returns, by slot, the numbers of a document's k chunks in
// the order the index keeps them: by number as text. Callers only read
// it.
func slotNumbers(k int) []int32 {
	if k <= len(inOrder) {
		return inOrder[:k:k]
	}
	out := make([]int32, k)
	for i := range out {
		out[i] = int32(i)
	}
	sort.Slice(out, func(i, j int) bool {
		return strconv.Itoa(int(out[i])) < strconv.Itoa(int(out[j]))
	})
	return out
}
