//go:build !(js && wasm)

package knowledge

// reserveHeap does nothing natively: growing a native heap is cheap.
func reserveHeap(int) {}

// ReserveHeap grows the WASM memory up front in the browser (heap_js.go);
// natively the runtime grows the heap cheaply, so it does nothing.
func ReserveHeap(int) {}
