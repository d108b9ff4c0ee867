//go:build !js

package httpdo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tinyrag/app/httpdo"
)

func TestNetHTTP_SendsTheRequestAndHandsBackTheResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo", r.Method+" "+r.Header.Get("X-Asked")+" "+string(b))
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "brewed")
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name, method, path, body string
		wantEcho, wantPath       string
	}{
		{"a POST with a body", "post", "/x", `{"q":1}`, `POST yes {"q":1}`, "/x"},
		{"a GET after a redirect", "GET", "/old", "", "GET yes", "/new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, err := httpdo.NewRequest(context.Background(), tc.method, srv.URL+tc.path, body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("x-asked", "yes")
			resp, err := httpdo.NetHTTP{Client: srv.Client()}.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 418 || resp.Status != "418 I'm a teapot" || string(got) != "brewed" {
				t.Errorf("got %d %q %q, want 418 \"418 I'm a teapot\" \"brewed\"", resp.StatusCode, resp.Status, got)
			}
			if e := resp.Header.Get("x-echo"); e != tc.wantEcho {
				t.Errorf("the server saw %q, want %q", e, tc.wantEcho)
			}
			if resp.URL.Path != tc.wantPath {
				t.Errorf("response URL %s, want path %s", resp.URL, tc.wantPath)
			}
		})
	}
}

func TestNewRequest_RefusesAnUnparsableURL(t *testing.T) {
	if _, err := httpdo.NewRequest(context.Background(), "GET", "http://[::1", nil); err == nil {
		t.Error("no error for an unparsable URL")
	}
}

func TestStatusText_AgreesWithNetHTTP(t *testing.T) {
	for code := 100; code < 600; code++ {
		if got, want := httpdo.StatusText(code), http.StatusText(code); got != want {
			t.Errorf("StatusText(%d) = %q, want %q", code, got, want)
		}
	}
}
