// Package importrun runs the file importers (app/knowledge/importer) for
// the app: in-process natively, and in the browser in a Web Worker holding
// importer.wasm (wasm/importer), so that app.wasm does not carry them —
// HTML readability, the PDF reader and the character-set tables are about
// 0.75 MB of app.wasm's brotli, needed only by someone importing.
package importrun

import (
	"context"

	"tinyrag/app/knowledge"
)

// File reads one file's bytes into a knowledge-base input, as
// importer.Import does; its errors carry the importer's message.
func (r *Runner) File(ctx context.Context, name string, data []byte) (knowledge.Input, error) {
	return r.run(ctx, request{name: name, data: data})
}

// Fetched reads a body the server's URL fetch handed over (its final URL
// and Content-Type), as importer.FromFetched does.
func (r *Runner) Fetched(ctx context.Context, url, contentType string, body []byte) (knowledge.Input, error) {
	return r.run(ctx, request{url: url, contentType: contentType, data: body})
}

// request is one import: a file (name) or a fetched body (url).
type request struct {
	name, url, contentType string
	data                   []byte
}
