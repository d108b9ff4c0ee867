package bundle

import (
	"encoding/binary"
	"fmt"
)

// A term shard holds a range of terms, in byte order, each with its
// postings in the body and title fields, and with each posting what
// ranking reads of its chunk (format version 6):
//
//	uvarint terms
//	per term: uvarint shared, uvarint n, n bytes   the term, front-coded
//	          uvarint body postings, uvarint title postings
//	then one column after another, each running through all the
//	shard's terms in order:
//	  per body posting:  uvarint document ordinal − the previous posting's
//	                     (the term's first: as it is)
//	  per body posting that starts a document (the term's first, and
//	  each whose difference above is not 0), four columns:
//	                     uvarint chunk − the previous posting's (the
//	                     first: as it is); uvarint the chunk's number in
//	                     its document; uvarint the document's length;
//	                     uvarint how many of its chunks repeat its title
//	                     beyond the first
//	  per body posting that continues a document, two columns:
//	                     uvarint chunk − the previous posting's − 1;
//	                     the chunk's number in its document less what
//	                     the previous posting's number and the rise in
//	                     chunk make, zigzag-coded (almost always 0)
//	  per body posting:  uvarint frequency
//	  per body posting:  uvarint the chunk's body length
//	  per title posting, three columns: uvarint chunk − the previous
//	                     title posting's; uvarint frequency; uvarint the
//	                     title's length
//
// Chunk numbers are the in-memory index's, segment after segment, which
// keeps a document's chunks together and in the index's order (it
// decides ties between them): by their ids, in which a document's chunk
// 10 sorts before its chunk 2, hence the correction to the number. A
// title's chunk is always among the term's body postings too (every
// chunk's body starts with its document's title), so its document comes
// from there.
//
// Why the figures ride with the postings: a query's ranking reads them
// only for the chunks its terms' postings name, and a site's figures for
// every chunk (format version 3's figure shards, 470 KB for the 50k-page
// bench site) grew every first query's download with the site, not with
// the query (docs/site-knowledge.md). Why columns: alike numbers side by
// side compress better; version 5 wrote each posting's numbers together,
// and the same postings in columns, without the numbers a continuing
// posting repeats, are smaller as brotli (docs/site-knowledge.md).

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

// The columns of a term shard, in the order they are written.
const (
	colOrd = iota
	colChunk
	colNum
	colDocLen
	colRepeats
	colNext
	colNextNum
	colFreq
	colLen
	colTitleChunk
	colTitleFreq
	colTitleLen
	nColumns
)

// shardColumns collects terms' entries: the dictionary and the columns
// that follow it.
type shardColumns struct {
	terms int
	prev  string
	dict  []byte
	cols  [nColumns][]byte
}

// add appends one term's entry.
func (c *shardColumns) add(tp *termPostings) {
	c.dict = appendTerm(c.dict, c.prev, tp.term)
	c.dict = appendUvarint(c.dict, uint64(len(tp.body.docs)))
	c.dict = appendUvarint(c.dict, uint64(len(tp.title.docs)))
	c.prev = tp.term
	c.terms++
	put := func(col int, v uint32) { c.cols[col] = appendUvarint(c.cols[col], uint64(v)) }
	p := &tp.body
	for i, ch := range p.docs {
		if i == 0 {
			put(colOrd, uint32(p.ord[i]))
		} else {
			put(colOrd, uint32(p.ord[i]-p.ord[i-1]))
		}
		switch {
		case i == 0:
			put(colChunk, ch)
		case p.ord[i] != p.ord[i-1]:
			put(colChunk, ch-p.docs[i-1])
		default:
			step := ch - p.docs[i-1]
			put(colNext, step-1)
			skew := int64(p.n[i]) - int64(p.n[i-1]) - int64(step)
			c.cols[colNextNum] = appendUvarint(c.cols[colNextNum], uint64(skew<<1^skew>>63))
		}
		if i == 0 || p.ord[i] != p.ord[i-1] {
			put(colNum, uint32(p.n[i]))
			put(colDocLen, p.docLen[i])
			put(colRepeats, uint32(p.repeats[i]))
		}
		put(colFreq, p.freqs[i])
		put(colLen, p.lens[i])
	}
	p = &tp.title
	var prev uint32
	for i, ch := range p.docs {
		put(colTitleChunk, ch-prev)
		put(colTitleFreq, p.freqs[i])
		put(colTitleLen, p.lens[i])
		prev = ch
	}
}

