package bundle

import (
	"encoding/binary"
	"fmt"
)

// A term shard holds a range of terms, in byte order, each with its
// postings in the body and title fields, and with each posting what
// ranking reads of its chunk (format version 4):
//
//	uvarint terms
//	per term:
//	  uvarint shared, uvarint n, n bytes   the term, front-coded
//	  uvarint postings, then per posting:  body
//	    uvarint chunk − previous chunk, uvarint frequency,
//	    uvarint the chunk's body length,
//	    uvarint document ordinal − the previous posting's (the first's
//	      as it is), uvarint the chunk's number in its document,
//	    when the document differs from the previous posting's (or it is
//	      the first): uvarint the document's length, uvarint how many of
//	      its chunks repeat its title beyond the first
//	  uvarint postings, then per posting:  title
//	    uvarint chunk − previous chunk, uvarint frequency,
//	    uvarint the title's length
//
// Chunk numbers are the in-memory index's, segment after segment, which
// keeps a document's chunks together and in the index's order (it decides
// ties between them). A title's chunk is always among the term's body
// postings too (every chunk's body starts with its document's title), so
// its document comes from there.
//
// Why the figures ride with the postings: a query's ranking reads them
// only for the chunks its terms' postings name, and a site's figures for
// every chunk (format version 3's figure shards, 470 KB for the 50k-page
// bench site) grew every first query's download with the site, not with
// the query (docs/site-knowledge.md).

// termPostings are a term's postings in both fields.
type termPostings struct {
	term        string
	body, title postingList
}

// postingList is one term's postings in one field, each chunk with its
// figures: lens is the field's length; the body's also carry the chunk's
// document ordinal and number in it, and its document's length and
// repeated titles (segment).
type postingList struct {
	docs, freqs, lens []uint32
	ord, n            []int32
	docLen            []uint32
	repeats           []int32
}

// appendUvarint appends v as a uvarint.
func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// appendTerm appends term front-coded against prev.
func appendTerm(b []byte, prev, term string) []byte {
	shared := 0
	for shared < len(prev) && shared < len(term) && prev[shared] == term[shared] {
		shared++
	}
	b = appendUvarint(b, uint64(shared))
	b = appendUvarint(b, uint64(len(term)-shared))
	return append(b, term[shared:]...)
}

// encodeTerm appends one term's entry.
func encodeTerm(b []byte, prev string, tp *termPostings) []byte {
	b = appendTerm(b, prev, tp.term)
	p := tp.body
	b = appendUvarint(b, uint64(len(p.docs)))
	var prevChunk uint32
	prevOrd := int32(-1)
	for i, c := range p.docs {
		b = appendUvarint(b, uint64(c-prevChunk))
		b = appendUvarint(b, uint64(p.freqs[i]))
		b = appendUvarint(b, uint64(p.lens[i]))
		o := p.ord[i]
		b = appendUvarint(b, uint64(o-max(prevOrd, 0)))
		b = appendUvarint(b, uint64(p.n[i]))
		if o != prevOrd {
			b = appendUvarint(b, uint64(p.docLen[i]))
			b = appendUvarint(b, uint64(p.repeats[i]))
		}
		prevChunk, prevOrd = c, o
	}
	p = tp.title
	b = appendUvarint(b, uint64(len(p.docs)))
	prevChunk = 0
	for i, c := range p.docs {
		b = appendUvarint(b, uint64(c-prevChunk))
		b = appendUvarint(b, uint64(p.freqs[i]))
		b = appendUvarint(b, uint64(p.lens[i]))
		prevChunk = c
	}
	return b
}

// decoder reads uvarints and front-coded terms, remembering the first
// error: a damaged shard fails as a whole, never with a panic.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = fmt.Errorf("%w: a number runs past the end", ErrDamaged)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// u32 reads a uvarint that must fit 32 bits and be at most limit.
func (d *decoder) u32(limit uint64) uint32 {
	v := d.uvarint()
	if v > limit {
		if d.err == nil {
			d.err = fmt.Errorf("%w: %d is out of range (at most %d)", ErrDamaged, v, limit)
		}
		return 0
	}
	return uint32(v)
}

// count reads a count of items taking at least minBytes each.
func (d *decoder) count(minBytes int) int {
	return int(d.u32(uint64(len(d.b) / minBytes)))
}

