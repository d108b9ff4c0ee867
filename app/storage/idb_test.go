//go:build js && wasm

package storage

import (
	"errors"
	"fmt"
	"syscall/js"
	"testing"
	"time"

	"tinyrag/app/knowledge"
)

// hasIndexedDB: Node has none unless a spec implementation (such as the
// fake-indexeddb package) is loaded; browsers always do.
func hasIndexedDB(t *testing.T) {
	if v := js.Global().Get("indexedDB"); v.IsUndefined() || v.IsNull() {
		t.Skip("no IndexedDB in this JavaScript runtime (run in a browser, or in Node with NODE_OPTIONS=--require=fake-indexeddb/auto)")
	}
}

func dbName(t *testing.T) string {
	return fmt.Sprintf("tinyrag-test-%s-%d", t.Name(), time.Now().UnixNano())
}

func TestIndexedDB_KeepsTheStoreContract(t *testing.T) {
	hasIndexedDB(t)
	s, err := OpenIndexedDB(ctx, dbName(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	testStore(t, s)
}

func TestIndexedDB_KnowledgeBaseSurvivesReopen(t *testing.T) {
	hasIndexedDB(t)
	name := dbName(t)
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

func TestDomError_QuotaExceededIsErrQuota(t *testing.T) {
	ex := js.Global().Get("Object").New()
	ex.Set("name", "QuotaExceededError")
	ex.Set("message", "The quota has been exceeded.")
	if err := domError(ex); !errors.Is(err, ErrQuota) {
		t.Fatalf("got %v, want ErrQuota", err)
	}
	ex.Set("name", "ConstraintError")
	if err := domError(ex); errors.Is(err, ErrQuota) {
		t.Fatalf("ConstraintError became ErrQuota")
	}
}
