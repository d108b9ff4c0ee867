//go:build js && wasm

package knowledge

import (
	"runtime"
	"testing"
)

func TestReserveHeap_LeavesRoomForTheImportAhead(t *testing.T) {
	for _, textBytes := range []int{2 << 20, 4 << 20} {
		reserveHeap(textBytes)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		// The reservation is garbage at once; what stays is heap the
		// runtime owns without using it yet.
		if want := uint64(textBytes) * heapPerTextByte; ms.HeapSys < want {
			t.Errorf("after reserving for %d bytes of text the heap has %d bytes, want at least %d", textBytes, ms.HeapSys, want)
		}
	}
}

func TestReserveHeap_SmallImportsReserveNothing(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	reserveHeap(minHeapReserve/heapPerTextByte - 1)
	runtime.ReadMemStats(&after)
	if after.HeapSys > before.HeapSys+4<<20 {
		t.Errorf("a small import grew the heap from %d to %d bytes", before.HeapSys, after.HeapSys)
	}
}
