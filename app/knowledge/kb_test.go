package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/memindex"
)

var ctx = context.Background()

// clock returns increasing times so "newest" is well defined.
func clock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

func newKB(t *testing.T, cfg Config) *KB {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = clock()
	}
	kb, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kb.Close() })
	return kb
}

var corpus = []Input{
	{Title: "Returns", Source: "policy/returns.md", Type: "markdown", Text: "# Returns\n\nItems can be returned within 30 days with the receipt. Refunds go to the original payment method."},
	{Title: "Shipping", Source: "policy/shipping.md", Type: "markdown", Text: "# Shipping\n\nWe ship worldwide. Express delivery takes two days; standard delivery takes a week."},
	{Title: "Warranty", Source: "policy/warranty.md", Type: "markdown", Text: "All devices carry a two year warranty covering manufacturing defects, not accidental damage."},
}

func sources(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Source)
	}
	return out
}

func mustAdd(t *testing.T, kb *KB, ins ...Input) []Document {
	t.Helper()
	docs, err := kb.AddBatch(ctx, ins, nil)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func find(t *testing.T, kb *KB, q string) []Hit {
	t.Helper()
	hits, err := kb.Search(ctx, q, SearchOptions{K: 5, Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestKB_SearchFindsTheMatchingDocumentFirst(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, corpus...)
	tests := []struct{ query, want string }{
		{"how long do I have to return an item", "policy/returns.md"},
		{"express delivery days", "policy/shipping.md"},
		{"warranty defects", "policy/warranty.md"},
		{"REFUNDS", "policy/returns.md"},
	}
	for _, tt := range tests {
		hits := find(t, kb, tt.query)
		if len(hits) == 0 || hits[0].Source != tt.want {
			t.Errorf("%q: got %v, want %s first", tt.query, sources(hits), tt.want)
		}
	}
}

func TestKB_SearchOfNothingIsAnError(t *testing.T) {
	kb := newKB(t, Config{})
	if _, err := kb.Search(ctx, "   ", SearchOptions{}); !errors.Is(err, ErrEmptyQuery) {
		t.Fatalf("got %v, want ErrEmptyQuery", err)
	}
	hits, err := kb.Search(ctx, "anything", SearchOptions{})
	if err != nil || len(hits) != 0 {
		t.Fatalf("empty knowledge base: got %v, %v; want no hits, no error", hits, err)
	}
}

func TestKB_TitleCountsAsBodyUnlessGivenABonus(t *testing.T) {
	// One note has "zebras" in its text, the other in its title; the two
	// are otherwise alike. The title is part of every chunk's body, so
	// without a bonus (the default) a title word counts as much as a word
	// of the text; a title bonus puts the titled note first.
	tests := []struct {
		name  string
		boost float64
		tie   bool
	}{
		{"no bonus (the default): a tie", 0, true},
		{"no bonus, negative weight", -1, true},
		{"bonus 0.2", 0.2, false},
		{"bonus 1 (title and body alike, BEIR's multifield)", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kb := newKB(t, Config{TitleBoost: tt.boost})
			mustAdd(t, kb,
				Input{Title: "Notes", Source: "a", Text: "Something about zebras and other animals in the savanna."},
				Input{Title: "Zebras", Source: "b", Text: "Something about notes and other animals in the savanna."},
			)
			hits := find(t, kb, "zebras")
			if len(hits) != 2 {
				t.Fatalf("got %v, want both notes", sources(hits))
			}
			if tie := hits[0].Score == hits[1].Score; tie != tt.tie {
				t.Errorf("scores %v and %v; want a tie: %v", hits[0].Score, hits[1].Score, tt.tie)
			}
			if !tt.tie && hits[0].Source != "b" {
				t.Errorf("got %v, want the note titled Zebras first", sources(hits))
			}
		})
	}
}

func TestKB_OneHitPerDocumentWithNeighbourJoined(t *testing.T) {
	kb := newKB(t, Config{ChunkSize: 200, ChunkOverlap: -1})
	var b strings.Builder
	for i := 0; i < 30; i++ {
		topic := "gardening and soil"
		switch i {
		case 13:
			topic = "volcanoes and lava lava"
		case 14, 15:
			topic = "volcanoes nearby"
		}
		fmt.Fprintf(&b, "Paragraph %d talks about %s.\n\n", i, topic)
	}
	mustAdd(t, kb, Input{Title: "Notes", Source: "v", Text: b.String()},
		Input{Title: "Other", Source: "o", Text: "Lava lamps are decorative."})
	hits := find(t, kb, "volcanoes lava")
	if got := sources(hits); len(got) != 2 || got[0] != "v" {
		t.Fatalf("got %v, want v once, then o", got)
	}
	if d, _ := kb.Document(hits[0].DocID); d.Chunks < 5 {
		t.Fatalf("want a many-chunk document, got %d chunks", d.Chunks)
	}
	for _, want := range []string{"Paragraph 13", "Paragraph 15"} {
		if !strings.Contains(hits[0].Text, want) {
			t.Errorf("best chunk was not joined with its matching neighbour (%s missing): %q", want, hits[0].Text)
		}
	}
	if strings.Count(hits[0].Text, "Paragraph 14 ") > 1 {
		t.Errorf("joined text repeats itself: %q", hits[0].Text)
	}
}

func TestKB_FragmentsAreEscapedAndMarked(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, Input{Title: "HTML", Source: "h", Text: "Use <b>bold</b> & tags for emphasis; emphasis matters."})
	hits := find(t, kb, "emphasis")
	if len(hits) != 1 || len(hits[0].Fragments) == 0 {
		t.Fatalf("got %+v, want one hit with fragments", hits)
	}
	f := hits[0].Fragments[0]
	for _, want := range []string{"&lt;b&gt;bold&lt;/b&gt; &amp; tags", "<mark>emphasis</mark>; <mark>emphasis</mark>"} {
		if !strings.Contains(f, want) {
			t.Errorf("fragment %q lacks %q", f, want)
		}
	}
}

func TestKB_GermanKnowledgeBaseStemsGerman(t *testing.T) {
	kb := newKB(t, Config{Language: "de"})
	mustAdd(t, kb, Input{Title: "Tiere", Source: "de", Text: "Die Katzen schlafen gern in der Sonne."},
		Input{Title: "Andere", Source: "x", Text: "Hunde bellen laut."})
	if hits := find(t, kb, "Katze"); len(hits) != 1 || hits[0].Source != "de" {
		t.Fatalf("got %v, want the text about Katzen", sources(hits))
	}
	if _, err := New(Config{Language: "xx"}); err == nil || !strings.Contains(err.Error(), "unsupported language") {
		t.Fatalf("unsupported language: got %v", err)
	}
}

func TestKB_EmptyInputIsRefusedAndNothingIsAdded(t *testing.T) {
	kb := newKB(t, Config{})
	_, err := kb.AddBatch(ctx, []Input{corpus[0], {Title: "blank", Source: "blank", Text: " \n "}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no text") {
		t.Fatalf("got %v, want a no-text error", err)
	}
	if n := len(kb.Documents()); n != 0 {
		t.Fatalf("%d documents added from a refused batch", n)
	}
}

func TestKB_DeleteRemovesFromIndexAndStore(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	docs := mustAdd(t, kb, corpus...)
	if err := kb.Delete(ctx, docs[0].ID); err != nil {
		t.Fatal(err)
	}
	if hits := find(t, kb, "returned receipt refunds"); len(hits) != 0 {
		t.Fatalf("deleted document still found: %v", sources(hits))
	}
	stored, _ := store.Documents(ctx)
	if len(stored) != 2 {
		t.Fatalf("store holds %d documents, want 2", len(stored))
	}
	var nf *NotFoundError
	if err := kb.Delete(ctx, docs[0].ID); !errors.As(err, &nf) {
		t.Fatalf("second delete: got %v, want NotFoundError", err)
	}
}

func TestKB_ReaddingASourceReplacesIt(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	first := mustAdd(t, kb, Input{Title: "Doc", Source: "s", Text: "The old version mentions pelicans."})
	again := mustAdd(t, kb, Input{Title: "Doc", Source: "s", Text: "The old version mentions pelicans."})
	if again[0].ID != first[0].ID || len(kb.Documents()) != 1 {
		t.Fatalf("unchanged re-import: ids %s/%s, %d documents", first[0].ID, again[0].ID, len(kb.Documents()))
	}
	second := mustAdd(t, kb, Input{Title: "Doc", Source: "s", Text: "The new version mentions flamingos."})
	if second[0].ID == first[0].ID {
		t.Fatal("changed text kept the old id")
	}
	if hits := find(t, kb, "pelicans"); len(hits) != 0 {
		t.Errorf("old version still found: %v", sources(hits))
	}
	if hits := find(t, kb, "flamingos"); len(hits) != 1 {
		t.Errorf("new version not found: %v", sources(hits))
	}
	if stored, _ := store.Documents(ctx); len(stored) != 1 || stored[0].ID != second[0].ID {
		t.Errorf("store holds %+v, want only the new version", stored)
	}
}

func TestKB_FailedReplacementKeepsTheOldVersion(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	mustAdd(t, kb, Input{Title: "Doc", Source: "s", Text: "The old version mentions pelicans."})
	quota := errors.New("quota exceeded")
	store.FailWith(func(op string) error {
		if op == "put" {
			return quota
		}
		return nil
	})
	_, err := kb.Add(ctx, Input{Title: "Doc", Source: "s", Text: "The new version mentions flamingos."})
	if !errors.Is(err, quota) {
		t.Fatalf("got %v, want the store's error", err)
	}
	if hits := find(t, kb, "pelicans"); len(hits) != 1 {
		t.Errorf("old version lost: %v", sources(hits))
	}
	if hits := find(t, kb, "flamingos"); len(hits) != 0 {
		t.Errorf("unstored new version searchable: %v", sources(hits))
	}
}

func TestKB_AddBatchReportsProgressAndYields(t *testing.T) {
	var ins []Input
	for i := 0; i < 10; i++ {
		ins = append(ins, Input{Title: fmt.Sprint("doc ", i), Source: fmt.Sprint(i), Text: fmt.Sprintf("Text number %d.", i)})
	}
	yields := 0
	kb := newKB(t, Config{BatchSize: 3, Yield: func() { yields++ }})
	var got []Progress
	if _, err := kb.AddBatch(ctx, ins, func(p Progress) { got = append(got, p) }); err != nil {
		t.Fatal(err)
	}
	if len(got) < 4 || got[0].Done != 0 || got[len(got)-1].Done != 10 {
		t.Fatalf("progress %+v, want 0 … 10 in batches of 3", got)
	}
	for i, p := range got {
		if p.Total != 10 || (i > 0 && p.Done <= got[i-1].Done) {
			t.Fatalf("progress %+v is not increasing towards 10", got)
		}
	}
	if yields != len(got)-2 {
		t.Errorf("yielded %d times for %d batches, want between batches", yields, len(got)-1)
	}
}

// countingStore is a MemStore that counts chunk reads.
type countingStore struct {
	*MemStore
	mu         sync.Mutex
	chunkReads int
	listings   int // calls of Documents
}

func (s *countingStore) Documents(ctx context.Context) ([]Document, error) {
	s.mu.Lock()
	s.listings++
	s.mu.Unlock()
	return s.MemStore.Documents(ctx)
}

// unversioned hides MemStore's Version: a Store that cannot say whether it
// changed since the snapshot.
type unversioned struct{ Store }

func (s *countingStore) Chunks(ctx context.Context, id string) ([]Chunk, error) {
	s.mu.Lock()
	s.chunkReads++
	s.mu.Unlock()
	return s.MemStore.Chunks(ctx, id)
}

func TestKB_ReloadUsesTheSavedIndex(t *testing.T) {
	store := &countingStore{MemStore: NewMemStore()}
	kb := newKB(t, Config{Store: store, BatchSize: 2})
	mustAdd(t, kb, corpus...)
	want := find(t, kb, "delivery warranty receipt")
	kb.Close()

	again := newKB(t, Config{Store: store})
	if store.chunkReads != 0 {
		t.Fatalf("reload read chunks of %d documents: the saved index was not used", store.chunkReads)
	}
	got := find(t, again, "delivery warranty receipt")
	if fmt.Sprint(sources(got)) != fmt.Sprint(sources(want)) {
		t.Fatalf("after reload %v, before %v", sources(got), sources(want))
	}
	for i := range got {
		if got[i].Score != want[i].Score || got[i].Text != want[i].Text {
			t.Errorf("hit %d differs after reload: %+v vs %+v", i, got[i], want[i])
		}
	}
}

func TestKB_ReloadTakesTheDocumentListFromTheSnapshotOnlyWhileTheStoreIsUnchanged(t *testing.T) {
	store := &countingStore{MemStore: NewMemStore()}
	kb := newKB(t, Config{Store: store})
	docs := mustAdd(t, kb, corpus...)
	if err := kb.Delete(ctx, docs[0].ID); err != nil {
		t.Fatal(err)
	}
	kb.Close()
	want := len(corpus) - 1

	// reload opens the store again and says how often the opening listed
	// the documents and read chunks (before any search, which reads chunk
	// text too).
	reload := func(st Store) (kb *KB, listings, chunkReads int) {
		t.Helper()
		store.listings, store.chunkReads = 0, 0
		kb = newKB(t, Config{Store: st})
		listings, chunkReads = store.listings, store.chunkReads
		if n := len(kb.Documents()); n != want {
			t.Fatalf("%d documents after reload, want %d", n, want)
		}
		if hits := find(t, kb, "delivery warranty receipt"); len(hits) == 0 {
			t.Fatal("nothing found after reload")
		}
		return kb, listings, chunkReads
	}
	// Saved after the delete, the snapshot matches the store: no listing.
	again, listings, chunkReads := reload(store)
	again.Close()
	if listings != 0 || chunkReads != 0 {
		t.Errorf("unchanged store: %d listings, %d chunk reads; want none", listings, chunkReads)
	}
	// A store that cannot tell is always listed.
	again, listings, _ = reload(unversioned{store})
	again.Close()
	if listings != 1 {
		t.Errorf("unversioned store: %d listings, want 1", listings)
	}
	// A write the snapshot missed (its save failed) changes the version.
	extra := Input{Title: "Late", Source: "late.txt", Text: "A late document about parcel lockers."}
	kb = newKB(t, Config{Store: store})
	store.FailWith(func(op string) error {
		if op == "index" {
			return errors.New("disk full")
		}
		return nil
	})
	if _, err := kb.Add(ctx, extra); err == nil {
		t.Fatal("the snapshot save was meant to fail")
	}
	store.FailWith(nil)
	kb.Close()
	want++
	again, listings, _ = reload(store)
	if listings != 1 {
		t.Errorf("store written after the snapshot: %d listings, want 1", listings)
	}
	if hits := find(t, again, "parcel lockers"); len(hits) != 1 {
		t.Errorf("the document the snapshot missed: %v", sources(hits))
	}
	// That load saved a snapshot with the list again: the next is fast.
	again.Close()
	again, listings, _ = reload(store)
	again.Close()
	if listings != 0 {
		t.Errorf("after the repairing load: %d listings, want none", listings)
	}
}

func TestKB_OpeningAnEmptyStoreWritesNothing(t *testing.T) {
	store := NewMemStore()
	writes := 0
	store.FailWith(func(op string) error {
		if op == "index" {
			writes++
		}
		return nil
	})
	kb, err := Open(ctx, Config{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if writes != 0 {
		t.Errorf("opening an empty store wrote %d index snapshots, want none", writes)
	}
	// What is added is saved, and a reload finds it.
	mustAdd(t, kb, corpus[0])
	kb.Close()
	if writes == 0 {
		t.Error("adding a document saved no index snapshot")
	}
	again := newKB(t, Config{Store: store})
	if n := len(again.Documents()); n != 1 {
		t.Errorf("reloaded: %d documents, want 1", n)
	}
}

func TestKB_ReloadWithAFullDiskStillLoadsEverything(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	mustAdd(t, kb, corpus...)
	kb.Close()
	// The snapshot is unusable and cannot be written again.
	if err := store.PutIndex(ctx, []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	store.FailWith(func(op string) error {
		if op == "index" {
			return errors.New("quota exceeded")
		}
		return nil
	})
	again, err := Open(ctx, Config{Store: store})
	if err != nil {
		t.Fatalf("Open with a full disk: %v", err)
	}
	defer again.Close()
	if n := len(again.Documents()); n != len(corpus) {
		t.Errorf("%d documents, want %d", n, len(corpus))
	}
	if hits := find(t, again, "delivery warranty receipt"); len(hits) == 0 {
		t.Error("nothing found")
	}
}

func TestKB_ReloadRepairsAStaleSavedIndex(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	docs := mustAdd(t, kb, corpus[0], corpus[1])
	// Deletion does not rewrite the saved index; a crash after it leaves
	// the index stale. So does a failed snapshot write after an import.
	if err := kb.Delete(ctx, docs[0].ID); err != nil {
		t.Fatal(err)
	}
	store.FailWith(func(op string) error {
		if op == "index" {
			return errors.New("disk full")
		}
		return nil
	})
	if _, err := kb.Add(ctx, corpus[2]); err == nil || !strings.Contains(err.Error(), "imported and stored") {
		t.Fatalf("got %v, want the snapshot error reported as such", err)
	}
	store.FailWith(nil)
	kb.Close()

	again := newKB(t, Config{Store: store})
	if hits := find(t, again, "returned receipt refunds"); len(hits) != 0 {
		t.Errorf("deleted document back after reload: %v", sources(hits))
	}
	if hits := find(t, again, "warranty defects"); len(hits) != 1 {
		t.Errorf("document stored after the snapshot missing after reload: %v", sources(hits))
	}
	if n := len(again.Documents()); n != 2 {
		t.Errorf("%d documents after reload, want 2", n)
	}
}

func TestKB_ReloadOfAnUnusableSavedIndexIndexesTheTextAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(snap []byte) []byte
	}{
		{"an older snapshot version", func(snap []byte) []byte {
			binary.BigEndian.PutUint32(snap[len(snapshotMagic):], 1)
			return snap
		}},
		{"a damaged segment", func(snap []byte) []byte {
			snap[len(snap)-10] ^= 0xff
			return snap
		}},
		{"a truncated snapshot", func(snap []byte) []byte { return snap[:len(snap)/2] }},
		{"not a snapshot at all", func([]byte) []byte { return []byte("garbage") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &countingStore{MemStore: NewMemStore()}
			kb := newKB(t, Config{Store: store})
			mustAdd(t, kb, corpus...)
			want := find(t, kb, "delivery warranty receipt")
			kb.Close()
			snap, err := store.Index(ctx)
			if err != nil || snap == nil {
				t.Fatalf("saved index: %v, %v", snap, err)
			}
			if err := store.PutIndex(ctx, tc.damage(snap)); err != nil {
				t.Fatal(err)
			}

			store.chunkReads = 0
			again := newKB(t, Config{Store: store})
			if store.chunkReads != len(corpus) {
				t.Errorf("reload read the chunks of %d documents, want all %d indexed again", store.chunkReads, len(corpus))
			}
			got := find(t, again, "delivery warranty receipt")
			if fmt.Sprint(sources(got)) != fmt.Sprint(sources(want)) {
				t.Errorf("after reload %v, before %v", sources(got), sources(want))
			}
			if n := len(again.Documents()); n != len(corpus) {
				t.Errorf("%d documents after reload, want %d", n, len(corpus))
			}
		})
	}
}

func TestKB_ReloadAfterDeleteAndReimportOfSameText(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	doc := mustAdd(t, kb, corpus[0])[0]
	if err := kb.Delete(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, kb, corpus[0]) // same id again, in a newer segment
	kb.Close()
	again := newKB(t, Config{Store: store})
	if hits := find(t, again, "returned receipt refunds"); len(hits) != 1 {
		t.Fatalf("got %v, want the re-imported document once", sources(hits))
	}
}

func TestKB_ReloadKeepsNewestVersionAfterCrashMidReplacement(t *testing.T) {
	store := NewMemStore()
	kb := newKB(t, Config{Store: store})
	mustAdd(t, kb, Input{Title: "Doc", Source: "s", Text: "Old text about pelicans."})
	store.FailWith(func(op string) error {
		if op == "delete" {
			return errors.New("crash")
		}
		return nil
	})
	kb.Add(ctx, Input{Title: "Doc", Source: "s", Text: "New text about flamingos."}) // the old version's removal fails
	store.FailWith(nil)
	kb.Close()
	again := newKB(t, Config{Store: store})
	if got := again.Documents(); len(got) != 1 || !strings.Contains(find(t, again, "flamingos")[0].Text, "flamingos") {
		t.Fatalf("after reload %+v, want only the new version", got)
	}
	if hits := find(t, again, "pelicans"); len(hits) != 0 {
		t.Errorf("old version still found: %v", sources(hits))
	}
}

func TestKB_ExportImportRoundTrip(t *testing.T) {
	src := newKB(t, Config{})
	mustAdd(t, src, corpus...)
	var buf bytes.Buffer
	if err := src.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	dst := newKB(t, Config{Store: NewMemStore()})
	if _, err := dst.Import(ctx, bytes.NewReader(buf.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(dst.Documents()) != fmt.Sprint(src.Documents()) {
		t.Fatalf("documents differ:\n%v\n%v", dst.Documents(), src.Documents())
	}
	q := "express delivery"
	if a, b := find(t, src, q), find(t, dst, q); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("search differs after import:\n%+v\n%+v", a, b)
	}
}

func TestKB_ImportOfADamagedFileChangesNothing(t *testing.T) {
	src := newKB(t, Config{})
	mustAdd(t, src, corpus...)
	var buf bytes.Buffer
	if err := src.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"not gzip", []byte("hello")},
		{"truncated", buf.Bytes()[:buf.Len()/2]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := newKB(t, Config{})
			mustAdd(t, dst, Input{Title: "Mine", Source: "mine", Text: "Keep me."})
			if _, err := dst.Import(ctx, bytes.NewReader(tt.data), nil); err == nil {
				t.Fatal("want an error")
			}
			if n := len(dst.Documents()); n != 1 {
				t.Fatalf("%d documents after a failed import, want 1", n)
			}
		})
	}
}

func TestKB_SearchWhileImporting(t *testing.T) {
	kb := newKB(t, Config{Store: NewMemStore(), BatchSize: 4})
	mustAdd(t, kb, corpus...)
	var ins []Input
	for i := 0; i < 60; i++ {
		ins = append(ins, Input{Title: fmt.Sprint("Note ", i), Source: fmt.Sprint("n", i), Text: fmt.Sprintf("Delivery note %d about parcels.", i)})
	}
	done := make(chan error)
	go func() {
		_, err := kb.AddBatch(ctx, ins, nil)
		done <- err
	}()
	for searching := true; searching; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			searching = false
		default:
			if _, err := kb.Search(ctx, "delivery parcels", SearchOptions{K: 5, Highlight: true}); err != nil {
				t.Fatal(err)
			}
			runtime.Gosched() // js/wasm has one thread and no preemption
		}
	}
	if hits := find(t, kb, "parcels"); len(hits) != 5 {
		t.Fatalf("got %d hits after the import, want 5", len(hits))
	}
}

