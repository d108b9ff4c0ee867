// Package standin is what every zap stand-in of tinyRAG's browser build
// is made of: scorch registers every zap version in its init, which would
// link all of them into app.wasm, but tinyRAG's index is made of its own
// flat segments (app/knowledge/flatseg) and never builds, opens or merges a
// zap segment. Each wasm/zapx/vN module embeds Plugin and adds its Version,
// so scorch's registry stays as it was and every operation is refused.
package standin

import (
	"errors"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// Type is the segment type scorch registers zap under.
const Type string = "zap"

// errNotBuilt is what every segment operation returns.
var errNotBuilt = errors.New("zap segments are not part of tinyRAG's browser build (its index uses flat segments)")

// Plugin is a zap segment plugin without zap: all but Version, which each
// stand-in adds.
type Plugin struct{}

// Type implements scorch's SegmentPlugin.
func (*Plugin) Type() string { return Type }

// New refuses: zap is not in this build.
func (*Plugin) New([]index.Document) (segment.Segment, uint64, error) {
	return nil, 0, errNotBuilt
}

// NewUsing refuses: zap is not in this build.
func (*Plugin) NewUsing([]index.Document, map[string]interface{}) (segment.Segment, uint64, error) {
	return nil, 0, errNotBuilt
}

// Open refuses: zap is not in this build.
func (*Plugin) Open(string) (segment.Segment, error) { return nil, errNotBuilt }

// OpenUsing refuses: zap is not in this build.
func (*Plugin) OpenUsing(string, map[string]interface{}) (segment.Segment, error) {
	return nil, errNotBuilt
}

// Merge refuses: zap is not in this build.
func (*Plugin) Merge([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter) ([][]uint64, uint64, error) {
	return nil, 0, errNotBuilt
}

// MergeUsing refuses: zap is not in this build.
func (*Plugin) MergeUsing([]segment.Segment, []*roaring.Bitmap, string, chan struct{}, segment.StatsReporter, map[string]interface{}) ([][]uint64, uint64, error) {
	return nil, 0, errNotBuilt
}
