//go:build !(js && wasm)

package sitefile

import (
	"context"

	"tinyrag/app/httpdo"
)

// getWhole is get without a client: natively, httpdo's default.
func getWhole(ctx context.Context, u string, limit int64) ([]byte, int, error) {
	return getWith(ctx, httpdo.Or(nil), u, limit)
}

// Start does nothing natively: each read starts its own request at once.
func Start(u string) {}
