//go:build !(js && wasm)

package httpdo

// Default is the client used where none is given: net/http's default
// client natively, fetch() in the browser.
var Default Doer = NetHTTP{}
