package flatseg

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	index "github.com/blevesearch/bleve_index_api"
)

// Term is one distinct term of an analysed field and how often it occurs.
type Term struct {
	Key string
	// ID is a small number standing for Key, the same for the same key
	// throughout one Builder's life (an analyzer's term cache id), or -1.
	// With ids, building indexes arrays instead of hashing strings; an id
	// that turns out to name another key is looked up by key instead, so a
	// stale id costs time, never correctness.
	ID   int32
	Freq uint32
}

// Builder collects analysed documents for one Segment. It is not safe for
// concurrent use, and is done once Build has been called.
type Builder struct {
	ids    []string
	names  []string // indexed fields, in order of first sight
	fields [][]fieldDoc
	built  bool
}

// fieldDoc is one document's terms in one field.
type fieldDoc struct {
	doc    uint32
	length uint32
	terms  []Term
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{} }

// AddDocument starts the next document; the fields added after it belong
// to it. Ids must be distinct; Build numbers the documents in id order.
func (b *Builder) AddDocument(id string) {
	b.ids = append(b.ids, id)
}

// AddField adds a field of the current document: its length in terms and
// its distinct terms. The Builder keeps terms until Build. A field added
// twice to one document (bleve allows that) counts as one, as in zap.
func (b *Builder) AddField(name string, length int, terms []Term) {
	if len(b.ids) == 0 {
		panic("flatseg: AddField before AddDocument")
	}
	if name == IDField {
		return // the id field is built from the ids
	}
	i := slices.Index(b.names, name)
	if i < 0 {
		i = len(b.names)
		b.names = append(b.names, name)
		b.fields = append(b.fields, nil)
	}
	doc := uint32(len(b.ids) - 1)
	if fds := b.fields[i]; len(fds) > 0 && fds[len(fds)-1].doc == doc {
		last := &fds[len(fds)-1]
		last.length += uint32(length)
		last.terms = mergeTerms(last.terms, terms)
		return
	}
	b.fields[i] = append(b.fields[i], fieldDoc{doc: doc, length: uint32(length), terms: terms})
}

// TermLister is a bleve field that can hand over its analysis as Terms
// with ids, sparing the Builder the TokenFrequencies map (knowledge's own
// field type does).
type TermLister interface {
	index.Field
	Terms() (length int, terms []Term)
}

// AddIndexDocument adds an analysed bleve document: its id and its indexed
// fields, read through TermLister where a field offers it and through
// AnalyzedTokenFrequencies (terms without ids) otherwise. Scorch's own
// _id field is skipped; the id is indexed from the document's ID.
func (b *Builder) AddIndexDocument(doc index.Document) {
	b.AddDocument(doc.ID())
	doc.VisitFields(func(f index.Field) {
		if !f.Options().IsIndexed() {
			return
		}
		if tl, ok := f.(TermLister); ok {
			length, terms := tl.Terms()
			b.AddField(f.Name(), length, terms)
			return
		}
		tfs := f.AnalyzedTokenFrequencies()
		terms := make([]Term, 0, len(tfs))
		for k, tf := range tfs {
			terms = append(terms, Term{Key: k, ID: -1, Freq: uint32(tf.Frequency())})
		}
		b.AddField(f.Name(), f.AnalyzedLength(), terms)
	})
}

// mergeTerms adds the frequencies of b's terms to a's, in a new slice.
func mergeTerms(a, b []Term) []Term {
	out := slices.Clone(a)
	at := make(map[string]int, len(a)+len(b))
	for i, t := range out {
		at[t.Key] = i
	}
	for _, t := range b {
		if i, ok := at[t.Key]; ok {
			out[i].Freq += t.Freq
			continue
		}
		at[t.Key] = len(out)
		out = append(out, t)
	}
	return out
}

