package flatseg

import (
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// Dictionary is one field's terms; it implements segment.TermDictionary.
type Dictionary struct{ f *field }

// Cardinality implements segment.TermDictionary: the number of distinct
// terms. (Scorch sums it over segments for bleve's BM25 average length.)
func (d *Dictionary) Cardinality() int { return len(d.f.terms) }

// Contains implements segment.TermDictionary.
func (d *Dictionary) Contains(key []byte) (bool, error) {
	_, ok := d.f.lookup(string(key))
	return ok, nil
}

// PostingsList implements segment.TermDictionary. Documents in except are
// left out; prealloc is reused when it is one of ours.
func (d *Dictionary) PostingsList(term []byte, except *roaring.Bitmap, prealloc segment.PostingsList) (segment.PostingsList, error) {
	pl, _ := prealloc.(*PostingsList)
	if pl == nil {
		pl = &PostingsList{}
	}
	*pl = PostingsList{lens: d.f.lens, except: except}
	if t, ok := d.f.lookup(string(term)); ok {
		pl.docs, pl.freqs = d.f.postingsOf(t)
	}
	return pl, nil
}

// AutomatonIterator implements segment.TermDictionary: the terms from
// startKeyInclusive (nil: the first) up to endKeyExclusive (nil: the end)
// that automaton a accepts (nil: all of them), in order.
func (d *Dictionary) AutomatonIterator(a segment.Automaton, startKeyInclusive, endKeyExclusive []byte) segment.DictionaryIterator {
	i := 0
	if startKeyInclusive != nil {
		i = sort.SearchStrings(d.f.terms, string(startKeyInclusive))
	}
	return &DictionaryIterator{f: d.f, next: i, end: endKeyExclusive, a: a}
}

// DictionaryIterator walks a dictionary's terms; it implements
// segment.DictionaryIterator.
type DictionaryIterator struct {
	f     *field
	next  int
	end   []byte
	a     segment.Automaton
	entry index.DictEntry
}

// Next implements segment.DictionaryIterator: the next term and how many
// documents hold it, or nil at the end.
func (it *DictionaryIterator) Next() (*index.DictEntry, error) {
	for ; it.next < len(it.f.terms); it.next++ {
		t := it.f.terms[it.next]
		if it.end != nil && t >= string(it.end) {
			it.next = len(it.f.terms)
			break
		}
		if it.a != nil && !accepts(it.a, t) {
			continue
		}
		df := it.f.df(it.next)
		it.next++
		it.entry = index.DictEntry{Term: t, Count: uint64(df)}
		return &it.entry, nil
	}
	return nil, nil
}

// accepts runs the automaton over term.
func accepts(a segment.Automaton, term string) bool {
	s := a.Start()
	for i := 0; i < len(term); i++ {
		if !a.CanMatch(s) {
			return false
		}
		if a.WillAlwaysMatch(s) {
			return true
		}
		s = a.Accept(s, term[i])
	}
	return a.IsMatch(s)
}

// PostingsList is one term's postings; it implements segment.PostingsList.
type PostingsList struct {
	docs, freqs []uint32
	lens        []uint32
	except      *roaring.Bitmap
}

// Count implements segment.PostingsList: the documents not excepted.
func (pl *PostingsList) Count() uint64 {
	n := uint64(len(pl.docs))
	if pl.except != nil && !pl.except.IsEmpty() {
		for _, d := range pl.docs {
			if pl.except.Contains(d) {
				n--
			}
		}
	}
	return n
}

// Size implements segment.PostingsList.
func (pl *PostingsList) Size() int { return 64 }

// Iterator implements segment.PostingsList. Frequencies and norms are
// always there; locations never are (term vectors are not kept).
func (pl *PostingsList) Iterator(includeFreq, includeNorm, includeLocations bool, prealloc segment.PostingsIterator) segment.PostingsIterator {
	it, _ := prealloc.(*PostingsIterator)
	if it == nil {
		it = &PostingsIterator{}
	}
	*it = PostingsIterator{pl: pl}
	return it
}

// BytesRead, ResetBytesRead and BytesWritten implement
// segment.DiskStatsReporter.
func (pl *PostingsList) BytesRead() uint64     { return 0 }
func (pl *PostingsList) ResetBytesRead(uint64) {}
func (pl *PostingsList) BytesWritten() uint64  { return 0 }

// PostingsIterator walks a postings list; it implements
// segment.PostingsIterator.
type PostingsIterator struct {
	pl      *PostingsList
	next    int
	posting Posting
}

// Next implements segment.PostingsIterator. The Posting returned is reused
// by the next call.
func (it *PostingsIterator) Next() (segment.Posting, error) {
	return it.from(it.next)
}

// Advance implements segment.PostingsIterator: the posting of docNum, or of
// the first document after it.
func (it *PostingsIterator) Advance(docNum uint64) (segment.Posting, error) {
	docs := it.pl.docs[it.next:]
	i := sort.Search(len(docs), func(i int) bool { return uint64(docs[i]) >= docNum })
	return it.from(it.next + i)
}

// from returns the first posting at or after i that is not excepted.
func (it *PostingsIterator) from(i int) (segment.Posting, error) {
	pl := it.pl
	for ; i < len(pl.docs); i++ {
		d := pl.docs[i]
		if pl.except != nil && pl.except.Contains(d) {
			continue
		}
		it.next = i + 1
		var length uint32
		if int(d) < len(pl.lens) {
			length = pl.lens[d]
		}
		it.posting = Posting{num: d, freq: pl.freqs[i], length: length}
		return &it.posting, nil
	}
	it.next = len(pl.docs)
	return nil, nil
}

// Size implements segment.PostingsIterator.
func (it *PostingsIterator) Size() int { return 64 }

// BytesRead, ResetBytesRead and BytesWritten implement
// segment.DiskStatsReporter.
func (it *PostingsIterator) BytesRead() uint64     { return 0 }
func (it *PostingsIterator) ResetBytesRead(uint64) {}
func (it *PostingsIterator) BytesWritten() uint64  { return 0 }

// Posting is one document's entry in a postings list; it implements
// segment.Posting.
type Posting struct {
	num, freq, length uint32
}

// Number implements segment.Posting: the document number.
func (p *Posting) Number() uint64 { return uint64(p.num) }

// Frequency implements segment.Posting.
func (p *Posting) Frequency() uint64 { return uint64(p.freq) }

// Norm implements segment.Posting as zap does: 1/√(field length), rounded
// to a float32.
func (p *Posting) Norm() float64 { return normOf(p.length) }

// FieldLength is the length in terms of the field the posting is in.
func (p *Posting) FieldLength() uint64 { return uint64(p.length) }

// Locations implements segment.Posting; there are none.
func (p *Posting) Locations() []segment.Location { return nil }

// Size implements segment.Posting.
func (p *Posting) Size() int { return 16 }
