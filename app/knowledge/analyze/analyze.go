// Package analyze turns text into the terms the knowledge index holds: a
// word tokenizer of tinyRAG's own and bleve's English and German filter
// chains, behind a cache that filters each distinct word once. Indexing,
// ranking and the site bundle's query side all analyse text here, so a
// query's terms are exactly the terms the index was built with.
package analyze

import (
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/registry"
)

// Why a tokenizer of our own: in WASM, bleve's "unicode" tokenizer (a full
// UAX #29 word-break state machine) was the largest single cost of indexing
// (a fifth of all CPU time importing SciFact). Words are what tinyRAG needs:
// runs of letters and digits, with an apostrophe or dot inside a word
// ("don't", "e.g") and a dot or comma inside a number ("3.5", "10,000")
// kept, and each CJK ideograph a token of its own. Text in other scripts
// tokenizes like UAX #29 would for ordinary prose.

const wordsTokenizer = "tinyrag_words"

// The analyzers' names in bleve's registry.
const (
	NameEN = "tinyrag_en"
	NameDE = "tinyrag_de"
)

// Languages maps a knowledge base language to its analyzer's name.
var Languages = map[string]string{
	"en": NameEN,
	"de": NameDE,
}

// New returns a fresh analyzer for lang ("en" or "de") with a cache of its
// own.
func New(lang string) (analysis.Analyzer, error) {
	name, ok := Languages[lang]
	if !ok {
		return nil, fmt.Errorf("analyze: unsupported language %q (supported: en, de)", lang)
	}
	an, err := registry.NewCache().AnalyzerNamed(name)
	if err != nil {
		return nil, fmt.Errorf("analyze: bleve analyzer %q: %w", name, err)
	}
	return an, nil
}

func init() {
	registry.RegisterTokenizer(wordsTokenizer, func(map[string]interface{}, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	})
	// The filter chains are bleve's en and de analyzers' own.
	registerAnalyzer(NameEN, en.PossessiveName, lowercase.Name, en.StopName, porter.Name)
	registerAnalyzer(NameDE, lowercase.Name, de.StopName, de.NormalizeName, de.LightStemmerName)
}

func registerAnalyzer(name string, filters ...string) {
	registry.RegisterAnalyzer(name, func(_ map[string]interface{}, cache *registry.Cache) (analysis.Analyzer, error) {
		tok, err := cache.TokenizerNamed(wordsTokenizer)
		if err != nil {
			return nil, err
		}
		a := &cachingAnalyzer{tokenizer: tok, terms: map[string]*termEntry{}, ids: map[string]int32{}}
		for _, f := range filters {
			tf, err := cache.TokenFilterNamed(f)
			if err != nil {
				return nil, err
			}
			a.filters = append(a.filters, tf)
		}
		return a, nil
	})
}

// cachingAnalyzer runs the token filters once per distinct word. All the
// filters of the en and de chains (possessive, lower case, stop words,
// normalisation, stemming) look at one token at a time, so a word always
// comes out the same; Porter stemming in particular was a large share of
// indexing time in WASM, where the same words recur all the time.
type cachingAnalyzer struct {
	tokenizer analysis.Tokenizer
	filters   []analysis.TokenFilter

	mu    sync.RWMutex
	terms map[string]*termEntry // word → its filtered term
	ids   map[string]int32      // filtered term → id; words can share a term
	gen   int                   // bumped whenever terms starts over
}

// termEntry is a word's filtered term. Its id is the term's (not the
// word's: "cats" and "cat" share one), dense within one generation of the
// cache, so indexing counts term frequencies in an array
// instead of a second map (Frequencies).
type termEntry struct {
	term []byte // nil: the filters dropped the word
	key  string // term as a string, for index.TokenFrequencies keys
	id   int32
}

// maxCachedTerms bounds the cache; it starts over when full.
const maxCachedTerms = 1 << 18

// Analyze implements analysis.Analyzer.
func (a *cachingAnalyzer) Analyze(input []byte) analysis.TokenStream {
	tokens := a.tokenizer.Tokenize(input)
	out := tokens[:0]
	pos := 0
	for _, t := range tokens {
		a.mu.RLock()
		e, ok := a.terms[string(t.Term)]
		a.mu.RUnlock()
		if !ok {
			e, _ = a.filter(t.Term, t.Start, t.End, t.Type)
		}
		if e.term == nil {
			continue
		}
		pos++
		t.Term, t.Position = e.term, pos
		out = append(out, t)
	}
	return out
}

// filter runs the filter chain on a copy of one word, caches the result and
// returns it with the cache generation it belongs to.
func (a *cachingAnalyzer) filter(w []byte, start, end int, typ analysis.TokenType) (*termEntry, int) {
	word := string(w)
	one := analysis.TokenStream{&analysis.Token{Term: []byte(word), Start: start, End: end, Position: 1, Type: typ}}
	for _, f := range a.filters {
		one = f.Filter(one)
	}
	e := &termEntry{}
	// No en/de filter splits tokens; should one, keep the first.
	if len(one) > 0 {
		e.term = one[0].Term
		e.key = string(e.term)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.terms) >= maxCachedTerms {
		a.terms = map[string]*termEntry{}
		a.ids = map[string]int32{}
		a.gen++
	}
	id, ok := a.ids[e.key]
	if !ok {
		id = int32(len(a.ids))
		a.ids[e.key] = id
	}
	e.id = id
	a.terms[word] = e
	return e, a.gen
}

