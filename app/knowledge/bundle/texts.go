package bundle

import (
	"context"
	"fmt"
	"slices"

	"tinyrag/app/knowledge/rank"
)

// Reading the documents' texts: the group table that names every
// fragment, and the fragments of the documents a query returns.

// groupsRead reports whether the group table is read.
func (ix *Index) groupsRead() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.groups != nil
}

// loadGroups reads the group table, unless it is read.
func (ix *Index) loadGroups(ctx context.Context) error {
	if ix.groupsRead() {
		return nil
	}
	data, err := ix.file(ctx, ix.man.Fragments.Table)
	if err != nil {
		return err
	}
	groups, err := decodeGroupTable(ix.man, data)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	ix.groups = groups
	ix.mu.Unlock()
	return nil
}

// fragmentFile returns the file of document ord's fragment, or "" while
// the group table is not read.
func (ix *Index) fragmentFile(ord uint32) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.groups == nil {
		return ""
	}
	per := uint32(ix.man.Fragments.Group)
	return fragmentFile(ix.groups[ord/per], int(ord%per))
}

// FetchText implements rank.Fetcher: it fetches, at once, the fragments
// of the chunks' documents (each reads the group table first, should a
// query come before Preload has read it).
func (ix *Index) FetchText(ctx context.Context, chunks []rank.ChunkRef) error {
	ords := ix.startText(chunks)
	return parallel(len(ords), func(k int) error { _, err := ix.fragment(ctx, ords[k]); return err })
}

// startText asks at once for the fragments of chunks' documents not read
// yet, and returns their ordinals.
func (ix *Index) startText(chunks []rank.ChunkRef) []uint32 {
	var ords []uint32
	var files []string
	ix.mu.RLock()
	for _, c := range chunks {
		o := uint32(c.Doc.Ord)
		if _, ok := ix.frags[o]; ok || slices.Contains(ords, o) || int(o) >= ix.man.Docs {
			continue
		}
		ords = append(ords, o)
	}
	ix.mu.RUnlock()
	for _, o := range ords {
		if f := ix.fragmentFile(o); f != "" {
			files = append(files, f)
		}
	}
	ix.begin(files)
	return ords
}

// fragment returns document ord and its chunks, fetching them (and the
// group table) on first use.
func (ix *Index) fragment(ctx context.Context, ord uint32) (*fragment, error) {
	ix.mu.RLock()
	f := ix.frags[ord]
	ix.mu.RUnlock()
	if f != nil {
		return f, nil
	}
	if int(ord) >= ix.man.Docs {
		return nil, fmt.Errorf("%w: no document %d", ErrDamaged, ord)
	}
	if err := ix.loadGroups(ctx); err != nil {
		return nil, err
	}
	name := ix.fragmentFile(ord)
	data, err := ix.file(ctx, name)
	if err != nil {
		return nil, err
	}
	if f, err = decodeFragment(name, data); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	ix.frags[ord] = f
	ix.known[f.Document.ID] = true
	ix.mu.Unlock()
	return f, nil
}
