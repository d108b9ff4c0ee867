//go:build js && wasm

package chats

import (
	"context"
	"syscall/js"
	"testing"

	"tinyrag/app/idb"

	"tinyrag/app/idb/idbtest"
)

func TestIDBStore_KeepsTheStoreContract(t *testing.T) {
	idbtest.Need(t)
	name := idbtest.Name(t)
	var open []*IDBStore
	defer func() {
		for _, s := range open {
			s.Close()
		}
	}()
	testStore(t, func() Store {
		s, err := openIDB(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, s)
		return s
	})
}

func TestIDBStore_ADamagedRecordHidesNoOtherChat(t *testing.T) {
	idbtest.Need(t)
	ctx := context.Background()
	s, err := openIDB(ctx, idbtest.Name(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, &Chat{ID: "good", Title: "fine"}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Do(ctx, idb.ReadWrite, func(tx js.Value) {
		tx.Call("objectStore", idbStore).Call("put", `{"id":"bad","messages":[`, "bad")
	}, idbStore); err != nil {
		t.Fatal(err)
	}
	all, err := s.All(ctx)
	if err != nil || len(all) != 1 || all[0].ID != "good" {
		t.Fatalf("All = %+v, %v; want the one good chat", all, err)
	}
}

func TestIDBStore_PutHasCommittedWhenItReturns(t *testing.T) {
	idbtest.Need(t)
	ctx := context.Background()
	name := idbtest.Name(t)
	s, err := openIDB(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, &Chat{ID: "c", Title: "durable"}); err != nil {
		t.Fatal(err)
	}
	// Closing right away must not lose it: Put waited for the commit.
	s.Close()
	s2, err := openIDB(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	all, err := s2.All(ctx)
	if err != nil || len(all) != 1 || all[0].Title != "durable" {
		t.Fatalf("All = %+v, %v", all, err)
	}
}
