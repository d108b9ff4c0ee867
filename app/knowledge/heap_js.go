//go:build js && wasm

package knowledge

import "runtime"

// heapSink keeps reserveHeap's allocation from being optimised away.
var heapSink []byte

// reserveHeap grows the WASM memory once, up front, by about what an
// import of textBytes will need, instead of in the Go runtime's 4 MiB
// steps. V8 answers each memory.grow with garbage collections of its own
// heap (hundreds of mark-compacts for SciFact), whatever Go does; a
// freed reservation is reused by the Go heap, and WASM memory never
// shrinks anyway.
func reserveHeap(textBytes int) { ReserveHeap(textBytes * heapPerTextByte) }

// ReserveHeap grows the WASM memory once so that about n bytes more fit
// in the heap (see reserveHeap), for work that is about to allocate that
// much in a burst, such as opening a knowledge bundle. Natively it does
// nothing.
func ReserveHeap(n int) {
	want := uint64(n)
	if want < minHeapReserve {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if free := ms.HeapSys - ms.HeapInuse; free < want {
		heapSink = make([]byte, want-free)
		heapSink = nil
	}
}
