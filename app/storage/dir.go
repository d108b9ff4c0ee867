package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"tinyrag/app/knowledge"
)

// Dir is a knowledge.Store in a directory:
//
//	docs/ID.json    the document (written last: it commits the document)
//	chunks/ID.json  its chunks
//	index.bin       the saved index snapshot
//
// Every file is written to a temporary name and renamed into place, so a
// crash never leaves a half-written file. A Put that fails part-way removes
// the documents it already committed.
type Dir struct{ root string }

// OpenDir returns a Dir at root, creating the directories it needs.
func OpenDir(root string) (*Dir, error) {
	for _, sub := range []string{"docs", "chunks"} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o700); err != nil {
			return nil, fmt.Errorf("storage: create %s: %w", root, err)
		}
	}
	return &Dir{root: root}, nil
}

var _ knowledge.Store = (*Dir)(nil)

// validID keeps ids from naming paths outside the directory.
func validID(id string) error {
	if id == "" || strings.ContainsAny(id, `/\:`) || id == "." || id == ".." {
		return fmt.Errorf("storage: invalid document id %q", id)
	}
	return nil
}

func (d *Dir) docPath(id string) string   { return filepath.Join(d.root, "docs", id+".json") }
func (d *Dir) chunkPath(id string) string { return filepath.Join(d.root, "chunks", id+".json") }

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return quota(err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return quota(err)
	}
	return nil
}

// quota turns "no space left" into ErrQuota.
func quota(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%w (%v)", ErrQuota, err)
	}
	return err
}

// Put implements knowledge.Store.
func (d *Dir) Put(ctx context.Context, recs []knowledge.Record) error {
	var done []string
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			d.rollback(done)
			return err
		}
		id := r.Document.ID
		if err := validID(id); err != nil {
			d.rollback(done)
			return err
		}
		chunks, err := json.Marshal(r.Chunks)
		if err != nil {
			d.rollback(done)
			return fmt.Errorf("storage: encode chunks of %q: %w", r.Document.Source, err)
		}
		doc, err := json.Marshal(r.Document)
		if err != nil {
			d.rollback(done)
			return fmt.Errorf("storage: encode %q: %w", r.Document.Source, err)
		}
		if err := writeAtomic(d.chunkPath(id), chunks); err != nil {
			d.rollback(done)
			return fmt.Errorf("storage: write chunks of %q: %w", r.Document.Source, err)
		}
		if err := writeAtomic(d.docPath(id), doc); err != nil {
			os.Remove(d.chunkPath(id))
			d.rollback(done)
			return fmt.Errorf("storage: write %q: %w", r.Document.Source, err)
		}
		done = append(done, id)
	}
	return nil
}

func (d *Dir) rollback(ids []string) {
	for _, id := range ids {
		os.Remove(d.docPath(id))
		os.Remove(d.chunkPath(id))
	}
}

// Delete implements knowledge.Store. The document file goes first: a crash
// in between leaves only chunks nobody lists.
func (d *Dir) Delete(ctx context.Context, ids ...string) error {
	for _, id := range ids {
		if err := validID(id); err != nil {
			return err
		}
		if err := os.Remove(d.docPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("storage: delete %s: %w", id, err)
		}
		if err := os.Remove(d.chunkPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("storage: delete chunks of %s: %w", id, err)
		}
	}
	return nil
}

// Documents implements knowledge.Store.
func (d *Dir) Documents(ctx context.Context) ([]knowledge.Document, error) {
	entries, err := os.ReadDir(filepath.Join(d.root, "docs"))
	if err != nil {
		return nil, fmt.Errorf("storage: list documents: %w", err)
	}
	var out []knowledge.Document
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d.root, "docs", name))
		if err != nil {
			return nil, fmt.Errorf("storage: read %s: %w", name, err)
		}
		var doc knowledge.Document
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("storage: %s is damaged: %w", name, err)
		}
		out = append(out, doc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Chunks implements knowledge.Store.
func (d *Dir) Chunks(ctx context.Context, id string) ([]knowledge.Chunk, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	if _, err := os.Stat(d.docPath(id)); errors.Is(err, fs.ErrNotExist) {
		return nil, &knowledge.NotFoundError{ID: id}
	}
	data, err := os.ReadFile(d.chunkPath(id))
	if err != nil {
		return nil, fmt.Errorf("storage: read chunks of %s: %w", id, err)
	}
	var cs []knowledge.Chunk
	if err := json.Unmarshal(data, &cs); err != nil {
		return nil, fmt.Errorf("storage: chunks of %s are damaged: %w", id, err)
	}
	return cs, nil
}

// PutIndex implements knowledge.Store.
func (d *Dir) PutIndex(ctx context.Context, snap []byte) error {
	if err := writeAtomic(filepath.Join(d.root, "index.bin"), snap); err != nil {
		return fmt.Errorf("storage: write index: %w", err)
	}
	return nil
}

// Index implements knowledge.Store.
func (d *Dir) Index(ctx context.Context) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(d.root, "index.bin"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: read index: %w", err)
	}
	return data, nil
}
