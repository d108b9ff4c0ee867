//go:build !(js && wasm)

package reach

import (
	"context"
	"net/http"
)

// probe reports whether anything answers at u. Outside a browser there
// is no CORS, so any HTTP answer counts.
func probe(ctx context.Context, u string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}
