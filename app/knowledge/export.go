package knowledge

import (
	"context"
	"fmt"
	"io"

	"tinyrag/app/knowledge/backup"
)

// Export writes the whole knowledge base (documents and chunks) to w as an
// export file (package backup): a header, then one record per document.
func (kb *KB) Export(ctx context.Context, w io.Writer) error {
	docs := kb.Documents()
	bw, err := backup.NewWriter(w, kb.cfg.Language, len(docs))
	if err != nil {
		return err
	}
	for _, d := range docs {
		cs, err := kb.chunksOf(ctx, d.ID)
		if err != nil {
			return fmt.Errorf("knowledge: export %q: %w", d.Source, err)
		}
		if err := bw.Write(Record{Document: d, Chunks: cs}); err != nil {
			return fmt.Errorf("knowledge: export %q: %w", d.Source, err)
		}
	}
	return bw.Close()
}

// Import reads an Export file and adds its documents as they were (ids,
// chunks, dates), replacing documents of the same sources. The file is
// checked completely before anything is added, so a damaged file changes
// nothing.
func (kb *KB) Import(ctx context.Context, r io.Reader, progress func(Progress)) ([]Document, error) {
	_, recs, err := backup.Read(r, validRecord)
	if err != nil {
		return nil, err
	}
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	return kb.importRecords(ctx, recs, progress)
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
