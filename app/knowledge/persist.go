package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tinyrag/app/knowledge/memindex"
)

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

// SaveIndex writes the current index to the store, so the next Load is fast.
// AddBatch, Import and Delete call it; Load repairs a stale snapshot, at
// some cost.
func (kb *KB) SaveIndex(ctx context.Context) error {
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	return kb.saveIndexLocked(ctx)
}

func (kb *KB) saveIndexLocked(ctx context.Context) error {
	if kb.cfg.Store == nil {
		return errors.New("knowledge: no store to save the index to")
	}
	// The caller holds writeMu, so no write comes between the version read
	// here and the documents encodeSnapshot lists.
	version := ""
	if vs, ok := kb.cfg.Store.(Versioned); ok {
		v, err := vs.Version(ctx)
		if err != nil {
			return fmt.Errorf("knowledge: read the store's version: %w", err)
		}
		version = v
	}
	kb.mu.RLock()
	idx := kb.idx
	kb.mu.RUnlock()
	snap, err := encodeSnapshot(snapshotHeader{Language: kb.cfg.Language, Documents: kb.Documents(), StoreVersion: version}, idx)
	if err != nil {
		return err
	}
	if err := kb.cfg.Store.PutIndex(ctx, snap); err != nil {
		return fmt.Errorf("knowledge: save index snapshot (%d bytes): %w", len(snap), err)
	}
	return nil
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

// Load restores the knowledge base from its store: the document list, and
// the index from the saved snapshot where it is still valid. Whatever the
// snapshot lacks (documents stored after it was taken) is indexed again from
// stored chunks; whatever it has too much (documents deleted since) is
// removed. A document stored twice for one source (a crash during a
// replacement) keeps its newest version. Chunk text is read lazily. Load
// only a fresh knowledge base (Open does).
func (kb *KB) Load(ctx context.Context) error {
	if kb.cfg.Store == nil {
		return nil
	}
	kb.writeMu.Lock()
	defer kb.writeMu.Unlock()
	if kb.docs.len() > 0 {
		return errors.New("knowledge: Load needs a fresh knowledge base (this one already holds documents)")
	}
	snap, snapErr := readSnapshot(ctx, kb.cfg.Store, kb.cfg.Language)
	docs, listed := snapshotDocuments(ctx, kb.cfg.Store, snap)
	if !listed {
		var err error
		if docs, err = kb.cfg.Store.Documents(ctx); err != nil {
			return fmt.Errorf("knowledge: list stored documents: %w", err)
		}
	}
	// Newest version per source wins.
	newest := map[string]Document{}
	var stale []string
	for _, d := range docs {
		if o, ok := newest[d.Source]; ok {
			if o.Added.After(d.Added) || (o.Added.Equal(d.Added) && o.ID > d.ID) {
				stale = append(stale, d.ID)
				continue
			}
			stale = append(stale, o.ID)
		}
		newest[d.Source] = d
	}
	if len(stale) > 0 {
		if err := kb.cfg.Store.Delete(ctx, stale...); err != nil {
			return fmt.Errorf("knowledge: drop %d superseded documents: %w", len(stale), err)
		}
	}

	indexed, loadErr := kb.loadSnapshot(snap, snapErr)
	listedDocs := make([]Record, 0, len(newest))
	for _, d := range newest {
		listedDocs = append(listedDocs, Record{Document: d}) // chunks are read on first use
	}
	kb.docs.publish(listedDocs)

	// Reconcile the snapshot with the store.
	kb.mu.RLock()
	idx := kb.idx
	kb.mu.RUnlock()
	b := idx.NewBatch()
	for id, n := range indexed {
		if !kb.docs.has(id) {
			for i := 0; i < n; i++ {
				b.Delete(chunkID(id, i))
			}
		}
	}
	if len(b.IndexOps) > 0 {
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("knowledge: drop deleted documents from index: %w", err)
		}
	}
	var missing []Record
	for _, d := range kb.Documents() {
		if _, ok := indexed[d.ID]; ok {
			continue
		}
		cs, err := kb.cfg.Store.Chunks(ctx, d.ID)
		if err != nil {
			return fmt.Errorf("knowledge: read chunks of %q to index them: %w", d.Source, err)
		}
		missing = append(missing, Record{Document: d, Chunks: cs})
	}
	if len(missing) > 0 {
		// The documents are already listed; index them without the
		// unchanged-document shortcut.
		ids := make([]string, len(missing))
		for i, r := range missing {
			ids[i] = r.Document.ID
		}
		kb.docs.drop(ids)
		if _, err := kb.indexRecords(ctx, missing, false, nil); err != nil {
			return err
		}
	}
	// A snapshot that did not give the document list (written before the
	// store's last write, or before versions) is saved again, so the next
	// load can take the list from it.
	_, versioned := kb.cfg.Store.(Versioned)
	if loadErr != nil || len(missing) > 0 || len(indexed) != kb.docs.len() || (versioned && !listed) {
		// Everything is loaded and stored; the snapshot only speeds up the
		// next load. A full disk must not make this load fail (the app
		// would fall back to an empty knowledge base): the next import
		// reports it.
		_ = kb.saveIndexLocked(ctx)
	}
	return nil
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

// loadSnapshot adopts the saved segments and returns which documents (with
// their chunk counts) the index now holds in full. A missing or unusable
// snapshot is not fatal: everything is then indexed from text; its error
// is returned to say so.
func (kb *KB) loadSnapshot(snap *savedSnapshot, err error) (map[string]int, error) {
	if err != nil || snap == nil {
		return map[string]int{}, err
	}
	h, data := snap.header, snap.data
	var deleted []string
	for _, s := range h.Segments {
		if s.Size > len(data) {
			err = errors.New("knowledge: saved index is truncated")
			break
		}
		if err = kb.idx.Adopt(data[:s.Size:s.Size]); err != nil {
			break
		}
		data = data[s.Size:]
		deleted = append(deleted, s.Deleted...)
	}
	if err != nil {
		// Start over from an empty index rather than trust half a snapshot.
		fresh, ferr := memindex.Open()
		if ferr != nil {
			return nil, ferr
		}
		kb.mu.Lock()
		old := kb.idx
		kb.idx = fresh
		kb.mu.Unlock()
		old.Close()
		return map[string]int{}, err
	}
	indexed := make(map[string]int, len(h.Documents))
	for _, d := range h.Documents {
		indexed[d.ID] = d.Chunks
	}
	if len(deleted) > 0 {
		// Deleting by id also hits a live copy of the same id in a later
		// segment (a document deleted and then imported again): such
		// documents are indexed again from their chunks.
		b := kb.idx.NewBatch()
		for _, id := range deleted {
			b.Delete(id)
			if doc, _, ok := strings.Cut(id, "#"); ok {
				delete(indexed, doc)
			}
		}
		if err := kb.idx.Batch(b); err != nil {
			return map[string]int{}, fmt.Errorf("knowledge: replay deletions: %w", err)
		}
	}
	return indexed, nil
}
