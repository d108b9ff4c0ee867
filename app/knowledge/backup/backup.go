// Package backup is the file a knowledge base is exported to and imported
// from: gzip-compressed JSON, a header (format, version, language, number
// of documents), then one record per document, so neither side needs the
// whole file in memory. What a record holds, and what makes one valid, is
// the knowledge base's business; this package checks the rest.
//
// In the browser the gzip layer is the browser's own CompressionStream and
// DecompressionStream (gzip_js.go), which keeps Go's compress/flate out of
// app.wasm; elsewhere it is compress/gzip (gzip_other.go). Both read and
// write the same format.
package backup

import (
	"encoding/json"
	"fmt"
	"io"
)

// Format and Version identify an export file.
const (
	Format  = "tinyrag-knowledge"
	Version = 1
)

// header is the first JSON value of an export.
type header struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Language  string `json:"language"`
	Documents int    `json:"documents"`
}

// Writer writes an export file record by record.
type Writer struct {
	zw  io.WriteCloser
	enc *json.Encoder
}

// NewWriter starts an export to w of a knowledge base in language that
// holds documents records.
func NewWriter(w io.Writer, language string, documents int) (*Writer, error) {
	zw := gzipWriter(w)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(header{Format: Format, Version: Version, Language: language, Documents: documents}); err != nil {
		return nil, fmt.Errorf("knowledge: export: %w", err)
	}
	return &Writer{zw: zw, enc: enc}, nil
}

// Write adds one document's record.
func (w *Writer) Write(record any) error { return w.enc.Encode(record) }

// Close ends the file; it is incomplete until Close returns nil.
func (w *Writer) Close() error {
	if err := w.zw.Close(); err != nil {
		return fmt.Errorf("knowledge: export: %w", err)
	}
	return nil
}

// Read reads and checks a whole export file: its header, and its records,
// each one accepted by valid, as many as the header announces. It returns
// the language the header names.
func Read[R any](r io.Reader, valid func(R) error) (language string, recs []R, err error) {
	zr, err := gzipReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("knowledge: import: not a tinyRAG knowledge export (gzip): %w", err)
	}
	dec := json.NewDecoder(zr)
	var h header
	if err := dec.Decode(&h); err != nil {
		return "", nil, fmt.Errorf("knowledge: import: unreadable header: %w", err)
	}
	if h.Format != Format {
		return "", nil, fmt.Errorf("knowledge: import: format %q is not %q", h.Format, Format)
	}
	if h.Version != Version {
		return "", nil, fmt.Errorf("knowledge: import: version %d is not supported (want %d)", h.Version, Version)
	}
	for {
		var rec R
		err := dec.Decode(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, fmt.Errorf("knowledge: import: record %d: %w", len(recs)+1, err)
		}
		if err := valid(rec); err != nil {
			return "", nil, fmt.Errorf("knowledge: import: record %d: %w", len(recs)+1, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != h.Documents {
		return "", nil, fmt.Errorf("knowledge: import: file holds %d documents, header says %d (truncated?)", len(recs), h.Documents)
	}
	return h.Language, recs, nil
}
