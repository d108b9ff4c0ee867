package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"tinyrag/app/knowledge/memindex"
)

// A snapshot is the saved index (its segments, package memindex) after a
// header listing the documents it holds, so a reload neither analyses the
// text again nor, while the store is unchanged, reads every document
// record.

// snapshotMagic starts a saved index; the version after it changes whenever
// the layout or the indexing (fields, analyzers) does, so an old snapshot is
// rebuilt from text instead of being misread.
const (
	snapshotMagic   = "tinyrag-index\n"
	snapshotVersion = 3
)

// snapshotHeader describes a saved index.
type snapshotHeader struct {
	Language string `json:"language"`
	// Documents are the documents in the index (with their chunk counts).
	Documents []Document        `json:"documents"`
	Segments  []snapshotSegment `json:"segments"`
	// StoreVersion is a Versioned store's version when the snapshot was
	// taken: while it still holds, Documents are the stored documents too.
	StoreVersion string `json:"store_version,omitempty"`
}

type snapshotSegment struct {
	Size    int      `json:"size"`
	Deleted []string `json:"deleted,omitempty"`
}

// encodeSnapshot encodes the segments of idx after h, which lists its
// documents, stamped with the store's version ("" if unknown).
func encodeSnapshot(h snapshotHeader, idx memindex.Index) ([]byte, error) {
	segs, err := idx.Segments()
	if err != nil {
		return nil, err
	}
	size := 0
	for _, s := range segs {
		h.Segments = append(h.Segments, snapshotSegment{Size: len(s.Data), Deleted: s.Deleted})
		size += len(s.Data)
	}
	hdr, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("knowledge: encode snapshot header: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(snapshotMagic) + 8 + len(hdr) + size)
	buf.WriteString(snapshotMagic)
	_ = binary.Write(&buf, binary.BigEndian, uint32(snapshotVersion))
	_ = binary.Write(&buf, binary.BigEndian, uint32(len(hdr)))
	buf.Write(hdr)
	for _, s := range segs {
		buf.Write(s.Data)
	}
	return buf.Bytes(), nil
}

func decodeSnapshotHeader(snap []byte) (snapshotHeader, []byte, error) {
	var h snapshotHeader
	if !bytes.HasPrefix(snap, []byte(snapshotMagic)) || len(snap) < len(snapshotMagic)+8 {
		return h, nil, errors.New("knowledge: saved index is not a tinyRAG index snapshot")
	}
	rest := snap[len(snapshotMagic):]
	if v := binary.BigEndian.Uint32(rest); v != snapshotVersion {
		return h, nil, fmt.Errorf("knowledge: saved index has version %d, want %d", v, snapshotVersion)
	}
	n := int(binary.BigEndian.Uint32(rest[4:]))
	rest = rest[8:]
	if n > len(rest) {
		return h, nil, errors.New("knowledge: saved index is truncated")
	}
	if err := json.Unmarshal(rest[:n], &h); err != nil {
		return h, nil, fmt.Errorf("knowledge: saved index header: %w", err)
	}
	return h, rest[n:], nil
}

// savedSnapshot is the store's index snapshot, its header decoded.
type savedSnapshot struct {
	header snapshotHeader
	data   []byte // the segments
}

// readSnapshot reads and decodes the store's snapshot for a knowledge base
// in language: nil, nil if there is none; an error if it cannot be read or
// used.
func readSnapshot(ctx context.Context, store Store, language string) (*savedSnapshot, error) {
	raw, err := store.Index(ctx)
	if err != nil || raw == nil {
		return nil, err
	}
	h, data, err := decodeSnapshotHeader(raw)
	if err == nil && h.Language != language {
		err = fmt.Errorf("knowledge: saved index is for language %q, not %q", h.Language, language)
	}
	if err != nil {
		return nil, err
	}
	return &savedSnapshot{header: h, data: data}, nil
}

// snapshotDocuments returns the document list saved with snap when the
// store has not been written since (see Versioned).
func snapshotDocuments(ctx context.Context, store Store, snap *savedSnapshot) ([]Document, bool) {
	vs, ok := store.(Versioned)
	if !ok || snap == nil || snap.header.StoreVersion == "" {
		return nil, false
	}
	v, err := vs.Version(ctx)
	if err != nil || v != snap.header.StoreVersion {
		return nil, false
	}
	return snap.header.Documents, true
}
