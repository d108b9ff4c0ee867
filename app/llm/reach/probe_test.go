//go:build !(js && wasm)

package reach

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The browser's probe (probe_js.go) needs a real page and server; the
// e2e test TestStaticSite_ModelRefusingCORSIsExplainedWithTheFix runs it.
func TestExplain_ProbesToTellCORSFromNothingListening(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	if d := Explain(context.Background(), "http://127.0.0.1:1", srv.URL+"/v1", fetchErr); d.Kind != CORS {
		t.Errorf("a server that answers: %s", d)
	}
	srv.Close()
	if d := Explain(context.Background(), "http://127.0.0.1:1", srv.URL+"/v1", fetchErr); d.Kind != Network {
		t.Errorf("a closed server: %s", d)
	}
}
