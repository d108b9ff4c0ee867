package memindex

import (
	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"

	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/flatseg"
)

// Why a field type of our own: bleve's TextField analyses into a token
// stream and counts it with a second hash of every word; analyzedField
// counts in one pass (analyze.Frequencies) and hands the segment builder
// terms with the analyzer cache's dense ids.

// analyzedField is an indexed, unstored text field without term vectors,
// the only kind the knowledge base indexes.
type analyzedField struct {
	name   string
	value  []byte
	an     analysis.Analyzer
	length int
	terms  []flatseg.Term
}

func newAnalyzedField(name string, value []byte, an analysis.Analyzer) *analyzedField {
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
func (f *analyzedField) Analyze() { f.length, f.terms = analyze.Frequencies(f.an, f.value) }