// Build returns the segment, or an error if two documents have the same id
// (scorch never puts two in one batch).
//
// Documents are numbered in id order: the id field's dictionary is then the
// id list itself, DocNumbers a binary search in it, and loading a saved
// segment needs no sorting.
func (b *Builder) Build() (*Segment, error) {
	if b.built {
		return nil, errors.New("flatseg: Build called twice on one Builder")
	}
	b.built = true
	n := len(b.ids)
	perm := make([]uint32, n) // new number → old
	for i := range perm {
		perm[i] = uint32(i)
	}
	slices.SortFunc(perm, func(x, y uint32) int { return strings.Compare(b.ids[x], b.ids[y]) })
	renumber := make([]uint32, n) // old number → new
	ids := make([]string, n)
	for to, from := range perm {
		renumber[from] = uint32(to)
		ids[to] = b.ids[from]
		if to > 0 && ids[to] == ids[to-1] {
			return nil, fmt.Errorf("flatseg: document id %q added twice", ids[to])
		}
	}
	s := &Segment{ids: ids}
	s.fields = make([]field, 0, 1+len(b.names))
	s.fields = append(s.fields, idField(ids))
	order := make([]int, len(b.names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return b.names[order[x]] < b.names[order[y]] })
	for _, i := range order {
		docs := b.fields[i]
		for j := range docs {
			docs[j].doc = renumber[docs[j].doc]
		}
		slices.SortFunc(docs, func(x, y fieldDoc) int { return cmp.Compare(x.doc, y.doc) })
		s.fields = append(s.fields, buildField(b.names[i], n, docs))
	}
	s.computeSize()
	return s, nil
}

// idField indexes each document's id as its one term; ids are sorted and
// distinct, so document d's id is term d.
func idField(ids []string) field {
	n := len(ids)
	f := field{name: IDField, terms: ids, start: make([]uint32, n+1),
		docs: make([]uint32, n), freqs: make([]uint32, n), lens: make([]uint32, n)}
	for i := range f.docs {
		f.docs[i] = uint32(i)
		f.start[i+1] = uint32(i + 1)
		f.freqs[i], f.lens[i] = 1, 1
	}
	return f
}

// buildField inverts one field in two passes over its terms: the first
// gives every distinct term a slot and counts its documents, the second,
// once the slots are in term order, writes the postings into place.
func buildField(name string, numDocs int, docs []fieldDoc) field {
	f := field{name: name, lens: make([]uint32, numDocs)}
	var (
		keys  []string
		df    []uint32
		byKey = map[string]int32{} // slot by key: once per distinct term
		slots []int32              // each term occurrence's slot, in order
	)
	total := 0
	maxID := int32(-1)
	for _, fd := range docs {
		total += len(fd.terms)
		for _, t := range fd.terms {
			maxID = max(maxID, t.ID)
		}
	}
	dense := make([]int32, maxID+1) // slot+1 by term id
	slots = make([]int32, 0, total)
	slotOfKey := func(key string) int32 {
		s, ok := byKey[key]
		if !ok {
			s = int32(len(keys))
			keys = append(keys, key)
			df = append(df, 0)
			byKey[key] = s
		}
		return s
	}
	for _, fd := range docs {
		f.lens[fd.doc] = fd.length
		for _, t := range fd.terms {
			var s int32
			switch {
			case t.ID < 0:
				s = slotOfKey(t.Key)
			case dense[t.ID] == 0:
				s = slotOfKey(t.Key)
				dense[t.ID] = s + 1
			default:
				s = dense[t.ID] - 1
				if keys[s] != t.Key {
					s = slotOfKey(t.Key) // a stale id
				}
			}
			df[s]++
			slots = append(slots, s)
		}
	}
	// Order the slots by term; rank[slot] is the term's place.
	bySlot := make([]int32, len(keys))
	for i := range bySlot {
		bySlot[i] = int32(i)
	}
	slices.SortFunc(bySlot, func(x, y int32) int { return strings.Compare(keys[x], keys[y]) })
	rank := make([]int32, len(keys))
	f.terms = make([]string, len(keys))
	f.start = make([]uint32, len(keys)+1)
	for r, s := range bySlot {
		rank[s] = int32(r)
		f.terms[r] = keys[s]
		f.start[r+1] = f.start[r] + df[s]
	}
	f.docs = make([]uint32, total)
	f.freqs = make([]uint32, total)
	next := slices.Clone(f.start[:len(keys)])
	i := 0
	for _, fd := range docs {
		for _, t := range fd.terms {
			r := rank[slots[i]]
			i++
			p := next[r]
			next[r]++
			f.docs[p], f.freqs[p] = fd.doc, t.Freq
		}
	}
	return f
}
