package flatseg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"
)

// The saved form of a segment, all integers unsigned varints:
//
//	magic "tinyrag-flatseg\x01"
//	numDocs, then each document id (length, bytes), in ascending order
//	numFields (not counting the id field), then per field:
//	  name (length, bytes)
//	  the field length of each document
//	  numTerms, then per term in order:
//	    bytes shared with the previous term, suffix (length, bytes)
//	    document count, then per document: gap from the previous
//	    document number (the first from -1), frequency
//	CRC-32 (IEEE) of all of the above, 4 bytes big-endian
//
// The id field is not saved: Decode rebuilds it from the ids.
const magic = "tinyrag-flatseg\x01"

// WriteTo writes the segment in its saved form; Decode reads it back.
func (s *Segment) WriteTo(w io.Writer) (int64, error) {
	// Varints take about a third of the arrays' bytes; a decoded
	// segment's saved form is most of its size already.
	buf := make([]byte, 0, s.size/3+s.raw)
	buf = append(buf, magic...)
	buf = binary.AppendUvarint(buf, uint64(len(s.ids)))
	for _, id := range s.ids {
		buf = binary.AppendUvarint(buf, uint64(len(id)))
		buf = append(buf, id...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.fields)-1))
	for i := 1; i < len(s.fields); i++ {
		f := &s.fields[i]
		buf = binary.AppendUvarint(buf, uint64(len(f.name)))
		buf = append(buf, f.name...)
		for _, l := range f.lens {
			buf = binary.AppendUvarint(buf, uint64(l))
		}
		buf = binary.AppendUvarint(buf, uint64(len(f.terms)))
		prev := ""
		for t, term := range f.terms {
			shared := commonPrefix(prev, term)
			buf = binary.AppendUvarint(buf, uint64(shared))
			buf = binary.AppendUvarint(buf, uint64(len(term)-shared))
			buf = append(buf, term[shared:]...)
			prev = term
			buf = binary.AppendUvarint(buf, uint64(f.df(t)))
			if f.raw != nil {
				buf = append(buf, f.raw[f.at[2*t]:f.at[2*t+1]]...)
				continue
			}
			docs, freqs := f.postingsOf(t)
			last := int64(-1)
			for p, d := range docs {
				buf = binary.AppendUvarint(buf, uint64(int64(d)-last))
				buf = binary.AppendUvarint(buf, uint64(freqs[p]))
				last = int64(d)
			}
		}
	}
	buf = binary.BigEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
	n, err := w.Write(buf)
	return int64(n), err
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Decode reads a segment written by WriteTo. It checks the checksum and
// every count and offset, so damaged bytes give an error, never a panic or
// a segment that misleads a search. The segment keeps the postings in data
// and decodes them as searches need them: data must not change afterwards.
func Decode(data []byte) (*Segment, error) {
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errors.New("flatseg: not a saved segment (unknown header)")
	}
	if len(data) < len(magic)+4 {
		return nil, errors.New("flatseg: saved segment is truncated")
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, errors.New("flatseg: saved segment is corrupt (checksum mismatch)")
	}
	r := reader{b: body[len(magic):]}
	r.b0 = r.b
	numDocs := r.count(1)
	s := &Segment{ids: make([]string, 0, numDocs)}
	for i := 0; i < numDocs && r.err == nil; i++ {
		s.ids = append(s.ids, string(r.bytes()))
		if i > 0 && r.err == nil && s.ids[i] <= s.ids[i-1] {
			r.err = fmt.Errorf("document ids out of order at %d", i)
		}
	}
	numFields := r.count(1)
	s.fields = make([]field, 1, 1+numFields)
	for i := 0; i < numFields && r.err == nil; i++ {
		f := r.field(numDocs, r.b0)
		if r.err == nil && (f.name == IDField || s.find(f.name) >= 0) {
			r.err = fmt.Errorf("field %q saved twice", f.name)
		}
		s.fields = append(s.fields, f)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d unexpected bytes at the end", len(r.b))
	}
	if r.err != nil {
		return nil, fmt.Errorf("flatseg: saved segment is corrupt: %w", r.err)
	}
	s.fields[0] = idField(s.ids)
	s.raw = len(data)
	s.computeSize()
	return s, nil
}