// size is how many bytes the terms' entries take so far, the count of
// terms before them apart.
func (c *shardColumns) size() int {
	n := len(c.dict)
	for _, col := range c.cols {
		n += len(col)
	}
	return n
}

// bytes returns the shard.
func (c *shardColumns) bytes() []byte {
	b := make([]byte, 0, binary.MaxVarintLen64+c.size())
	b = appendUvarint(b, uint64(c.terms))
	b = append(b, c.dict...)
	for _, col := range c.cols {
		b = append(b, col...)
	}
	return b
}

// encodeTermShard returns the shard of tps, which are in byte order.
func encodeTermShard(tps []termPostings) []byte {
	var c shardColumns
	for i := range tps {
		c.add(&tps[i])
	}
	return c.bytes()
}

// termSize is about how many bytes tp's entry takes in a term shard (its
// term front-coded against none).
func termSize(tp *termPostings) int {
	var c shardColumns
	c.add(tp)
	return c.size()
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

// column reads count uvarints, each at most limit. It is the bulk of a
// term shard's decoding, so one-byte numbers take a short path.
func (d *decoder) column(count int, limit uint64) []uint32 {
	col := make([]uint32, count)
	if d.err != nil {
		return col
	}
	b := d.b
	i := 0
	for k := range col {
		if i < len(b) && b[i] < 0x80 && uint64(b[i]) <= limit {
			col[k] = uint32(b[i])
			i++
			continue
		}
		v, n := binary.Uvarint(b[i:])
		if n <= 0 {
			d.err = fmt.Errorf("%w: a number runs past the end", ErrDamaged)
			return col
		}
		if v > limit {
			d.err = fmt.Errorf("%w: %d is out of range (at most %d)", ErrDamaged, v, limit)
			return col
		}
		col[k] = uint32(v)
		i += n
	}
	d.b = b[i:]
	return col
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
	out, bodies, titles := d.dictionary()
	if d.err == nil {
		d.bodyColumns(out, bodies, chunks, docs)
	}
	if d.err == nil {
		d.titleColumns(out, titles, chunks)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%w: %d bytes after the last term", ErrDamaged, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// dictionary reads a term shard's terms, each with room for its postings,
// and how many body and title postings they have in all.
func (d *decoder) dictionary() (out []termPostings, bodies, titles int) {
	n := d.count(6)
	out = make([]termPostings, 0, n)
	prev := ""
	for i := 0; i < n && d.err == nil; i++ {
		tp := termPostings{term: d.term(prev)}
		if i > 0 && tp.term <= prev && d.err == nil {
			d.err = fmt.Errorf("%w: terms out of order", ErrDamaged)
		}
		prev = tp.term
		// A body posting takes at least four bytes of the columns, a
		// title posting three: the counts cannot ask for more.
		b, t := d.count(4), d.count(3)
		bodies, titles = bodies+b, titles+t
		if bodies*4+titles*3 > len(d.b) && d.err == nil {
			d.err = fmt.Errorf("%w: more postings than bytes", ErrDamaged)
		}
		if d.err != nil {
			break
		}
		tp.body.docs = make([]uint32, b)
		tp.title.docs = make([]uint32, t)
		out = append(out, tp)
	}
	return out, bodies, titles
}

// bodyColumns reads the body postings' columns of the terms out, which
// hold bodies postings in all. Each column runs through every term; the
// numbers go into flat tables, each term's postings a slice of them.
func (d *decoder) bodyColumns(out []termPostings, bodies, chunks, docs int) {
	ordDelta := d.column(bodies, uint64(docs))
	ord := make([]int32, bodies)
	starts := 0
	k := 0
	for _, tp := range out {
		for j := range tp.body.docs {
			o := int64(ordDelta[k])
			if j > 0 {
				o += int64(ord[k-1])
			}
			if o >= int64(docs) && d.err == nil {
				d.err = fmt.Errorf("%w: document %d of %d", ErrDamaged, o, docs)
			}
			ord[k] = int32(o)
			if j == 0 || ordDelta[k] != 0 {
				starts++
			}
			k++
		}
	}
	startChunk := d.column(starts, uint64(chunks))
	startNum := d.column(starts, uint64(chunks))
	startDocLen := d.column(starts, 1<<32-1)
	startRepeats := d.column(starts, uint64(chunks))
	next := d.column(bodies-starts, uint64(chunks))
	skews := d.column(bodies-starts, 2*uint64(chunks))
	freqs := d.column(bodies, 1<<32-1)
	lens := d.column(bodies, 1<<32-1)
	if d.err != nil {
		return
	}
	num := make([]int32, bodies)
	docLen := make([]uint32, bodies)
	repeats := make([]int32, bodies)
	k, s := 0, 0
	for i := range out {
		p := &out[i].body
		lo := k
		var c uint64
		var n int64
		for j := range p.docs {
			if j == 0 || ordDelta[k] != 0 {
				p.docs[j] = d.rise(&c, uint64(startChunk[s]), j == 0, chunks)
				n = int64(startNum[s])
				docLen[k], repeats[k] = startDocLen[s], int32(startRepeats[s])
				s++
			} else {
				step := uint64(next[k-s]) + 1
				skew := int64(skews[k-s]>>1) ^ -int64(skews[k-s]&1)
				p.docs[j] = d.rise(&c, step, false, chunks)
				n += int64(step) + skew
				docLen[k], repeats[k] = docLen[k-1], repeats[k-1]
			}
			if (n < 0 || n >= int64(chunks)) && d.err == nil {
				d.err = fmt.Errorf("%w: chunk number %d in a document, of %d chunks", ErrDamaged, n, chunks)
			}
			num[k] = int32(n)
			k++
		}
		p.ord, p.n = ord[lo:k:k], num[lo:k:k]
		p.docLen, p.repeats = docLen[lo:k:k], repeats[lo:k:k]
		p.freqs, p.lens = freqs[lo:k:k], lens[lo:k:k]
	}
}

// titleColumns reads the title postings' columns of the terms out, which
// hold titles postings in all; each title chunk must be among its term's
// body postings, which hold its figures.
func (d *decoder) titleColumns(out []termPostings, titles, chunks int) {
	chunkDelta := d.column(titles, uint64(chunks))
	freqs := d.column(titles, 1<<32-1)
	lens := d.column(titles, 1<<32-1)
	if d.err != nil {
		return
	}
	k := 0
	for i := range out {
		p := &out[i].title
		lo := k
		var c uint64
		for j := range p.docs {
			p.docs[j] = d.rise(&c, uint64(chunkDelta[k]), j == 0, chunks)
			k++
		}
		p.freqs, p.lens = freqs[lo:k:k], lens[lo:k:k]
		if c, ok := missing(p.docs, out[i].body.docs); ok && d.err == nil {
			d.err = fmt.Errorf("%w: title chunk %d is not among the term's body postings", ErrDamaged, c)
		}
	}
}

// rise adds delta to c, the chunk number of a list's previous posting, and
// returns it: chunk numbers rise (only a list's first may add 0) and stay
// below chunks.
func (d *decoder) rise(c *uint64, delta uint64, first bool, chunks int) uint32 {
	if !first && delta == 0 && d.err == nil {
		d.err = fmt.Errorf("%w: a chunk listed twice", ErrDamaged)
	}
	*c += delta
	if *c >= uint64(chunks) && d.err == nil {
		d.err = fmt.Errorf("%w: chunk %d of %d", ErrDamaged, *c, chunks)
	}
	return uint32(*c)
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
