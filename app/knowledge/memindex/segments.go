package memindex

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"tinyrag/app/knowledge/flatseg"
)

// The index is scorch with segments of tinyRAG's own format (package
// flatseg, which says why). Scorch builds every batch's segment through a
// pluggable SegmentPlugin; tinyRAG's plugin builds flat segments and has
// one more trick: a knowledge base must be searchable again within a
// second after a page reload, but analysing and indexing the text again
// takes seconds, so the segments themselves are persisted, and a batch
// holding one marker document yields a segment decoded from saved bytes.
// Scorch has no other public way to adopt a segment.

const (
	segmentType    = "tinyrag-flat"
	segmentVersion = 1
	markerPrefix   = "\x00tinyrag-segment:"
)

// segmentPlugin implements scorch.SegmentPlugin for flat segments.
type segmentPlugin struct{}

// pendingSegments holds decoded segments until scorch asks for them.
var (
	pendingSegments sync.Map // marker id → segment.Segment
	markerSeq       atomic.Uint64
)

func init() {
	scorch.RegisterSegmentPlugin(&segmentPlugin{}, false)
}

// Type implements scorch.SegmentPlugin.
func (p *segmentPlugin) Type() string { return segmentType }

// Version implements scorch.SegmentPlugin.
func (p *segmentPlugin) Version() uint32 { return segmentVersion }

// New implements scorch.SegmentPlugin.
func (p *segmentPlugin) New(results []index.Document) (segment.Segment, uint64, error) {
	return p.NewUsing(results, nil)
}

// NewUsing implements scorch.SegmentPlugin: it builds a segment from
// analysed documents. The knowledge base's own fields hand over their
// terms with cache ids (flatseg.TermLister).
func (p *segmentPlugin) NewUsing(results []index.Document, _ map[string]interface{}) (segment.Segment, uint64, error) {
	if len(results) == 1 && strings.HasPrefix(results[0].ID(), markerPrefix) {
		seg, ok := pendingSegments.LoadAndDelete(results[0].ID())
		if !ok {
			return nil, 0, fmt.Errorf("knowledge: no saved segment for marker %q", results[0].ID())
		}
		return seg.(segment.Segment), 0, nil
	}
	b := flatseg.NewBuilder()
	for _, doc := range results {
		b.AddIndexDocument(doc)
	}
	seg, err := b.Build()
	if err != nil {
		return nil, 0, err
	}
	return seg, uint64(seg.Size()), nil
}

// errOnDisk is what the plugin answers to scorch's on-disk operations: the
// knowledge base's index only lives in memory.
var errOnDisk = errors.New("knowledge: flat segments live in memory; opening or merging them on disk is not supported")

// Open implements scorch.SegmentPlugin.
func (p *segmentPlugin) Open(string) (segment.Segment, error) { return nil, errOnDisk }

// OpenUsing implements scorch.SegmentPlugin.
func (p *segmentPlugin) OpenUsing(string, map[string]interface{}) (segment.Segment, error) {
	return nil, errOnDisk
}

// Merge implements scorch.SegmentPlugin; scorch merges only persisted
// segments.
func (p *segmentPlugin) Merge([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter) ([][]uint64, uint64, error) {
	return nil, 0, errOnDisk
}

// MergeUsing implements scorch.SegmentPlugin.
func (p *segmentPlugin) MergeUsing([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter, map[string]interface{}) ([][]uint64, uint64, error) {
	return nil, 0, errOnDisk
}

// Adopt adds a segment saved by Segments (its Data) to the index; as for a
// batch, older copies of the documents it holds are obsoleted.
func (m Index) Adopt(data []byte) error {
	seg, err := flatseg.Decode(data)
	if err != nil {
		return fmt.Errorf("knowledge: decode saved segment: %w", err)
	}
	marker := fmt.Sprintf("%s%d", markerPrefix, markerSeq.Add(1))
	pendingSegments.Store(marker, seg)
	defer pendingSegments.Delete(marker)
	b := index.NewBatch()
	b.Update(document.NewDocument(marker))
	if err := m.Batch(b); err != nil {
		return fmt.Errorf("knowledge: adopt saved segment: %w", err)
	}
	return nil
}

// SavedSegment is one segment of the index as saved for a reload.
type SavedSegment struct {
	// Data is the segment as flatseg writes it.
	Data []byte
	// Deleted are the ids of the documents deleted from it since.
	Deleted []string
}

// Segments copies out the index's current segments.
func (m Index) Segments() ([]SavedSegment, error) {
	snap, err := m.snapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	var out []SavedSegment
	for _, ss := range snap.Segments() {
		sb, ok := ss.Segment().(*flatseg.Segment)
		if !ok {
			return nil, fmt.Errorf("knowledge: segment is %T, not a flat segment", ss.Segment())
		}
		var buf bytes.Buffer
		if _, err := sb.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("knowledge: serialise segment: %w", err)
		}
		s := SavedSegment{Data: buf.Bytes()}
		if del := ss.Deleted(); del != nil {
			it := del.Iterator()
			for it.HasNext() {
				id, err := ss.DocID(uint64(it.Next()))
				if err != nil {
					return nil, fmt.Errorf("knowledge: read deleted id: %w", err)
				}
				s.Deleted = append(s.Deleted, string(id))
			}
		}
		out = append(out, s)
	}
	return out, nil
}
