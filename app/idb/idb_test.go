//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"tinyrag/app/idb/idbtest"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute) // hang guard only
	t.Cleanup(cancel)
	return c
}

func get(t *testing.T, db *DB, store, key string) js.Value {
	t.Helper()
	var req js.Value
	if err := db.Do(ctx(t), ReadOnly, func(tx js.Value) { req = tx.Call("objectStore", store).Call("get", key) }, store); err != nil {
		t.Fatal(err)
	}
	return req.Get("result")
}

func TestOpen_CreatesTheStoresAndWritesAreReadableOnceCommitted(t *testing.T) {
	idbtest.Need(t)
	name := idbtest.Name(t)
	db, err := Open(ctx(t), name, 1, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Do(ctx(t), ReadWrite, func(tx js.Value) {
		tx.Call("objectStore", "a").Call("put", "one", "k")
		tx.Call("objectStore", "b").Call("put", "two", "k")
	}, "a", "b"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// A second connection sees what the first committed.
	db, err = Open(ctx(t), name, 1, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if a, b := get(t, db, "a", "k"), get(t, db, "b", "k"); a.String() != "one" || b.String() != "two" {
		t.Fatalf("read back %v %v", a, b)
	}
}

func TestOpen_AnUpgradeAddsStoresAndKeepsData(t *testing.T) {
	idbtest.Need(t)
	name := idbtest.Name(t)
	db, err := Open(ctx(t), name, 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Do(ctx(t), ReadWrite, func(tx js.Value) { tx.Call("objectStore", "a").Call("put", "kept", "k") }, "a"); err != nil {
		t.Fatal(err)
	}
	// The first connection stays open: it must step aside for the
	// upgrade instead of blocking it.
	db2, err := Open(ctx(t), name, 2, "a", "new")
	if err != nil {
		t.Fatalf("upgrade with an older connection open: %v", err)
	}
	defer db2.Close()
	if v := get(t, db2, "a", "k"); v.String() != "kept" {
		t.Fatalf("after the upgrade a[k] = %v", v)
	}
	if err := db2.Do(ctx(t), ReadWrite, func(tx js.Value) { tx.Call("objectStore", "new").Call("put", 1, "x") }, "new"); err != nil {
		t.Fatalf("the new store: %v", err)
	}
	db.Close()
}

func TestOpen_AConnectionThatHoldsOnBlocksTheUpgradeWithAClearError(t *testing.T) {
	idbtest.Need(t)
	name := idbtest.Name(t)
	// A connection that ignores versionchange, as an old version of the
	// app in another tab might.
	db, err := Open(ctx(t), name, 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	db.v.Set("onversionchange", js.Null())
	defer db.Close()
	_, err = Open(ctx(t), name, 2, "a")
	if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), name) {
		t.Fatalf("err = %v, want ErrBlocked naming the database", err)
	}
}

func TestDo_AnExceptionAbortsTheWholeTransaction(t *testing.T) {
	idbtest.Need(t)
	db, err := Open(ctx(t), idbtest.Name(t), 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Do(ctx(t), ReadWrite, func(tx js.Value) {
		s := tx.Call("objectStore", "a")
		s.Call("put", "first", "k1")
		// A function cannot be cloned into IndexedDB: DataCloneError.
		s.Call("put", js.Global().Get("Object").Get("keys"), "k2")
	}, "a")
	if err == nil || !strings.Contains(err.Error(), "DataCloneError") {
		t.Fatalf("err = %v, want the DataCloneError", err)
	}
	if v := get(t, db, "a", "k1"); !v.IsUndefined() {
		t.Fatalf("the write before the failure was kept (%v): the transaction was not aborted", v)
	}
}

func TestDo_AFailedRequestIsReportedAndNothingIsKept(t *testing.T) {
	idbtest.Need(t)
	db, err := Open(ctx(t), idbtest.Name(t), 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Do(ctx(t), ReadWrite, func(tx js.Value) { tx.Call("objectStore", "a").Call("add", "x", "dup") }, "a"); err != nil {
		t.Fatal(err)
	}
	err = db.Do(ctx(t), ReadWrite, func(tx js.Value) {
		s := tx.Call("objectStore", "a")
		s.Call("put", "y", "other")
		s.Call("add", "again", "dup") // ConstraintError: the key exists
	}, "a")
	if err == nil || !strings.Contains(err.Error(), "ConstraintError") {
		t.Fatalf("err = %v, want the ConstraintError", err)
	}
	if v := get(t, db, "a", "other"); !v.IsUndefined() {
		t.Fatalf("a write of the failed transaction was kept: %v", v)
	}
}

func TestDo_ACancelledContextAbortsTheTransaction(t *testing.T) {
	idbtest.Need(t)
	db, err := Open(ctx(t), idbtest.Name(t), 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, cancel := context.WithCancel(context.Background())
	cancel()
	err = db.Do(c, ReadWrite, func(tx js.Value) { tx.Call("objectStore", "a").Call("put", "x", "k") }, "a")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if v := get(t, db, "a", "k"); !v.IsUndefined() {
		t.Fatalf("the cancelled write was kept: %v", v)
	}
}

func TestDo_AMissingStoreIsAnError(t *testing.T) {
	idbtest.Need(t)
	db, err := Open(ctx(t), idbtest.Name(t), 1, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Do(ctx(t), ReadOnly, func(js.Value) {}, "missing")
	if err == nil || !strings.Contains(err.Error(), "NotFoundError") {
		t.Fatalf("err = %v, want NotFoundError", err)
	}
}

func TestDomError_QuotaExceededIsErrQuota(t *testing.T) {
	for _, tc := range []struct {
		name  string
		quota bool
	}{{"QuotaExceededError", true}, {"ConstraintError", false}, {"AbortError", false}} {
		ex := js.Global().Get("Object").New()
		ex.Set("name", tc.name)
		ex.Set("message", "some message")
		err := domError(ex)
		if errors.Is(err, ErrQuota) != tc.quota {
			t.Errorf("%s: errors.Is(ErrQuota) = %t, want %t", tc.name, !tc.quota, tc.quota)
		}
		if !strings.Contains(err.Error(), "some message") {
			t.Errorf("%s: %v lost the browser's message", tc.name, err)
		}
	}
}