// reader decodes varints, remembering the first error.
type reader struct {
	b   []byte
	b0  []byte // b as it started, which offsets are relative to
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad or truncated number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of items that take at least minBytes each, so a
// damaged count cannot make Decode allocate more than the data could hold.
func (r *reader) count(minBytes int) int {
	v := r.uvarint()
	if r.err == nil && v > uint64(len(r.b)/minBytes) {
		r.err = fmt.Errorf("count %d exceeds the data left", v)
		return 0
	}
	return int(v)
}

func (r *reader) bytes() []byte {
	n := r.count(1)
	if r.err != nil {
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) field(numDocs int, raw []byte) field {
	f := field{name: string(r.bytes()), lens: make([]uint32, numDocs)}
	for d := range f.lens {
		f.lens[d] = r.u32()
	}
	numTerms := r.count(3)
	if r.err != nil {
		return f
	}
	f.start = make([]uint32, 1, numTerms+1)
	f.at = make([]uint32, 0, 2*numTerms)
	// All terms in one string: one allocation instead of one per term.
	var text []byte
	ends := make([]int, 0, numTerms)
	prevStart := 0
	for t := 0; t < numTerms && r.err == nil; t++ {
		shared := int(r.uvarint())
		suffix := r.bytes()
		if r.err != nil {
			break
		}
		if shared < 0 || t > 0 && shared > len(text)-prevStart || t == 0 && shared != 0 {
			r.err = fmt.Errorf("field %q: term %d shares more than the previous term has", f.name, t)
			break
		}
		start := len(text)
		text = append(text, text[prevStart:prevStart+shared]...)
		text = append(text, suffix...)
		if t > 0 && string(text[prevStart:start]) >= string(text[start:]) {
			r.err = fmt.Errorf("field %q: terms out of order at %d", f.name, t)
			break
		}
		prevStart = start
		ends = append(ends, len(text))
		n := r.count(2)
		if r.err != nil {
			break
		}
		// Check the postings now, decode them when a search needs them.
		used, err := checkPostings(r.b, n, numDocs)
		if err != nil {
			r.err = fmt.Errorf("field %q, term %q: %w", f.name, text[start:], err)
			break
		}
		at := uint32(len(raw) - len(r.b))
		f.at = append(f.at, at, at+uint32(used))
		r.b = r.b[used:]
		f.start = append(f.start, f.start[len(f.start)-1]+uint32(n))
	}
	f.raw = raw
	f.loaded = make([]atomic.Pointer[postingsPair], len(ends))
	all := string(text)
	f.terms = make([]string, len(ends))
	from := 0
	for i, e := range ends {
		f.terms[i] = all[from:e]
		from = e
	}
	return f
}

// uvarintAt reads the unsigned varint at b[i:]; most are one byte, so that
// case goes first. n is 0 when b[i:] holds no valid varint.
func uvarintAt(b []byte, i int) (v uint64, n int) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), 1
	}
	if i >= len(b) {
		return 0, 0
	}
	v, n = binary.Uvarint(b[i:])
	if n < 0 {
		n = 0
	}
	return v, n
}

// checkPostings checks n postings at the start of b — document gaps and
// frequencies — and returns how many bytes they take. It runs over every
// posting of a reload, so one-byte numbers, the common case, are read
// inline.
func checkPostings(b []byte, n, numDocs int) (int, error) {
	i := 0
	last := int64(-1)
	for p := 0; p < n; p++ {
		var gap uint64
		if i < len(b) && b[i] < 0x80 {
			gap = uint64(b[i])
			i++
		} else {
			var k int
			if gap, k = uvarintAt(b, i); k == 0 {
				return 0, errors.New("bad or truncated document number")
			}
			i += k
		}
		if gap == 0 || gap > uint64(numDocs) || last+int64(gap) >= int64(numDocs) {
			return 0, fmt.Errorf("document number %d out of order or range", last+int64(gap))
		}
		last += int64(gap)
		if i < len(b) && b[i] < 0x80 {
			i++
			continue
		}
		freq, k := uvarintAt(b, i)
		if k == 0 || freq > 1<<32-1 {
			return 0, errors.New("bad or truncated frequency")
		}
		i += k
	}
	return i, nil
}

// decodePostings decodes n postings checked by checkPostings.
func decodePostings(b []byte, n int) *postingsPair {
	p := &postingsPair{docs: make([]uint32, n), freqs: make([]uint32, n)}
	i := 0
	last := int64(-1)
	for j := 0; j < n; j++ {
		gap, k := uvarintAt(b, i)
		i += k
		last += int64(gap)
		freq, k := uvarintAt(b, i)
		i += k
		p.docs[j], p.freqs[j] = uint32(last), uint32(freq)
	}
	return p
}

func (r *reader) u32() uint32 {
	v := r.uvarint()
	if v > 1<<32-1 && r.err == nil {
		r.err = fmt.Errorf("number %d out of range", v)
	}
	return uint32(v)
}
