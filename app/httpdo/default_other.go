//go:build !(js && wasm)

package httpdo

import "net/http"

// Default is the client used where none is given: http.DefaultClient
// natively, fetch() in the browser.
var Default Doer = http.DefaultClient
