package memindex

import (
	"maps"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"tinyrag/app/knowledge/analyze"
)

// bleveFrequencies is what bleve's own TextField makes of value.
func bleveFrequencies(an analysis.Analyzer, value string) (int, map[string]int) {
	f := document.NewTextFieldCustom("body", nil, []byte(value), index.IndexField, an)
	f.Analyze()
	return f.AnalyzedLength(), counts(f.AnalyzedTokenFrequencies())
}

func counts(tfs index.TokenFrequencies) map[string]int {
	out := map[string]int{}
	for k, tf := range tfs {
		if string(tf.Term) != k {
			panic("term " + string(tf.Term) + " under key " + k)
		}
		out[k] = tf.Frequency()
	}
	return out
}

func TestAnalyzedField_CountsWhatBleveTextFieldCounts(t *testing.T) {
	texts := []string{
		"",
		"The cat's cats sat on the mat; the CAT sat.",
		"Don't stop: e.g. 3.5 and 10,000 cells, 3.5 again.",
		"Fahrräder und Häuser in Zürich, naïve café – 東京 日本語",
		"running runs ran runner RUNNING",
		"a an the of to", // stop words only
		"Tumour necrosis factor-α (TNF-α) in p53−/− mice; IL-6 and IL-6R.",
	}
	for _, lang := range []string{"en", "de"} {
		an, err := Analyzer(analyze.Languages[lang])
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			// Twice: once filling the cache, once reading it.
			for round := 0; round < 2; round++ {
				wantLen, want := bleveFrequencies(an, text)
				f := newAnalyzedField("body", []byte(text), an)
				f.Analyze()
				if got := counts(f.AnalyzedTokenFrequencies()); f.AnalyzedLength() != wantLen || !maps.Equal(got, want) {
					t.Errorf("%s %q round %d: length %d, terms %v; bleve: length %d, terms %v", lang, text, round, f.AnalyzedLength(), got, wantLen, want)
				}
			}
		}
	}
}
