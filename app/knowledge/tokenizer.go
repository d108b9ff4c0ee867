package knowledge

import (
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

const (
	wordsTokenizer = "tinyrag_words"
	analyzerEN     = "tinyrag_en"
	analyzerDE     = "tinyrag_de"
)

func init() {
	registry.RegisterTokenizer(wordsTokenizer, func(map[string]interface{}, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	})
	// The filter chains are bleve's en and de analyzers' own.
	registerAnalyzer(analyzerEN, en.PossessiveName, lowercase.Name, en.StopName, porter.Name)
	registerAnalyzer(analyzerDE, lowercase.Name, de.StopName, de.NormalizeName, de.LightStemmerName)
}

func registerAnalyzer(name string, filters ...string) {
	registry.RegisterAnalyzer(name, func(_ map[string]interface{}, cache *registry.Cache) (analysis.Analyzer, error) {
		tok, err := cache.TokenizerNamed(wordsTokenizer)
		if err != nil {
			return nil, err
		}
		a := &analysis.DefaultAnalyzer{Tokenizer: tok}
		for _, f := range filters {
			tf, err := cache.TokenFilterNamed(f)
			if err != nil {
				return nil, err
			}
			a.TokenFilters = append(a.TokenFilters, tf)
		}
		return a, nil
	})
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
	out := make(analysis.TokenStream, 0, len(input)/6+1)
	pos := 1
	for i := 0; i < len(input); {
		r, n := decode(input, i)
		c := classify(r)
		if c == other {
			i += n
			continue
		}
		start := i
		if c == ideograph {
			i += n
			out = append(out, &analysis.Token{Term: input[start:i], Start: start, End: i, Position: pos, Type: analysis.Ideographic})
			pos++
			continue
		}
		numeric := c == digit
		prev := c
		i += n
		for i < len(input) {
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
		typ := analysis.AlphaNumeric
		if numeric {
			typ = analysis.Numeric
		}
		out = append(out, &analysis.Token{Term: input[start:i], Start: start, End: i, Position: pos, Type: typ})
		pos++
	}
	return out
}
