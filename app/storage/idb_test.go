//go:build js && wasm

package storage

import (
	crand "crypto/rand"
	"encoding/base64"
	"errors"
	"testing"

	"tinyrag/app/knowledge"

	"tinyrag/app/idb/idbtest"
)

func TestIndexedDB_KeepsTheStoreContract(t *testing.T) {
	idbtest.Need(t)
	s, err := OpenIndexedDB(ctx, idbtest.Name(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	testStore(t, s)
}

func TestIndexedDB_KnowledgeBaseSurvivesReopen(t *testing.T) {
	idbtest.Need(t)
	name := idbtest.Name(t)
	var open []*IndexedDB
	defer func() {
		for _, s := range open {
			s.Close()
		}
	}()
	testReload(t, func() knowledge.Store {
		s, err := OpenIndexedDB(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, s)
		return s
	})
}

// TestQuotaIDB_AFullQuotaIsErrQuotaAndKeepsWhatWasStored runs under a small
// storage quota that app/idb's TestIndexedDBPackagesInChromium sets for the
// page's origin (it needs the DevTools protocol).
func TestQuotaIDB_AFullQuotaIsErrQuotaAndKeepsWhatWasStored(t *testing.T) {
	idbtest.Need(t)
	s, err := OpenIndexedDB(ctx, idbtest.Name(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, []knowledge.Record{record("small", 1)}); err != nil {
		t.Fatal(err)
	}
	big := record("big", 1)
	// Random text: Chromium compresses large values, so a repeated
	// string would fit in any quota.
	raw := make([]byte, 6<<20)
	crand.Read(raw)
	big.Chunks[0].Text = base64.StdEncoding.EncodeToString(raw) // 8 MiB
	err = s.Put(ctx, []knowledge.Record{big})
	if !errors.Is(err, ErrQuota) {
		t.Fatalf("Put over the quota: %v, want ErrQuota", err)
	}
	docs, err := s.Documents(ctx)
	if err != nil || len(docs) != 1 || docs[0].ID != "small" {
		t.Fatalf("after the refused write: %+v, %v; want the earlier document only", docs, err)
	}
	if _, err := s.Chunks(ctx, "big"); err == nil {
		t.Fatal("chunks of the refused document were kept")
	}
}
