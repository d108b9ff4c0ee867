// A stand-in for zap v12 in tinyRAG's browser build only (wasm/browser.work);
// see the README section "zap out of the browser build".
module github.com/blevesearch/zapx/v12

go 1.25.0

require (
	github.com/RoaringBitmap/roaring/v2 v2.14.5
	github.com/blevesearch/bleve_index_api v1.4.1
	github.com/blevesearch/scorch_segment_api/v2 v2.4.11
)
