package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"tinyrag/app/knowledge"
)

var ctx = context.Background()

func record(id string, chunks int) knowledge.Record {
	r := knowledge.Record{Document: knowledge.Document{ID: id, Title: "T " + id, Source: "src/" + id,
		Added: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Size: 10, Chunks: chunks}}
	for n := 0; n < chunks; n++ {
		r.Chunks = append(r.Chunks, knowledge.Chunk{ID: fmt.Sprintf("%s#%d", id, n), DocID: id, N: n, Text: fmt.Sprintf("chunk %d of %s", n, id)})
	}
	return r
}

// testStore is the contract every knowledge.Store must keep.
func testStore(t *testing.T, s knowledge.Store) {
	t.Run("empty", func(t *testing.T) {
		docs, err := s.Documents(ctx)
		if err != nil || len(docs) != 0 {
			t.Fatalf("got %v, %v", docs, err)
		}
		if snap, err := s.Index(ctx); err != nil || snap != nil {
			t.Fatalf("index of an empty store: %v, %v", snap, err)
		}
		var nf *knowledge.NotFoundError
		if _, err := s.Chunks(ctx, "nope"); !errors.As(err, &nf) {
			t.Fatalf("chunks of unknown id: %v", err)
		}
	})
	t.Run("put, list, read, delete", func(t *testing.T) {
		if err := s.Put(ctx, []knowledge.Record{record("a", 2), record("b", 1)}); err != nil {
			t.Fatal(err)
		}
		docs, err := s.Documents(ctx)
		if err != nil || len(docs) != 2 {
			t.Fatalf("got %v, %v", docs, err)
		}
		want := record("a", 2)
		for _, d := range docs {
			if d.ID == "a" && (d.Title != want.Document.Title || !d.Added.Equal(want.Document.Added) || d.Chunks != 2) {
				t.Errorf("stored %+v, want %+v", d, want.Document)
			}
		}
		cs, err := s.Chunks(ctx, "a")
		if err != nil || fmt.Sprint(cs) != fmt.Sprint(want.Chunks) {
			t.Fatalf("chunks %+v, %v; want %+v", cs, err, want.Chunks)
		}
		if err := s.Delete(ctx, "a", "unknown"); err != nil {
			t.Fatal(err)
		}
		docs, _ = s.Documents(ctx)
		if len(docs) != 1 || docs[0].ID != "b" {
			t.Fatalf("after delete: %v", docs)
		}
		var nf *knowledge.NotFoundError
		if _, err := s.Chunks(ctx, "a"); !errors.As(err, &nf) {
			t.Fatalf("chunks of deleted document: %v", err)
		}
	})
	t.Run("a version changes with every document write and only then", func(t *testing.T) {
		vs, ok := s.(knowledge.Versioned)
		if !ok {
			t.Skip("this store keeps no version")
		}
		version := func() string {
			t.Helper()
			v, err := vs.Version(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		seen := map[string]bool{}
		for _, write := range []func() error{
			func() error { return s.Put(ctx, []knowledge.Record{record("v", 1)}) },
			func() error { return s.Put(ctx, []knowledge.Record{record("v", 2)}) },
			func() error { return s.Delete(ctx, "v") },
		} {
			if err := write(); err != nil {
				t.Fatal(err)
			}
			v := version()
			if v == "" || seen[v] {
				t.Fatalf("version %q after a write, seen before: %v", v, seen[v])
			}
			seen[v] = true
			if err := s.PutIndex(ctx, []byte("snapshot")); err != nil {
				t.Fatal(err)
			}
			s.Documents(ctx)
			if again := version(); again != v {
				t.Fatalf("version moved from %q to %q without a document write", v, again)
			}
		}
	})
	t.Run("index snapshot", func(t *testing.T) {
		snap := []byte("tinyrag-index\n\x00\x01binary\xff")
		if err := s.PutIndex(ctx, snap); err != nil {
			t.Fatal(err)
		}
		got, err := s.Index(ctx)
		if err != nil || string(got) != string(snap) {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

// testReload checks a knowledge base survives a reload through the store.
func testReload(t *testing.T, open func() knowledge.Store) {
	kb, err := knowledge.Open(ctx, knowledge.Config{Store: open()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kb.AddBatch(ctx, []knowledge.Input{
		{Title: "Tides", Source: "tides.txt", Text: "Tides are caused by the moon's gravity."},
		{Title: "Stars", Source: "stars.txt", Text: "Stars fuse hydrogen into helium."},
	}, nil); err != nil {
		t.Fatal(err)
	}
	kb.Close()
	again, err := knowledge.Open(ctx, knowledge.Config{Store: open()})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	hits, err := again.Search(ctx, "moon gravity", knowledge.SearchOptions{K: 3})
	if err != nil || len(hits) != 1 || hits[0].Source != "tides.txt" || hits[0].Text == "" {
		t.Fatalf("after reload: %+v, %v", hits, err)
	}
}

func TestDir_KeepsTheStoreContract(t *testing.T) {
	s, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testStore(t, s)
}

func TestDir_KnowledgeBaseSurvivesReload(t *testing.T) {
	dir := t.TempDir()
	testReload(t, func() knowledge.Store {
		s, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestDir_RefusesIDsThatArePaths(t *testing.T) {
	s, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../x", "a/b", "", ".."} {
		if err := s.Put(ctx, []knowledge.Record{record(id, 1)}); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
}

func TestDir_FailedPutLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The second record's id is invalid: the first must be rolled back.
	if err := s.Put(ctx, []knowledge.Record{record("ok", 1), record("bad/id", 1)}); err == nil {
		t.Fatal("want an error")
	}
	if docs, _ := s.Documents(ctx); len(docs) != 0 {
		t.Fatalf("half a Put survived: %v", docs)
	}
	entries, _ := os.ReadDir(dir + "/chunks")
	if len(entries) != 0 {
		t.Fatalf("left-over chunk files: %v", entries)
	}
}

func TestQuota_NoSpaceIsErrQuota(t *testing.T) {
	err := quota(&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC})
	if !errors.Is(err, ErrQuota) {
		t.Fatalf("got %v, want ErrQuota", err)
	}
	if err := quota(os.ErrPermission); errors.Is(err, ErrQuota) {
		t.Fatalf("permission error became ErrQuota")
	}
}

// The in-memory store the tests and throwaway knowledge bases use keeps the
// same contract, versions included.
func TestMemStore_KeepsTheStoreContract(t *testing.T) {
	testStore(t, knowledge.NewMemStore())
}
