package sandbox

import (
	"runtime/debug"
	"syscall"
)

// limitMemory caps the memory this process can commit and sets the Go heap
// target below it, so an allocation past the limit makes the runtime die
// with "out of memory" instead of the machine swapping.
//
// The cap is RLIMIT_DATA, not RLIMIT_AS: the Go runtime reserves over a
// gigabyte of address space at start-up (PROT_NONE, never touched), so an
// address-space limit would have to include that reservation, while the
// data limit counts only writable private mappings, i.e. what the heap and
// stacks really use (about 80 MB for an idle sandbox process).
func limitMemory(limit int64) error {
	debug.SetMemoryLimit(softLimit(limit))
	lim := syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &lim)
}
