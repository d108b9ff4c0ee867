//go:build !(js && wasm)

package knowledge

// Yield does nothing natively: no event loop waits on us.
func Yield() {}
