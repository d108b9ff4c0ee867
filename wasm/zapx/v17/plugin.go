// Package zap stands in for zap v17 in tinyRAG's browser build: scorch
// registers every zap version in its init, which would link all of them
// into app.wasm, but tinyRAG's index is made of its own flat segments
// (app/knowledge/flatseg) and never builds, opens or merges a zap segment.
// This plugin keeps scorch's registry as it was and refuses all three.
package zap

import (
	"errors"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// Version is the zap file format version this stand-in answers for.
const Version uint32 = 17

// Type is the segment type scorch registers zap under.
const Type string = "zap"

// errNotBuilt is what every segment operation returns.
var errNotBuilt = errors.New("zap segments are not part of tinyRAG's browser build (its index uses flat segments)")

// ZapPlugin is the stand-in plugin scorch registers.
type ZapPlugin struct{}

// Type implements scorch's SegmentPlugin.
func (*ZapPlugin) Type() string { return Type }

// Version implements scorch's SegmentPlugin.
func (*ZapPlugin) Version() uint32 { return Version }

// New refuses: zap is not in this build.
func (*ZapPlugin) New([]index.Document) (segment.Segment, uint64, error) {
	return nil, 0, errNotBuilt
}

// NewUsing refuses: zap is not in this build.
func (*ZapPlugin) NewUsing([]index.Document, map[string]interface{}) (segment.Segment, uint64, error) {
	return nil, 0, errNotBuilt
}

// Open refuses: zap is not in this build.
func (*ZapPlugin) Open(string) (segment.Segment, error) { return nil, errNotBuilt }

// OpenUsing refuses: zap is not in this build.
func (*ZapPlugin) OpenUsing(string, map[string]interface{}) (segment.Segment, error) {
	return nil, errNotBuilt
}

// Merge refuses: zap is not in this build.
func (*ZapPlugin) Merge([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter) ([][]uint64, uint64, error) {
	return nil, 0, errNotBuilt
}

// MergeUsing refuses: zap is not in this build.
func (*ZapPlugin) MergeUsing([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter, map[string]interface{}) ([][]uint64, uint64, error) {
	return nil, 0, errNotBuilt
}
