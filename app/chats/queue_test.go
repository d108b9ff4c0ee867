package chats

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"
)

// failingStore is a MemStore that refuses to store the chat titled
// "refused".
type failingStore struct{ *MemStore }

func (s failingStore) Put(ctx context.Context, c *Chat) error {
	if c.Title == "refused" {
		return errors.New("quota exceeded")
	}
	return s.MemStore.Put(ctx, c)
}

func TestQueue_WritesLaterInOrderWhatWasTrueWhenCalled(t *testing.T) {
	ctx := context.Background()
	store := failingStore{NewMemStore()}
	var writers []func()
	var failed []error
	q := NewQueue(store, func(f func()) { writers = append(writers, f) }, func(err error) { failed = append(failed, err) })

	a := &Chat{ID: "a", Title: "first"}
	steps := []struct {
		name string
		do   func() error
	}{
		{"put a", func() error { return q.Put(ctx, a) }},
		{"rename a after putting it", func() error { a.Title = "changed after the put"; return nil }},
		{"put b", func() error { return q.Put(ctx, &Chat{ID: "b", Title: "second"}) }},
		{"put a chat the store refuses", func() error { return q.Put(ctx, &Chat{ID: "c", Title: "refused"}) }},
		{"delete b", func() error { return q.Delete(ctx, "b") }},
		{"put d", func() error { return q.Put(ctx, &Chat{ID: "d", Title: "fourth"}) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	if err := q.Put(ctx, &Chat{Title: "no id"}); !errors.Is(err, ErrNoID) {
		t.Errorf("Put without an id: %v, want ErrNoID at once", err)
	}
	if all, _ := store.All(ctx); len(all) != 0 {
		t.Fatalf("the store has %d chats before the writer ran", len(all))
	}
	if len(writers) != 1 {
		t.Fatalf("%d writers started for one run of writes, want 1", len(writers))
	}
	writers[0]()

	all, err := store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range all {
		got = append(got, c.ID+"="+c.Title)
	}
	sort.Strings(got)
	if want := []string{"a=first", "d=fourth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored %v, want %v (a as it was put, b deleted after its put, c refused)", got, want)
	}
	if len(failed) != 1 || failed[0].Error() != "quota exceeded" {
		t.Errorf("failed writes reported: %v, want the one refused", failed)
	}
	if err := q.Delete(ctx, "a"); err != nil || len(writers) != 2 {
		t.Errorf("a write after the queue ran empty: err %v, %d writers started, want a new one", err, len(writers))
	}
}
