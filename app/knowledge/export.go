package knowledge

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// exportFormat and exportVersion identify an export file.
const (
	exportFormat  = "tinyrag-knowledge"
	exportVersion = 1
)

// exportHeader is the first JSON value of an export; one Record per
// document follows, so neither side needs the whole file in memory.
type exportHeader struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Language  string `json:"language"`
	Documents int    `json:"documents"`
}

// Export writes the whole knowledge base (documents and chunks) to w as
// gzip-compressed JSON: a header, then one record per document.
func (kb *KB) Export(ctx context.Context, w io.Writer) error {
	docs := kb.Documents()
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(exportHeader{Format: exportFormat, Version: exportVersion, Language: kb.cfg.Language, Documents: len(docs)}); err != nil {
		return fmt.Errorf("knowledge: export: %w", err)
	}
	for _, d := range docs {
		cs, err := kb.chunksOf(ctx, d.ID)
		if err != nil {
			return fmt.Errorf("knowledge: export %q: %w", d.Source, err)
		}
		if err := enc.Encode(Record{Document: d, Chunks: cs}); err != nil {
			return fmt.Errorf("knowledge: export %q: %w", d.Source, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("knowledge: export: %w", err)
	}
	return nil
}

// Import reads an Export file and adds its documents as they were (ids,
// chunks, dates), replacing documents of the same sources. The file is
// checked completely before anything is added, so a damaged file changes
// nothing.
func (kb *KB) Import(ctx context.Context, r io.Reader, progress func(Progress)) ([]Document, error) {
	_, recs, err := ReadExport(r)
	if err != nil {
		return nil, err
	}
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	return kb.importRecords(ctx, recs, progress)
}

// ReadExport reads and checks a whole Export file: its language and its
// records, every one valid, as many as the header announces.
func ReadExport(r io.Reader) (language string, recs []Record, err error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("knowledge: import: not a tinyRAG knowledge export (gzip): %w", err)
	}
	dec := json.NewDecoder(zr)
	var h exportHeader
	if err := dec.Decode(&h); err != nil {
		return "", nil, fmt.Errorf("knowledge: import: unreadable header: %w", err)
	}
	if h.Format != exportFormat {
		return "", nil, fmt.Errorf("knowledge: import: format %q is not %q", h.Format, exportFormat)
	}
	if h.Version != exportVersion {
		return "", nil, fmt.Errorf("knowledge: import: version %d is not supported (want %d)", h.Version, exportVersion)
	}
	for {
		var rec Record
		err := dec.Decode(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, fmt.Errorf("knowledge: import: record %d: %w", len(recs)+1, err)
		}
		if err := validRecord(rec); err != nil {
			return "", nil, fmt.Errorf("knowledge: import: record %d: %w", len(recs)+1, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != h.Documents {
		return "", nil, fmt.Errorf("knowledge: import: file holds %d documents, header says %d (truncated?)", len(recs), h.Documents)
	}
	return h.Language, recs, nil
}

// validRecord checks what the index relies on: ids and chunk numbering.
func validRecord(r Record) error {
	d := r.Document
	if d.ID == "" || d.Source == "" {
		return fmt.Errorf("document without id or source")
	}
	if d.Chunks != len(r.Chunks) || len(r.Chunks) == 0 {
		return fmt.Errorf("document %q says %d chunks but has %d", d.Source, d.Chunks, len(r.Chunks))
	}
	for n, c := range r.Chunks {
		if c.ID != chunkID(d.ID, n) || c.DocID != d.ID || c.N != n {
			return fmt.Errorf("document %q: chunk %d is numbered %q", d.Source, n, c.ID)
		}
		if c.Overlap < 0 || c.Overlap > len(c.Text) {
			return fmt.Errorf("document %q: chunk %d has an impossible overlap", d.Source, n)
		}
	}
	return nil
}
