package analyze

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"

	"tinyrag/app/knowledge/flatseg"
)

// Why counting of our own: bleve's TextField analyses into a token stream
// (a struct and a pointer per word), then counts it into term frequencies
// with a second hash of every word. In WASM, where strings hash in
// software, analysing chunks was a quarter of all indexing time.
// Frequencies walks the text once: each word is looked up in the
// analyzer's cache, which gives its term and a dense id, and counted in an
// array; only distinct terms are handed on.

// Frequencies analyses input as an.Analyze would and returns the number of
// terms kept and each distinct term with its frequency, in order of first
// occurrence. With one of this package's analyzers the terms carry the
// cache's dense ids (flatseg.Term.ID); with another analyzer, or when the
// cache started over while counting, the ids are -1.
func Frequencies(an analysis.Analyzer, input []byte) (int, []flatseg.Term) {
	if a, ok := an.(*cachingAnalyzer); ok {
		return a.frequencies(input)
	}
	return frequenciesSlow(an, input)
}

// freqScratch is one analysis's counting space, reused through a pool.
type freqScratch struct {
	count   []int32      // by term id; zero between uses
	entries []*termEntry // distinct terms, in order of first sight
}

var freqPool = sync.Pool{New: func() any { return new(freqScratch) }}

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
				return frequenciesSlow(a, input)
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
func frequenciesSlow(an analysis.Analyzer, input []byte) (int, []flatseg.Term) {
	tokens := an.Analyze(input)
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
