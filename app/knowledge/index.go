package knowledge

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

// memIndex is the in-memory scorch index, used without bleve's top-level
// package: that package also links the upsidedown index and its protobuf
// code (about 2.5 MB of gzip in app.wasm) that tinyRAG never uses.
type memIndex struct{ index.Index }

// Advanced returns the scorch index itself (bleve.Index's name for it).
func (m memIndex) Advanced() (index.Index, error) { return m.Index, nil }

// NewBatch starts a batch of updates and deletions.
func (m memIndex) NewBatch() *index.Batch { return index.NewBatch() }

// snapshot opens a consistent read view of the index's segments. The
// caller must Close it.
func (m memIndex) snapshot() (*scorch.IndexSnapshot, error) {
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

// openIndex creates an empty in-memory scorch index. The path "" keeps it in
// memory; scorch indexes markedly faster than the upsidedown MemOnly store,
// most of all in WASM. It forces tinyRAG's segment plugin (flat segments
// and snapshot loading, see snapshot.go). The mapping is not needed by scorch:
// chunkDocument builds analyzed documents itself.
func openIndex(_ *mapping.IndexMappingImpl) (memIndex, error) {
	idx, err := scorch.NewScorch(scorch.Name, map[string]interface{}{
		"path":                "",
		"forceSegmentType":    segmentType,
		"forceSegmentVersion": segmentVersion,
	}, analysisQueue)
	if err == nil {
		err = idx.Open()
	}
	if err != nil {
		return memIndex{}, fmt.Errorf("knowledge: create bleve index: %w", err)
	}
	return memIndex{idx}, nil
}

// chunkDocument builds the index document of a chunk directly, skipping
// bleve's reflection-based mapping: the fields are fixed.
func chunkDocument(an analysis.Analyzer, title string, c *Chunk) *document.Document {
	d := document.NewDocument(c.ID)
	// The title bonus is per document, so only the first chunk carries the
	// title field: less to index, and title statistics count documents.
	if title != "" && c.N == 0 {
		d.AddField(textField(fieldTitle, title, an))
	}
	d.AddField(textField(fieldBody, ChunkBody(title, c), an))
	return d
}

// ChunkBody is the text indexed as a chunk's body. It carries the chunk's
// context (title and heading path) too: BM25 over one field holding
// everything ranks better than over the body alone; the title field adds
// weight on top.
func ChunkBody(title string, c *Chunk) string {
	body := c.Text
	if c.Heading != "" {
		body = c.Heading + "\n" + body
	}
	if title != "" {
		body = title + "\n" + body
	}
	return body
}

// textField is an indexed, unstored field analysed in one pass (field.go).
func textField(name, value string, an analysis.Analyzer) document.Field {
	return newAnalyzedField(name, []byte(value), an)
}
