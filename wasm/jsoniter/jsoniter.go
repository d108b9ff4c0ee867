// Package jsoniter stands in for github.com/json-iterator/go in tinyRAG's
// browser build (wasm/browser.work): its one caller there, bleve's geo
// package (geojson), uses ConfigCompatibleWithStandardLibrary's Marshal and
// Unmarshal, which by their name behave as encoding/json does — and
// encoding/json is in app.wasm anyway. Linking json-iterator beside it cost
// about 0.28 MB of code (docs/startup.md). Native builds and every test keep
// the real module.
package jsoniter

import "encoding/json"

// API is the part of json-iterator's API that bleve's geo package calls.
type API interface {
	Marshal(v any) ([]byte, error)
	Unmarshal(data []byte, v any) error
}

// ConfigCompatibleWithStandardLibrary is encoding/json.
var ConfigCompatibleWithStandardLibrary API = standard{}

type standard struct{}

// Marshal is json.Marshal.
func (standard) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// Unmarshal is json.Unmarshal.
func (standard) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
