// The one implementation behind the zap stand-ins (wasm/zapx/vN) of
// tinyRAG's browser build (wasm/browser.work).
module tinyrag/zapxstandin

go 1.25.0

require (
	github.com/RoaringBitmap/roaring/v2 v2.14.5
	github.com/blevesearch/bleve_index_api v1.4.1
	github.com/blevesearch/scorch_segment_api/v2 v2.4.11
)
