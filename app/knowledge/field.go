package knowledge

import (
	"sync"

	index "github.com/blevesearch/bleve_index_api"

	"tinyrag/app/knowledge/flatseg"
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
	terms  []flatseg.Term
}

func newAnalyzedField(name string, value []byte, an *cachingAnalyzer) *analyzedField {
	return &analyzedField{name: name, value: value, an: an}
}

// Name, ArrayPositions, Options, Value, NumPlainTextBytes, Size,
// EncodedFieldType and AnalyzedLength implement
// document.Field with the answers bleve's TextField gives for the same
// options.
func (f *analyzedField) Name() string                        { return f.name }
func (f *analyzedField) ArrayPositions() []uint64            { return nil }
func (f *analyzedField) Options() index.FieldIndexingOptions { return index.IndexField }
func (f *analyzedField) Value() []byte                       { return f.value }
func (f *analyzedField) NumPlainTextBytes() uint64           { return uint64(len(f.value)) }
func (f *analyzedField) Size() int                           { return 64 + len(f.name) + len(f.value) }
func (f *analyzedField) EncodedFieldType() byte              { return 't' }
func (f *analyzedField) AnalyzedLength() int                 { return f.length }

// Terms implements flatseg.TermLister: the analysis as the segment builder
// takes it, terms with the analyzer cache's ids.
func (f *analyzedField) Terms() (int, []flatseg.Term) { return f.length, f.terms }

// AnalyzedTokenFrequencies implements document.Field. The segment builder
// reads Terms instead; this map is for anyone else.
func (f *analyzedField) AnalyzedTokenFrequencies() index.TokenFrequencies {
	out := make(index.TokenFrequencies, len(f.terms))
	for _, t := range f.terms {
		tf := &index.TokenFreq{Term: []byte(t.Key)}
		tf.SetFrequency(int(t.Freq))
		out[t.Key] = tf
	}
	return out
}

// Analyze implements document.Field; bleve calls it from its analysis
// workers, possibly several at once.
func (f *analyzedField) Analyze() { f.length, f.terms = f.an.frequencies(f.value) }

// freqScratch is one analysis's counting space, reused through a pool.
type freqScratch struct {
	count   []int32      // by term id; zero between uses
	entries []*termEntry // distinct terms, in order of first sight
}

var freqPool = sync.Pool{New: func() any { return new(freqScratch) }}

// frequencies analyses input as Analyze would and returns the number of
// terms kept and each distinct term with its frequency and cache id.
func (a *cachingAnalyzer) frequencies(input []byte) (int, []flatseg.Term) {
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
	out := make([]flatseg.Term, len(s.entries))
	for j, e := range s.entries {
		out[j] = flatseg.Term{Key: e.key, ID: e.id, Freq: uint32(s.count[e.id])}
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

// frequenciesSlow counts with a map, for when term ids cannot be trusted;
// its terms carry no id.
func (a *cachingAnalyzer) frequenciesSlow(input []byte) (int, []flatseg.Term) {
	tokens := a.Analyze(input)
	at := make(map[string]int, len(tokens))
	var out []flatseg.Term
	for _, t := range tokens {
		i, ok := at[string(t.Term)]
		if !ok {
			i = len(out)
			at[string(t.Term)] = i
			out = append(out, flatseg.Term{Key: string(t.Term), ID: -1})
		}
		out[i].Freq++
	}
	return len(tokens), out
}
