package jsonerr

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWrite_StatusAndErrorField(t *testing.T) {
	tests := []struct {
		status int
		msg    string
	}{
		{http.StatusBadRequest, `bad "url" <x>`},
		{http.StatusTooManyRequests, "slow down"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		Write(rec, tt.status, "%s", tt.msg)
		var body struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("body %q is not JSON: %v", rec.Body, err)
		}
		if rec.Code != tt.status || body.Error != tt.msg || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("got %d %q %q", rec.Code, body.Error, rec.Header().Get("Content-Type"))
		}
	}
}
