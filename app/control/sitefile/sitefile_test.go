package sitefile

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tinyrag/app/httpdo"
)

func TestConfig_ReadsTheFileOrSaysWhyNot(t *testing.T) {
	big := strings.Repeat("x", maxConfig+1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/tinyrag.json":
			w.Write([]byte(`{"bundles":[]}`))
		case "/big.json":
			w.Write([]byte(big))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := httpdo.NetHTTP{Client: srv.Client()}
	tests := []struct {
		name, path string
		wantData   string
		wantStatus int
		wantErr    string
	}{
		{"a config is read whole", "/tinyrag.json", `{"bundles":[]}`, 200, ""},
		{"a missing config is a 404", "/none.json", "", 404, "HTTP 404"},
		{"a config over the bound is refused", "/big.json", "", 200, "larger than 1 MB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, status, err := Config(context.Background(), c, srv.URL+tc.path)
			if string(data) != tc.wantData || status != tc.wantStatus {
				t.Errorf("Config(%s) = %q, %d; want %q, %d", tc.path, data, status, tc.wantData, tc.wantStatus)
			}
			if !errMatches(err, tc.wantErr) {
				t.Errorf("Config(%s) err = %v, want %q", tc.path, err, tc.wantErr)
			}
		})
	}
}

// errMatches reports whether err is what a test case wants: no error for
// want "", else an error whose text holds want.
func errMatches(err error, want string) bool {
	if err == nil {
		return want == ""
	}
	return want != "" && strings.Contains(err.Error(), want)
}
