//go:build !(js && wasm)

package knowledge

// reserveHeap does nothing natively: growing a native heap is cheap.
func reserveHeap(int) {}
