//go:build !(js && wasm)

package knowledge

// defaultYield does nothing natively: no event loop waits on us.
func defaultYield() {}
