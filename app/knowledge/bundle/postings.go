package bundle

import (
	"encoding/binary"
	"fmt"
)

// A term shard holds a range of terms, in byte order, each with its
// postings in the body and title fields:
//
//	uvarint terms
//	per term:
//	  uvarint shared, uvarint n, n bytes   the term, front-coded
//	  uvarint postings, then per posting:  body
//	    uvarint chunk − previous chunk, uvarint frequency
//	  uvarint postings, then the same      title
//
// Chunk numbers are the in-memory index's, segment after segment, which
// keeps a document's chunks together and in the index's order (it decides
// ties between them); what ranking reads about each chunk is in the
// figure shards (figures.go).

// termPostings are a term's postings in both fields.
type termPostings struct {
	term        string
	body, title postingList
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
	for _, p := range []postingList{tp.body, tp.title} {
		b = appendUvarint(b, uint64(len(p.docs)))
		var prev uint32
		for i, c := range p.docs {
			b = appendUvarint(b, uint64(c-prev))
			b = appendUvarint(b, uint64(p.freqs[i]))
			prev = c
		}
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

// decodeTermShard decodes a term shard, checking every chunk number
// against the bundle's count, so that ranking never indexes out of range.
func decodeTermShard(data []byte, chunks int) ([]termPostings, error) {
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
		tp.body = d.postings(chunks)
		tp.title = d.postings(chunks)
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

// postings reads one posting list: chunk numbers rising, below chunks.
func (d *decoder) postings(chunks int) postingList {
	n := d.count(2)
	p := postingList{docs: make([]uint32, 0, n), freqs: make([]uint32, 0, n)}
	var c uint64
	for j := 0; j < n && d.err == nil; j++ {
		delta := d.uvarint()
		if j > 0 && delta == 0 && d.err == nil {
			d.err = fmt.Errorf("%w: a chunk listed twice", ErrDamaged)
		}
		c += delta
		if c >= uint64(chunks) && d.err == nil {
			d.err = fmt.Errorf("%w: chunk %d of %d", ErrDamaged, c, chunks)
		}
		p.docs = append(p.docs, uint32(c))
		p.freqs = append(p.freqs, d.u32(1<<32-1))
	}
	return p
}