// A document's id follows its text by default, so that a re-import of an
// edited source is told apart; an input that names its id keeps it (a
// site bundle's pages keep their place when edited).
func TestInputID_NamesADocumentWhenGiven(t *testing.T) {
	for _, tt := range []struct {
		name string
		id   string
		same bool
	}{
		{"by content, the default", "", false},
		{"given", "00000007-notes", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kb, err := New(Config{})
			if err != nil {
				t.Fatal(err)
			}
			defer kb.Close()
			a, err := kb.Add(context.Background(), Input{Source: "notes.md", Title: "Notes", Text: "Quinces ripen late.", ID: tt.id})
			if err != nil {
				t.Fatal(err)
			}
			b, err := kb.Add(context.Background(), Input{Source: "notes.md", Title: "Notes", Text: "Quinces ripen in October.", ID: tt.id})
			if err != nil {
				t.Fatal(err)
			}
			if (a.ID == b.ID) != tt.same || (tt.id != "" && b.ID != tt.id) {
				t.Errorf("ids %s before and %s after the edit; want the same: %v (given %q)", a.ID, b.ID, tt.same, tt.id)
			}
			if docs := kb.Documents(); len(docs) != 1 || docs[0].ID != b.ID {
				t.Errorf("after the edit the knowledge base holds %v, want the edited document alone", docs)
			}
		})
	}
}

func TestAnalyzers_EveryLanguageIsRegistered(t *testing.T) {
	for code, name := range analyze.Languages {
		if _, err := memindex.Analyzer(name); err != nil {
			t.Errorf("language %q: %v", code, err)
		}
		if toks := newLazyAnalyzer(name).Analyze([]byte("Lighthouses")); len(toks) != 1 {
			t.Errorf("language %q: %d tokens for one word", code, len(toks))
		}
	}
}