func (d *decoder) term(prev string) string {
	shared := int(d.u32(uint64(len(prev))))
	n := int(d.u32(uint64(len(d.b))))
	if d.err != nil {
		return ""
	}
	if n > len(d.b) {
		d.err = fmt.Errorf("%w: a term runs past the end", ErrDamaged)
		return ""
	}
	t := prev[:shared] + string(d.b[:n])
	d.b = d.b[n:]
	return t
}

// decodeTermShard decodes a term shard, checking every chunk number and
// ordinal against the bundle's counts, so that ranking never indexes out
// of range.
func decodeTermShard(data []byte, chunks, docs int) ([]termPostings, error) {
	d := &decoder{b: data}
	n := d.count(4)
	out := make([]termPostings, 0, n)
	prev := ""
	for i := 0; i < n && d.err == nil; i++ {
		tp := termPostings{term: d.term(prev)}
		if i > 0 && tp.term <= prev && d.err == nil {
			d.err = fmt.Errorf("%w: terms out of order", ErrDamaged)
		}
		prev = tp.term
		tp.body = d.bodyPostings(chunks, docs)
		tp.title = d.titlePostings(chunks, tp.body.docs)
		out = append(out, tp)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%w: %d bytes after the last term", ErrDamaged, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// chunk reads the next chunk number of a list: rising, below chunks.
func (d *decoder) chunk(c *uint64, first bool, chunks int) uint32 {
	delta := d.uvarint()
	if !first && delta == 0 && d.err == nil {
		d.err = fmt.Errorf("%w: a chunk listed twice", ErrDamaged)
	}
	*c += delta
	if *c >= uint64(chunks) && d.err == nil {
		d.err = fmt.Errorf("%w: chunk %d of %d", ErrDamaged, *c, chunks)
	}
	return uint32(*c)
}

// bodyPostings reads a term's body postings and their chunks' figures.
func (d *decoder) bodyPostings(chunks, docs int) postingList {
	n := d.count(5)
	p := postingList{docs: make([]uint32, 0, n), freqs: make([]uint32, 0, n), lens: make([]uint32, 0, n),
		ord: make([]int32, 0, n), n: make([]int32, 0, n), docLen: make([]uint32, 0, n), repeats: make([]int32, 0, n)}
	var c uint64
	o := int64(-1)
	var docLen uint32
	var repeats int32
	for j := 0; j < n && d.err == nil; j++ {
		p.docs = append(p.docs, d.chunk(&c, j == 0, chunks))
		p.freqs = append(p.freqs, d.u32(1<<32-1))
		p.lens = append(p.lens, d.u32(1<<32-1))
		delta := int64(d.u32(uint64(docs)))
		next := max(o, 0) + delta
		if next >= int64(docs) && d.err == nil {
			d.err = fmt.Errorf("%w: document %d of %d", ErrDamaged, next, docs)
		}
		num := int32(d.u32(uint64(chunks)))
		if next != o {
			docLen, repeats = d.u32(1<<32-1), int32(d.u32(uint64(chunks)))
		}
		o = next
		p.ord = append(p.ord, int32(o))
		p.n = append(p.n, num)
		p.docLen = append(p.docLen, docLen)
		p.repeats = append(p.repeats, repeats)
	}
	return p
}

// titlePostings reads a term's title postings, each of whose chunks must
// be among its body postings (body), where its figures are.
func (d *decoder) titlePostings(chunks int, body []uint32) postingList {
	n := d.count(3)
	p := postingList{docs: make([]uint32, 0, n), freqs: make([]uint32, 0, n), lens: make([]uint32, 0, n)}
	var c uint64
	for j := 0; j < n && d.err == nil; j++ {
		p.docs = append(p.docs, d.chunk(&c, j == 0, chunks))
		p.freqs = append(p.freqs, d.u32(1<<32-1))
		p.lens = append(p.lens, d.u32(1<<32-1))
	}
	if c, ok := missing(p.docs, body); ok && d.err == nil {
		d.err = fmt.Errorf("%w: title chunk %d is not among the term's body postings", ErrDamaged, c)
	}
	return p
}

// missing returns the first of the rising chunk numbers sub that the
// rising chunk numbers all do not hold: what a term's title postings must
// not have (their chunks' figures are in its body postings).
func missing(sub, all []uint32) (uint32, bool) {
	k := 0
	for _, c := range sub {
		for k < len(all) && all[k] < c {
			k++
		}
		if k == len(all) || all[k] != c {
			return c, true
		}
	}
	return 0, false
}
