//go:build !(js && wasm)

package knowledge

// Yield does nothing natively: no event loop waits on us.
func Yield() {}

// Idle returns at once natively: no page waits to be painted.
func Idle() {}
