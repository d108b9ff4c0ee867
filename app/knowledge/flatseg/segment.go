// Package flatseg is an in-memory segment for bleve's scorch index that
// keeps its postings in flat arrays.
//
// Why not zap, scorch's own segment format: zap is built for segments on
// disk — FST dictionaries, roaring bitmaps, chunked and compressed postings
// — and building it is most of the cost of indexing. Profiling a SciFact
// import in WASM put 60% of the time into zap (string-keyed maps per term
// and document, dictionary and postings encoding), and every query then
// decoded the postings again. tinyRAG's index lives in memory and is saved
// as a whole, so a segment here is sorted term tables over plain arrays:
// built with array indexing instead of hashing, searched with a binary
// search, and written out (Segment.WriteTo) in a compact varint form.
//
// A Segment implements scorch's segment.Segment: scorch manages segments,
// batches, deletions and snapshots exactly as it does with zap; only the
// bytes differ. What zap offers and a Segment does not: term vectors
// (locations), doc values and stored fields other than _id — the knowledge
// base indexes none of them.
package flatseg

import (
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// IDField is the name of the field holding each document's id, indexed as
// one term, as in every scorch segment.
const IDField = "_id"

// Segment is an immutable, in-memory scorch segment. Build one with a
// Builder or Decode.
type Segment struct {
	ids    []string // document id by document number
	fields []field  // IDField first, then by name
	raw    int      // bytes of saved form a decoded segment keeps
	refs   atomic.Int64
	size   int
}

// field is one field's inverted index.
type field struct {
	name  string
	terms []string // sorted, distinct
	// terms[t] is in start[t+1]-start[t] documents. In a built segment,
	// start[t]:start[t+1] are also where its postings are in docs and freqs.
	start []uint32
	docs  []uint32 // document numbers, ascending per term
	freqs []uint32
	lens  []uint32 // the field's length in terms, by document number

	// A decoded segment keeps each term's postings in their saved form,
	// raw[at[2t]:at[2t+1]], checked by Decode, and decodes a term's on
	// first use: a reload then costs little more than reading the term
	// table, and a query decodes only its own terms.
	raw    []byte
	at     []uint32
	loaded []atomic.Pointer[postingsPair]
}

// postingsPair is one term's decoded postings.
type postingsPair struct{ docs, freqs []uint32 }

var _ segment.Segment = (*Segment)(nil)

// find returns the index of the named field, or -1.
func (s *Segment) find(name string) int {
	for i := range s.fields {
		if s.fields[i].name == name {
			return i
		}
	}
	return -1
}

// Dictionary implements segment.Segment. A field the segment does not hold
// has an empty dictionary, as in zap.
func (s *Segment) Dictionary(name string) (segment.TermDictionary, error) {
	if i := s.find(name); i >= 0 {
		return &Dictionary{f: &s.fields[i]}, nil
	}
	return &Dictionary{f: &field{name: name, start: []uint32{0}}}, nil
}

// Postings returns the postings of term in the named field — document
// numbers, ascending, and the term's frequency in each — and the field's
// length by document number. The slices belong to the segment: read, never
// write. It is what a ranker reads instead of iterating Posting values.
func (s *Segment) Postings(name, term string) (docs, freqs, lens []uint32) {
	i := s.find(name)
	if i < 0 {
		return nil, nil, nil
	}
	f := &s.fields[i]
	t, ok := f.lookup(term)
	if !ok {
		return nil, nil, f.lens
	}
	docs, freqs = f.postingsOf(t)
	return docs, freqs, f.lens
}

// Lengths returns the named field's length in terms by document number
// (zero where a document lacks the field), or nil if no document of the
// segment has it. The slice belongs to the segment: read, never write.
func (s *Segment) Lengths(name string) []uint32 {
	if i := s.find(name); i >= 0 {
		return s.fields[i].lens
	}
	return nil
}

// DocFreq is how many documents of the segment hold term in the named
// field, deleted ones included, without decoding the postings: what a
// ranker asks of many candidate terms (pseudo-relevance feedback) before
// it reads the postings of a few.
func (s *Segment) DocFreq(name, term string) int {
	i := s.find(name)
	if i < 0 {
		return 0
	}
	t, ok := s.fields[i].lookup(term)
	if !ok {
		return 0
	}
	return s.fields[i].df(t)
}

// postingsOf returns term t's document numbers and frequencies.
func (f *field) postingsOf(t int) (docs, freqs []uint32) {
	if f.raw == nil {
		a, b := f.start[t], f.start[t+1]
		return f.docs[a:b], f.freqs[a:b]
	}
	// Two searches may decode the same term at once; both get the same.
	p := f.loaded[t].Load()
	if p == nil {
		p = decodePostings(f.raw[f.at[2*t]:f.at[2*t+1]], f.df(t))
		f.loaded[t].Store(p)
	}
	return p.docs, p.freqs
}

// lookup finds term in the field's dictionary.
func (f *field) lookup(term string) (int, bool) {
	i := sort.SearchStrings(f.terms, term)
	return i, i < len(f.terms) && f.terms[i] == term
}

// VisitStoredFields implements segment.Segment; the id is the only stored
// field.
func (s *Segment) VisitStoredFields(num uint64, visitor segment.StoredFieldValueVisitor) error {
	if num >= uint64(len(s.ids)) {
		return fmt.Errorf("flatseg: document number %d out of range (segment has %d)", num, len(s.ids))
	}
	visitor(IDField, 't', []byte(s.ids[num]), nil)
	return nil
}

// DocID implements segment.Segment.
func (s *Segment) DocID(num uint64) ([]byte, error) {
	if num >= uint64(len(s.ids)) {
		return nil, fmt.Errorf("flatseg: document number %d out of range (segment has %d)", num, len(s.ids))
	}
	return []byte(s.ids[num]), nil
}

// Count implements segment.Segment.
func (s *Segment) Count() uint64 { return uint64(len(s.ids)) }

// DocNumbers implements segment.Segment: the numbers of the documents with
// the given ids. Scorch calls it on every segment for every batch, to mark
// replaced documents, so it binary-searches the sorted ids.
func (s *Segment) DocNumbers(ids []string) (*roaring.Bitmap, error) {
	rv := roaring.New()
	f := &s.fields[0]
	for _, id := range ids {
		if t, ok := f.lookup(id); ok {
			docs, _ := f.postingsOf(t)
			rv.Add(docs[0])
		}
	}
	return rv, nil
}

// Fields implements segment.Segment.
func (s *Segment) Fields() []string {
	out := make([]string, len(s.fields))
	for i := range s.fields {
		out[i] = s.fields[i].name
	}
	return out
}

// Close implements segment.Segment; memory is the garbage collector's.
func (s *Segment) Close() error { return nil }

// Size implements segment.Segment: about how many bytes the segment holds.
func (s *Segment) Size() int { return s.size }

// AddRef and DecRef implement segment.Segment's reference counting, which
// matters only for segments on disk.
func (s *Segment) AddRef() { s.refs.Add(1) }

// DecRef implements segment.Segment.
func (s *Segment) DecRef() error {
	s.refs.Add(-1)
	return nil
}

// BytesRead, ResetBytesRead and BytesWritten implement
// segment.DiskStatsReporter: nothing touches a disk.
func (s *Segment) BytesRead() uint64     { return 0 }
func (s *Segment) ResetBytesRead(uint64) {}
func (s *Segment) BytesWritten() uint64  { return 0 }

// normOf is zap's norm for a field length: 1/√length, rounded to a float32.
func normOf(length uint32) float64 { return float64(float32(1 / math.Sqrt(float64(length)))) }

// df is the number of documents holding term t.
func (f *field) df(t int) int { return int(f.start[t+1] - f.start[t]) }

// computeSize estimates the bytes the segment holds, for Size.
func (s *Segment) computeSize() {
	n := 64 + s.raw
	for _, id := range s.ids {
		n += 16 + len(id)
	}
	for i := range s.fields {
		f := &s.fields[i]
		for _, t := range f.terms {
			n += 16 + len(t)
		}
		n += 4*(len(f.start)+len(f.docs)+len(f.freqs)+len(f.lens)+len(f.at)) + 8*len(f.loaded)
	}
	s.size = n
}

// Terms returns the named field's terms, sorted: what a dictionary lookup
// by prefix or by edit distance reads. The slice belongs to the segment:
// read, never write.
func (s *Segment) Terms(name string) []string {
	if i := s.find(name); i >= 0 {
		return s.fields[i].terms
	}
	return nil
}
