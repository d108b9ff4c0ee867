package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
)

var ctx = context.Background()

func build(t *testing.T, docs ...knowledge.Input) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := bundle.Build(ctx, &buf, docs, bundle.Options{Title: "site"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// host serves bundles by URL and counts fetches.
type host struct {
	files   map[string][]byte
	fetches map[string]int
}

func (h *host) fetch(_ context.Context, url string) ([]byte, error) {
	h.fetches[url]++
	b, ok := h.files[url]
	if !ok {
		return nil, fmt.Errorf("GET %s: 404 Not Found", url)
	}
	return b, nil
}

func newHost(files map[string][]byte) *host { return &host{files: files, fetches: map[string]int{}} }

func src(url string, data []byte) Source { return Source{URL: url, SHA256: bundle.Digest(data)} }

var (
	pruning = knowledge.Input{Title: "Winter pruning", Source: "guide/pruning.html", Text: "Prune apple trees in late winter while the buds are dormant."}
	storage = knowledge.Input{Title: "Storage", Source: "guide/storage.html", Text: "Store pears cold and humid; quinces keep three months."}
	grafts  = knowledge.Input{Title: "Grafting", Source: "guide/grafting.html", Text: "Whip grafts join scion and rootstock of equal thickness in spring."}
)

func sources(t *testing.T, u Union, q string) []string {
	t.Helper()
	hits, err := u.Search(ctx, q, knowledge.SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Source)
	}
	return out
}

func TestSync_LoadsReplacesAndDropsBundlesByTheirHash(t *testing.T) {
	v1, v2, other := build(t, pruning), build(t, grafts), build(t, storage)
	h := newHost(map[string][]byte{"a.tinyrag": v1, "b.tinyrag": other})
	var k Knowledge
	defer k.Close()
	u := Union{Site: &k}

	if errs := k.Sync(ctx, []Source{src("a.tinyrag", v1), src("b.tinyrag", other)}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	if got := sources(t, u, "prune apple"); len(got) == 0 || got[0] != "guide/pruning.html" {
		t.Fatalf("after first sync: %v", got)
	}

	// The same hashes again: nothing is fetched.
	k.Sync(ctx, []Source{src("a.tinyrag", v1), src("b.tinyrag", other)}, h.fetch)
	if h.fetches["a.tinyrag"] != 1 {
		t.Errorf("an unchanged bundle was fetched %d times", h.fetches["a.tinyrag"])
	}

	// The site publishes a new a.tinyrag and drops b.tinyrag.
	old := k.Bundles()[0].KB
	h.files["a.tinyrag"] = v2
	if errs := k.Sync(ctx, []Source{src("a.tinyrag", v2)}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	if got := sources(t, u, "prune apple"); len(got) != 0 {
		t.Errorf("the replaced bundle still answers: %v", got)
	}
	if got := sources(t, u, "graft scion"); len(got) != 1 || got[0] != "guide/grafting.html" {
		t.Errorf("the new bundle does not answer: %v", got)
	}
	if got := sources(t, u, "pears quinces"); len(got) != 0 {
		t.Errorf("the dropped bundle still answers: %v", got)
	}
	if k.Bundles()[0].KB == old {
		t.Error("the replaced bundle is still the one in use")
	}
}

func TestSync_AFailedBundleIsReportedAndTheRestLoads(t *testing.T) {
	good, next := build(t, pruning), build(t, storage)
	damaged := append([]byte(nil), next...)
	damaged[len(damaged)/2] ^= 1
	h := newHost(map[string][]byte{"good.tinyrag": good, "damaged.tinyrag": damaged, "cut.tinyrag": good[:100]})
	var k Knowledge
	defer k.Close()
	errs := k.Sync(ctx, []Source{
		src("good.tinyrag", good),
		{URL: "damaged.tinyrag"}, // no hash: the bundle's own checksum still holds
		src("cut.tinyrag", good),
		src("missing.tinyrag", good),
	}, h.fetch)
	if len(errs) != 3 {
		t.Fatalf("errors %v, want 3", errs)
	}
	if !errors.Is(errs[0], bundle.ErrDamaged) || !errors.Is(errs[1], bundle.ErrTruncated) {
		t.Errorf("errors %v", errs)
	}
	if len(k.Bundles()) != 1 || len(sources(t, Union{Site: &k}, "prune")) != 1 {
		t.Errorf("the good bundle did not load: %d bundles", len(k.Bundles()))
	}
}

func TestSync_AFailedUpdateKeepsTheOldVersion(t *testing.T) {
	v1 := build(t, pruning)
	h := newHost(map[string][]byte{"a.tinyrag": v1})
	var k Knowledge
	defer k.Close()
	k.Sync(ctx, []Source{src("a.tinyrag", v1)}, h.fetch)
	// The config names a new hash but the host still has the old file.
	errs := k.Sync(ctx, []Source{{URL: "a.tinyrag", SHA256: "00"}}, h.fetch)
	if len(errs) != 1 || !errors.Is(errs[0], ErrHashMismatch) {
		t.Fatalf("errors %v", errs)
	}
	if got := sources(t, Union{Site: &k}, "prune"); len(got) != 1 {
		t.Errorf("the old version was dropped: %v", got)
	}
}

func TestUnion_SearchesVisitorAndSiteTogetherWithoutMixingTheirStores(t *testing.T) {
	site := build(t, pruning, storage)
	var k Knowledge
	defer k.Close()
	k.Sync(ctx, []Source{src("s.tinyrag", site)}, newHost(map[string][]byte{"s.tinyrag": site}).fetch)
	store := knowledge.NewMemStore()
	visitor, err := knowledge.Open(ctx, knowledge.Config{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	defer visitor.Close()
	if _, err := visitor.Add(ctx, knowledge.Input{Title: "My notes", Source: "notes.txt", Text: "My apple trees were pruned too late this winter."}); err != nil {
		t.Fatal(err)
	}
	u := Union{Visitor: visitor, Site: &k}
	got := sources(t, u, "apple winter")
	if len(got) != 2 || got[0] != "notes.txt" || got[1] != "guide/pruning.html" {
		t.Errorf("fused sources %v", got)
	}
	ps, err := u.Retrieve(ctx, "pears", 3)
	if err != nil || len(ps) != 1 || ps[0].Title != "Storage" {
		t.Errorf("Retrieve = %+v, %v", ps, err)
	}
	docs, _ := store.Documents(ctx)
	if len(docs) != 1 {
		t.Errorf("the visitor's store holds %d documents, want only the visitor's one", len(docs))
	}
	if !k.IsSite(k.Documents()[0].ID) || k.IsSite(docs[0].ID) {
		t.Error("IsSite cannot tell site documents from the visitor's")
	}
	if _, err := u.Search(ctx, "", knowledge.SearchOptions{}); !errors.Is(err, knowledge.ErrEmptyQuery) {
		t.Errorf("empty query: %v", err)
	}
}