// wordTokenizer implements analysis.Tokenizer; see the comment above.
type wordTokenizer struct{}

type runeClass uint8

const (
	other runeClass = iota
	letter
	digit
	ideograph
)

var asciiClass = func() (t [128]runeClass) {
	for c := '0'; c <= '9'; c++ {
		t[c] = digit
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = letter
		t[c-'a'+'A'] = letter
	}
	t['_'] = letter
	return t
}()

func classify(r rune) runeClass {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	switch {
	case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
		return ideograph
	case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
		return letter
	case unicode.IsDigit(r):
		return digit
	}
	return other
}

func decode(b []byte, i int) (rune, int) {
	if b[i] < utf8.RuneSelf {
		return rune(b[i]), 1
	}
	return utf8.DecodeRune(b[i:])
}

// Tokenize implements analysis.Tokenizer.
func (wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	// One backing array for all tokens: a heap object per token was a
	// visible cost in WASM.
	est := len(input)/6 + 1
	out := make(analysis.TokenStream, 0, est)
	backing := make([]analysis.Token, 0, est)
	pos := 1
	for i := 0; ; pos++ {
		start, end, typ, ok := nextWord(input, i)
		if !ok {
			break
		}
		i = end
		if len(backing) == cap(backing) {
			backing = make([]analysis.Token, 0, est)
		}
		backing = append(backing, analysis.Token{Term: input[start:end], Start: start, End: end, Position: pos, Type: typ})
		out = append(out, &backing[len(backing)-1])
	}
	return out
}

// nextWord finds the first word at or after byte i of input; ok is false
// when there is none. Tokenize and the one-pass indexing analysis
// (Frequencies) share it, so both cut text the same way.
func nextWord(input []byte, i int) (start, end int, typ analysis.TokenType, ok bool) {
	for i < len(input) {
		var c runeClass
		n := 1
		if b := input[i]; b < utf8.RuneSelf {
			c = asciiClass[b]
		} else {
			var r rune
			r, n = utf8.DecodeRune(input[i:])
			c = classify(r)
		}
		if c == other {
			i += n
			continue
		}
		start := i
		if c == ideograph {
			return start, i + n, analysis.Ideographic, true
		}
		numeric := c == digit
		prev := c
		i += n
		for i < len(input) {
			// The common case, ASCII letters and digits, stays in this loop.
			if b := input[i]; b < utf8.RuneSelf && asciiClass[b] != other {
				c := asciiClass[b]
				numeric = numeric && c == digit
				prev = c
				i++
				continue
			}
			r, n := decode(input, i)
			c := classify(r)
			if c == letter || c == digit {
				numeric = numeric && c == digit
				prev = c
				i += n
				continue
			}
			// A joiner stays inside the token only between two word runes
			// of the right kinds.
			if i+n < len(input) && (r == '\'' || r == '’' || r == '.' || r == ',') {
				r2, _ := decode(input, i+n)
				c2 := classify(r2)
				if (prev == letter && c2 == letter && r != ',') || (prev == digit && c2 == digit && (r == '.' || r == ',')) {
					i += n
					continue
				}
			}
			break
		}
		if numeric {
			return start, i, analysis.Numeric, true
		}
		return start, i, analysis.AlphaNumeric, true
	}
	return 0, 0, 0, false
}

// EachTerm calls fn with each term of input that the filters keep and its
// position (1, 2, … over kept terms, as Analyze numbers them), without
// building a token stream: ranking analyses chunk text again at query
// time (RM3 feedback, proximity), where Analyze's allocations showed.
func EachTerm(an analysis.Analyzer, input []byte, fn func(term string, pos int)) {
	a, ok := an.(*cachingAnalyzer)
	if !ok {
		for _, t := range an.Analyze(input) {
			fn(string(t.Term), t.Position)
		}
		return
	}
	pos := 0
	for i := 0; ; {
		start, end, typ, ok := nextWord(input, i)
		if !ok {
			return
		}
		i = end
		a.mu.RLock()
		e, hit := a.terms[string(input[start:end])]
		a.mu.RUnlock()
		if !hit {
			e, _ = a.filter(input[start:end], start, end, typ)
		}
		if e.term == nil {
			continue
		}
		pos++
		fn(e.key, pos)
	}
}

// Word is one word of a text as typed, and the term it analyses to.
type Word struct {
	// Word is the text of the word; Start and End its byte offsets.
	Word       string
	Start, End int
	// Term is the word's term, "" when the filters drop it (a stop word).
	Term string
}

// Words cuts input into words as the index's tokenizer does and analyses
// each: what search as you type needs to tell the word still being typed
// from the rest.
func Words(an analysis.Analyzer, input []byte) []Word {
	var out []Word
	for i := 0; ; {
		start, end, _, ok := nextWord(input, i)
		if !ok {
			return out
		}
		i = end
		w := Word{Word: string(input[start:end]), Start: start, End: end}
		if ts := an.Analyze(input[start:end]); len(ts) > 0 {
			w.Term = string(ts[0].Term)
		}
		out = append(out, w)
	}
}
