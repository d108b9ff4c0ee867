//go:build !linux

package sandbox

import "runtime/debug"

// limitMemory can only set the Go heap target outside Linux: in the
// browser the worker's wasm memory is bounded by the engine and the
// worker is terminated at the timeout anyway.
func limitMemory(limit int64) error {
	debug.SetMemoryLimit(softLimit(limit))
	return nil
}
