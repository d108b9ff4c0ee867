// Package jsonerr writes the one error shape every tinyRAG /api route
// answers with: {"error":"…"} and a fitting status code, so the browser can
// show the message instead of guessing from a status.
package jsonerr

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Write sends status with {"error": message}. The message must be safe to
// show to the client: no keys, no upstream internals beyond a summary.
func Write(w http.ResponseWriter, status int, format string, args ...any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{fmt.Sprintf(format, args...)})
}
