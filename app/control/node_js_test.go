//go:build js && wasm

package control

import "tinyrag/app/httpdo"

// In Node the tests' httptest servers live on Go's in-process network,
// which only net/http's own client reaches; the browser's fetch() path is
// tested in Chromium (app/httpdo).
func init() { httpdo.Default = httpdo.NetHTTP{} }
