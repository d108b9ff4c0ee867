package knowledge

import (
	"sync"

	index "github.com/blevesearch/bleve_index_api"
)

// Why a field type of our own: bleve's TextField analyses into a token
// stream (a struct and a pointer per word), then counts it into term
// frequencies with a second hash of every word. In WASM, where strings hash
// in software, analysing chunks was a quarter of all indexing time.
// analyzedField walks the text once: each word is looked up in the
// analyzer's cache, which gives its term and a dense id, and counted in an
// array; only distinct terms reach the map bleve wants.

// analyzedField is an indexed, unstored text field without term vectors,
// the only kind the knowledge base indexes.
type analyzedField struct {
	name   string
	value  []byte
	an     *cachingAnalyzer
	length int
	freqs  index.TokenFrequencies
}

func newAnalyzedField(name string, value []byte, an *cachingAnalyzer) *analyzedField {
	return &analyzedField{name: name, value: value, an: an}
}

// Name, ArrayPositions, Options, Value, NumPlainTextBytes, Size,
// EncodedFieldType, AnalyzedLength and AnalyzedTokenFrequencies implement
// document.Field with the answers bleve's TextField gives for the same
// options.
func (f *analyzedField) Name() string                                     { return f.name }
func (f *analyzedField) ArrayPositions() []uint64                         { return nil }
func (f *analyzedField) Options() index.FieldIndexingOptions              { return index.IndexField }
func (f *analyzedField) Value() []byte                                    { return f.value }
func (f *analyzedField) NumPlainTextBytes() uint64                        { return uint64(len(f.value)) }
func (f *analyzedField) Size() int                                        { return 64 + len(f.name) + len(f.value) }
func (f *analyzedField) EncodedFieldType() byte                           { return 't' }
func (f *analyzedField) AnalyzedLength() int                              { return f.length }
func (f *analyzedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Analyze implements document.Field; bleve calls it from its analysis
// workers, possibly several at once.
func (f *analyzedField) Analyze() { f.length, f.freqs = f.an.frequencies(f.value) }

// freqScratch is one analysis's counting space, reused through a pool.
type freqScratch struct {
	count   []int32      // by term id; zero between uses
	entries []*termEntry // distinct terms, in order of first sight
}

var freqPool = sync.Pool{New: func() any { return new(freqScratch) }}

// frequencies analyses input as Analyze would and returns the number of
// terms kept and each distinct term's frequency, without term vectors.
func (a *cachingAnalyzer) frequencies(input []byte) (int, index.TokenFrequencies) {
	s := freqPool.Get().(*freqScratch)
	defer freqPool.Put(s)
	length := 0
	a.mu.RLock()
	gen := a.gen
	for i := 0; ; {
		start, end, typ, ok := nextWord(input, i)
		if !ok {
			break
		}
		i = end
		e, hit := a.terms[string(input[start:end])]
		if !hit {
			a.mu.RUnlock()
			var g int
			e, g = a.filter(input[start:end], start, end, typ)
			a.mu.RLock()
			if g != gen {
				// The cache started over while we counted: ids from two
				// generations would collide, so count this text the
				// plain way (rare: once per maxCachedTerms new words).
				a.mu.RUnlock()
				s.reset()
				return a.frequenciesSlow(input)
			}
		}
		if e.term == nil {
			continue
		}
		length++
		if int(e.id) >= len(s.count) {
			s.count = append(s.count, make([]int32, int(e.id)+1-len(s.count)+1024)...)
		}
		if s.count[e.id] == 0 {
			s.entries = append(s.entries, e)
		}
		s.count[e.id]++
	}
	a.mu.RUnlock()
	// One allocation for all TokenFreqs of the text.
	tfs := make([]index.TokenFreq, len(s.entries))
	out := make(index.TokenFrequencies, len(s.entries))
	for j, e := range s.entries {
		tfs[j].Term = e.term
		tfs[j].SetFrequency(int(s.count[e.id]))
		out[e.key] = &tfs[j]
	}
	s.reset()
	return length, out
}

// reset zeroes the counts used, keeping the arrays.
func (s *freqScratch) reset() {
	for _, e := range s.entries {
		s.count[e.id] = 0
	}
	clear(s.entries)
	s.entries = s.entries[:0]
}

// frequenciesSlow counts with a map, for when term ids cannot be trusted.
func (a *cachingAnalyzer) frequenciesSlow(input []byte) (int, index.TokenFrequencies) {
	tokens := a.Analyze(input)
	out := make(index.TokenFrequencies, len(tokens))
	for _, t := range tokens {
		tf, ok := out[string(t.Term)]
		if !ok {
			tf = &index.TokenFreq{Term: t.Term}
			out[string(t.Term)] = tf
		}
		tf.SetFrequency(tf.Frequency() + 1)
	}
	return len(tokens), out
}
