// A stand-in for zap v12 in tinyRAG's browser build only (wasm/browser.work);
// see docs/architecture.md, "zap out of the browser build".
module github.com/blevesearch/zapx/v12

go 1.25.0

require tinyrag/zapxstandin v0.0.0
