package chats

import (
	"context"
	"errors"
	"sort"
	"testing"
	"time"
)

// testStore checks the Store contract; reopen returns a store over the
// same data, as after a page reload.
func testStore(t *testing.T, reopen func() Store) {
	ctx := context.Background()
	s := reopen()
	all, err := s.All(ctx)
	if err != nil || len(all) != 0 {
		t.Fatalf("a new store: %d chats, %v", len(all), err)
	}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a := &Chat{ID: "a", Title: "first", Renamed: true, Created: at, Updated: at}
	a.AddQuestion("what is up?", at)
	b := &Chat{ID: "b", Title: "second", Created: at, Updated: at}
	for _, c := range []*Chat{a, b} {
		if err := s.Put(ctx, c); err != nil {
			t.Fatalf("Put %s: %v", c.ID, err)
		}
	}
	if err := s.Put(ctx, &Chat{Title: "no id"}); !errors.Is(err, ErrNoID) {
		t.Fatalf("Put without an id: %v, want ErrNoID", err)
	}
	a.Title = "renamed"
	if err := s.Put(ctx, a); err != nil {
		t.Fatalf("Put again: %v", err)
	}
	if err := s.Delete(ctx, "b"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Delete(ctx, "never-stored"); err != nil {
		t.Fatalf("Delete of an unknown id: %v", err)
	}

	all, err = reopen().All(ctx)
	if err != nil {
		t.Fatalf("All after reopening: %v", err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	if len(all) != 1 || all[0].ID != "a" || all[0].Title != "renamed" ||
		len(all[0].Messages) != 2 || all[0].Messages[0].Content != "what is up?" {
		t.Fatalf("after reopening: %+v", all)
	}
}

func TestMemStore_KeepsTheStoreContract(t *testing.T) {
	s := NewMemStore()
	testStore(t, func() Store { return s })
}
