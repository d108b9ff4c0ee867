package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tinyrag/app/knowledge/memindex"
)

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
	snap, err := encodeSnapshot(snapshotHeader{Language: kb.cfg.Language, Documents: kb.Documents(), StoreVersion: version}, kb.idx)
	if err != nil {
		return err
	}
	if err := kb.cfg.Store.PutIndex(ctx, snap); err != nil {
		return fmt.Errorf("knowledge: save index snapshot (%d bytes): %w", len(snap), err)
	}
	return nil
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
	b := kb.idx.NewBatch()
	for id, n := range indexed {
		if !kb.docs.has(id) {
			for i := 0; i < n; i++ {
				b.Delete(chunkID(id, i))
			}
		}
	}
	if len(b.IndexOps) > 0 {
		if err := kb.idx.Batch(b); err != nil {
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
	// A store that holds nothing, not even a snapshot (a first visit), has
	// nothing to save: writing an empty snapshot would only delay the
	// app's start.
	empty := snap == nil && snapErr == nil && kb.docs.len() == 0
	// A snapshot that did not give the document list (written before the
	// store's last write, or before versions) is saved again, so the next
	// load can take the list from it.
	_, versioned := kb.cfg.Store.(Versioned)
	if !empty && (loadErr != nil || len(missing) > 0 || len(indexed) != kb.docs.len() || (versioned && !listed)) {
		// Everything is loaded and stored; the snapshot only speeds up the
		// next load. A full disk must not make this load fail (the app
		// would fall back to an empty knowledge base): the next import
		// reports it.
		_ = kb.saveIndexLocked(ctx)
	}
	return nil
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
