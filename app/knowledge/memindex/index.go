// Package memindex is the knowledge base's index: bleve's scorch in
// memory, made of flat segments (package flatseg) through a segment plugin
// of its own, with two fields per chunk (title and body), analysed in one
// pass. It saves its segments for a fast reload and adopts saved ones
// again (segments.go), and it is what the ranker reads (rank.Index's
// segments, and the dictionary of search as you type).
package memindex

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"tinyrag/app/knowledge/rank"
)

// Index field names: the ranker's.
const (
	fieldTitle = rank.FieldTitle
	fieldBody  = rank.FieldBody
)

// Analyzer returns bleve's analyzer registered under name, as the index's
// mapping (newMapping) resolves it.
func Analyzer(name string) (analysis.Analyzer, error) {
	an := newMapping(name).AnalyzerNamed(name)
	if an == nil {
		return nil, fmt.Errorf("knowledge: bleve analyzer %q is not registered", name)
	}
	return an, nil
}

// newMapping declares two analyzed, unstored fields. Nothing is stored and
// no term vectors are kept: the knowledge base holds the chunk text itself
// and highlights on its own, which keeps indexing and snapshots lean.
func newMapping(analyzer string) *mapping.IndexMappingImpl {
	m := mapping.NewIndexMapping()
	m.ScoringModel = index.BM25Scoring
	m.DefaultAnalyzer = analyzer
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	field := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	dm := mapping.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fieldTitle, field())
	dm.AddFieldMappingsAt(fieldBody, field())
	m.DefaultMapping = dm
	return m
}

// Index is the in-memory scorch index, used without bleve's top-level
// package: that package also links the upsidedown index and its protobuf
// code (about 2.5 MB of gzip in app.wasm) that tinyRAG never uses. Its
// methods are safe for concurrent use, as scorch's are.
type Index struct{ index.Index }

// Advanced returns the scorch index itself (bleve.Index's name for it).
func (m Index) Advanced() (index.Index, error) { return m.Index, nil }

// NewBatch starts a batch of updates and deletions.
func (m Index) NewBatch() *index.Batch { return index.NewBatch() }

// snapshot opens a consistent read view of the index's segments. The
// caller must Close it.
func (m Index) snapshot() (*scorch.IndexSnapshot, error) {
	r, err := m.Reader()
	if err != nil {
		return nil, fmt.Errorf("knowledge: open index reader: %w", err)
	}
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		r.Close()
		return nil, fmt.Errorf("knowledge: index reader is %T, not a scorch snapshot", r)
	}
	return snap, nil
}

// analysisQueue analyzes batched documents, as bleve's global one does.
var analysisQueue = index.NewAnalysisQueue(4)

// Open creates an empty in-memory scorch index. The path "" keeps it in
// memory; scorch indexes markedly faster than the upsidedown MemOnly store,
// most of all in WASM. It forces tinyRAG's segment plugin (flat segments
// and snapshot loading, see segments.go). No mapping is needed by scorch:
// NewDocument builds analyzed documents itself.
func Open() (Index, error) {
	idx, err := scorch.NewScorch(scorch.Name, map[string]interface{}{
		"path":                "",
		"forceSegmentType":    segmentType,
		"forceSegmentVersion": segmentVersion,
	}, analysisQueue)
	if err == nil {
		err = idx.Open()
	}
	if err != nil {
		return Index{}, fmt.Errorf("knowledge: create bleve index: %w", err)
	}
	return Index{idx}, nil
}

// NewDocument builds the index document of a chunk directly, skipping
// bleve's reflection-based mapping: the fields are fixed. title is ""
// except for a document's first chunk: the title bonus is per document,
// so only the first chunk carries the title field (less to index, and
// title statistics count documents). body is all the chunk's indexed text.
func NewDocument(an analysis.Analyzer, id, title, body string) *document.Document {
	d := document.NewDocument(id)
	if title != "" {
		d.AddField(newAnalyzedField(fieldTitle, []byte(title), an))
	}
	d.AddField(newAnalyzedField(fieldBody, []byte(body), an))
	return d
}
