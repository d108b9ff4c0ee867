// A stand-in for json-iterator in tinyRAG's browser build only
// (wasm/browser.work); see jsoniter.go.
module github.com/json-iterator/go

go 1.22
