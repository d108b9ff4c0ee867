package bundle

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

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

// recordsIndex is the document list by column: decoding arrays of
// strings and numbers is several times faster than decoding as many
// objects, and a first visit waits for it.
type recordsIndex struct {
	Language string   `json:"language"`
	IDs      []string `json:"ids"`
	Titles   []string `json:"titles"`
	Sources  []string `json:"sources"`
	Types    []string `json:"types"`
	Langs    []string `json:"langs"`
	Added    []int64  `json:"added"` // Unix milliseconds
	Sizes    []int    `json:"sizes"`
	Chunks   []int    `json:"chunks"`
	Offs     []int    `json:"offs"`
	Lens     []int    `json:"lens"`
}

// recordsDoc is one document and where its chunks are.
type recordsDoc struct {
	Document knowledge.Document
	Off, Len int
}

func (x *recordsIndex) add(d knowledge.Document, off, n int) {
	x.IDs = append(x.IDs, d.ID)
	x.Titles = append(x.Titles, d.Title)
	x.Sources = append(x.Sources, d.Source)
	x.Types = append(x.Types, d.Type)
	x.Langs = append(x.Langs, d.Language)
	x.Added = append(x.Added, d.Added.UnixMilli())
	x.Sizes = append(x.Sizes, d.Size)
	x.Chunks = append(x.Chunks, d.Chunks)
	x.Offs = append(x.Offs, off)
	x.Lens = append(x.Lens, n)
}

func (x *recordsIndex) docs() ([]recordsDoc, error) {
	n := len(x.IDs)
	for _, l := range []int{len(x.Titles), len(x.Sources), len(x.Types), len(x.Langs), len(x.Added), len(x.Sizes), len(x.Chunks), len(x.Offs), len(x.Lens)} {
		if l != n {
			return nil, fmt.Errorf("%w: document list columns differ in length", ErrDamaged)
		}
	}
	out := make([]recordsDoc, n)
	for i := range out {
		out[i] = recordsDoc{Document: knowledge.Document{ID: x.IDs[i], Title: x.Titles[i], Source: x.Sources[i], Type: x.Types[i],
			Language: x.Langs[i], Added: time.UnixMilli(x.Added[i]).UTC(), Size: x.Sizes[i], Chunks: x.Chunks[i]}, Off: x.Offs[i], Len: x.Lens[i]}
	}
	return out, nil
}

// encodeRecords writes the documents of kb (chunks read from store).
func encodeRecords(ctx context.Context, lang string, docs []knowledge.Document, store knowledge.Store) ([]byte, error) {
	var blob bytes.Buffer
	idx := recordsIndex{Language: lang}
	for _, d := range docs {
		cs, err := store.Chunks(ctx, d.ID)
		if err != nil {
			return nil, fmt.Errorf("bundle: chunks of %s: %w", d.Source, err)
		}
		b, err := json.Marshal(cs)
		if err != nil {
			return nil, fmt.Errorf("bundle: encode chunks of %s: %w", d.Source, err)
		}
		idx.add(d, blob.Len(), len(b))
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
	docs, err := idx.docs()
	if err != nil {
		return "", nil, nil, err
	}
	for _, d := range docs {
		if d.Document.ID == "" || d.Document.Chunks <= 0 || d.Off < 0 || d.Len <= 0 || d.Off+d.Len > len(blob) {
			return "", nil, nil, fmt.Errorf("%w: document %q has no valid chunks", ErrDamaged, d.Document.Source)
		}
	}
	return idx.Language, docs, blob, nil
}
