package knowledge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// A knowledge base must be searchable again within a second after a page
// reload, but analysing and indexing the text again takes seconds. So the
// index itself is persisted: the bytes of each in-memory zap segment, which
// scorch can use again as they are. Scorch has no public way to adopt a
// segment, but it builds every batch's segment through a pluggable
// SegmentPlugin; tinyRAG's plugin is zap v17 except that a batch holding one
// marker document yields a segment decoded from saved bytes.

const (
	segmentType    = "tinyrag-zap"
	segmentVersion = 17
	markerPrefix   = "\x00tinyrag-segment:"
)

// segmentPlugin is zap v17 with the marker-document shortcut.
type segmentPlugin struct{ zap.ZapPlugin }

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

// NewUsing implements scorch.SegmentPlugin.
func (p *segmentPlugin) NewUsing(results []index.Document, config map[string]interface{}) (segment.Segment, uint64, error) {
	if len(results) == 1 && strings.HasPrefix(results[0].ID(), markerPrefix) {
		seg, ok := pendingSegments.LoadAndDelete(results[0].ID())
		if !ok {
			return nil, 0, fmt.Errorf("knowledge: no saved segment for marker %q", results[0].ID())
		}
		return seg.(segment.Segment), 0, nil
	}
	return p.ZapPlugin.NewUsing(results, config)
}

// adoptSegment adds a segment decoded from saved bytes to idx. ids are the
// document ids it holds, so that, as for a batch, older copies are obsoleted.
func adoptSegment(idx memIndex, seg segment.Segment) error {
	adv, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("knowledge: reach scorch index: %w", err)
	}
	marker := fmt.Sprintf("%s%d", markerPrefix, markerSeq.Add(1))
	pendingSegments.Store(marker, seg)
	defer pendingSegments.Delete(marker)
	b := index.NewBatch()
	b.Update(document.NewDocument(marker))
	if err := adv.Batch(b); err != nil {
		return fmt.Errorf("knowledge: adopt saved segment: %w", err)
	}
	return nil
}

// savedSegment is one segment of an index snapshot.
type savedSegment struct {
	data    []byte
	deleted []string // ids of documents deleted from it
}

// snapshotSegments copies out the current segments of idx.
func snapshotSegments(idx memIndex) ([]savedSegment, error) {
	snap, err := idx.snapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	var out []savedSegment
	for _, ss := range snap.Segments() {
		sb, ok := ss.Segment().(*zap.SegmentBase)
		if !ok {
			return nil, fmt.Errorf("knowledge: segment is %T, not an in-memory zap segment", ss.Segment())
		}
		var buf bytes.Buffer
		if _, err := sb.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("knowledge: serialise segment: %w", err)
		}
		s := savedSegment{data: buf.Bytes()}
		if del := ss.Deleted(); del != nil {
			it := del.Iterator()
			for it.HasNext() {
				id, err := ss.DocID(uint64(it.Next()))
				if err != nil {
					return nil, fmt.Errorf("knowledge: read deleted id: %w", err)
				}
				s.deleted = append(s.deleted, string(id))
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeSegment turns bytes written by SegmentBase.WriteTo back into a
// segment, reading the zap footer the way zap's own Open does.
func decodeSegment(data []byte) (segment.Segment, error) {
	const footer = zap.FooterSize
	if len(data) < footer {
		return nil, errors.New("knowledge: saved segment is truncated")
	}
	n := len(data)
	crc := binary.BigEndian.Uint32(data[n-4:])
	version := binary.BigEndian.Uint32(data[n-8:])
	chunkMode := binary.BigEndian.Uint32(data[n-12:])
	sectionsIndex := binary.BigEndian.Uint64(data[n-20:])
	storedIndex := binary.BigEndian.Uint64(data[n-28:])
	numDocs := binary.BigEndian.Uint64(data[n-36:])
	idLen := binary.BigEndian.Uint32(data[n-40:])
	if version != zap.Version {
		return nil, fmt.Errorf("knowledge: saved segment has zap version %d, want %d", version, zap.Version)
	}
	if idLen != 0 {
		return nil, errors.New("knowledge: saved segment was written with a file-writer callback tinyRAG does not use")
	}
	if crc32.ChecksumIEEE(data[:n-4]) != crc {
		return nil, errors.New("knowledge: saved segment is corrupt (checksum mismatch)")
	}
	mem := data[:n-footer]
	sb, err := zap.InitSegmentBase(mem, crc32.ChecksumIEEE(mem), chunkMode, numDocs,
		storedIndex, sectionsIndex, nil, &segment.Stats{})
	if err != nil {
		return nil, fmt.Errorf("knowledge: decode saved segment: %w", err)
	}
	return sb, nil
}
