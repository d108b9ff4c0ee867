package bundle

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"tinyrag/app/knowledge"
)

// The records section holds every document and its chunks:
//
//	uint32 n, n bytes    JSON: {"language": …, "documents": [{document, off, len}, …]}
//	the rest             each document's chunks as a JSON array, at off/len
//
// Opening a bundle decodes only the document list; a document's chunks are
// decoded when a search first shows one of them. Decoding all chunk text
// up front was most of a first visit's wait. The section is not
// compressed inside the file: decompressing it cost more time in the
// browser than the transfer saves, and the host compresses the whole file
// on the wire (`tinyrag static` writes .br and .gz siblings).

type recordsIndex struct {
	Language  string       `json:"language"`
	Documents []recordsDoc `json:"documents"`
}

type recordsDoc struct {
	Document knowledge.Document `json:"document"`
	Off      int                `json:"off"`
	Len      int                `json:"len"`
}

// encodeRecords writes the documents of kb (chunks read from store).
func encodeRecords(ctx context.Context, lang string, docs []knowledge.Document, store knowledge.Store) ([]byte, error) {
	var blob bytes.Buffer
	idx := recordsIndex{Language: lang, Documents: make([]recordsDoc, 0, len(docs))}
	for _, d := range docs {
		cs, err := store.Chunks(ctx, d.ID)
		if err != nil {
			return nil, fmt.Errorf("bundle: chunks of %s: %w", d.Source, err)
		}
		b, err := json.Marshal(cs)
		if err != nil {
			return nil, fmt.Errorf("bundle: encode chunks of %s: %w", d.Source, err)
		}
		idx.Documents = append(idx.Documents, recordsDoc{Document: d, Off: blob.Len(), Len: len(b)})
		blob.Write(b)
	}
	head, err := json.Marshal(idx)
	if err != nil {
		return nil, fmt.Errorf("bundle: encode document list: %w", err)
	}
	out := make([]byte, 4, 4+len(head)+blob.Len())
	binary.BigEndian.PutUint32(out, uint32(len(head)))
	out = append(out, head...)
	return append(out, blob.Bytes()...), nil
}

// decodeRecords decodes the document list, checking every document's
// chunk range lies inside the section.
func decodeRecords(raw []byte) (string, []recordsDoc, []byte, error) {
	if len(raw) < 4 {
		return "", nil, nil, fmt.Errorf("%w: records too short", ErrDamaged)
	}
	n := int(binary.BigEndian.Uint32(raw))
	if n > len(raw)-4 {
		return "", nil, nil, fmt.Errorf("%w: document list runs past the records", ErrDamaged)
	}
	var idx recordsIndex
	if err := json.Unmarshal(raw[4:4+n], &idx); err != nil {
		return "", nil, nil, fmt.Errorf("%w: document list: %v", ErrDamaged, err)
	}
	blob := raw[4+n:]
	for _, d := range idx.Documents {
		if d.Document.ID == "" || d.Document.Chunks <= 0 || d.Off < 0 || d.Len <= 0 || d.Off+d.Len > len(blob) {
			return "", nil, nil, fmt.Errorf("%w: document %q has no valid chunks", ErrDamaged, d.Document.Source)
		}
	}
	return idx.Language, idx.Documents, blob, nil
}
