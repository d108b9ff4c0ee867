//go:build js && wasm

package sitefile

import (
	"context"
	"strings"
	"syscall/js"
	"testing"
)

// The page's site-prefetch.js starts the site's files while app.wasm
// loads and hands each response over once (window.tinyragPrefetch.take):
// a file it prefetched is read from there, without a request of its own;
// any other is fetched.
func TestGetWhole_TakesWhatThePagePrefetched(t *testing.T) {
	const prefetched = "http://127.0.0.1:9/kb/tinyrag.json"
	// Port 9 (discard) on loopback refuses the connection: a request that
	// goes out fails, so only the prefetched response can succeed.
	const other = "http://127.0.0.1:9/kb/other.json"
	take := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if args[0].String() != prefetched {
			return js.Undefined()
		}
		resp := js.Global().Get("Response").New(`{"bundles":[]}`, map[string]any{"status": 200})
		return js.Global().Get("Promise").Call("resolve", resp)
	})
	defer take.Release()
	js.Global().Set("tinyragPrefetch", map[string]any{"take": take})
	defer js.Global().Delete("tinyragPrefetch")

	tests := []struct {
		name, url, want, wantErr string
	}{
		{"a prefetched file comes from the page", prefetched, `{"bundles":[]}`, ""},
		{"another file is fetched", other, "", "GET " + other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, _, err := getWhole(context.Background(), tc.url, maxConfig)
			if string(data) != tc.want || (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("getWhole(%s) = %q, %v; want %q, error %q", tc.url, data, err, tc.want, tc.wantErr)
			}
		})
	}
}
