package site

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
)

var ctx = context.Background()

// build writes a bundle of docs into the host's files under dir and
// returns the source naming it.
func (h *host) build(t *testing.T, dir string, docs ...knowledge.Input) Source {
	t.Helper()
	out, err := bundle.Write(ctx, docs, bundle.Options{Title: "site"})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range out.Files {
		h.files[dir+name] = b
	}
	return Source{URL: dir + out.ManifestName, SHA256: out.SHA256}
}

// host serves bundle files by URL and counts fetches; a bundle fetches
// several files at once.
type host struct {
	mu      sync.Mutex
	files   map[string][]byte
	fetches map[string]int
	// termShard, when set, is closed at the first fetch of a term shard.
	termShard chan struct{}
	// fragments, when set, holds back every fetch of a fragment until it
	// is closed.
	fragments chan struct{}
}

func (h *host) fetch(_ context.Context, url string) ([]byte, error) {
	h.mu.Lock()
	gate := h.fragments
	h.mu.Unlock()
	if gate != nil && strings.Contains(url, "/f/") {
		<-gate
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fetches[url]++
	if h.termShard != nil && strings.Contains(url, "/t/") {
		close(h.termShard)
		h.termShard = nil
	}
	b, ok := h.files[url]
	if !ok {
		return nil, fmt.Errorf("GET %s: 404 Not Found", url)
	}
	return b, nil
}

func newHost() *host { return &host{files: map[string][]byte{}, fetches: map[string]int{}} }

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
	h := newHost()
	v1, other := h.build(t, "a/", pruning), h.build(t, "b/", storage)
	var k Knowledge
	u := Union{Site: &k}

	if errs := k.Sync(ctx, []Source{v1, other}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	if got := sources(t, u, "prune apple"); len(got) == 0 || got[0] != "guide/pruning.html" {
		t.Fatalf("after first sync: %v", got)
	}

	// The same hashes again: nothing is fetched.
	k.Sync(ctx, []Source{v1, other}, h.fetch)
	if h.fetches[v1.URL] != 1 {
		t.Errorf("an unchanged bundle's manifest was fetched %d times", h.fetches[v1.URL])
	}

	// The site publishes a new a/ and drops b/.
	old := k.Bundles()[0].Index
	v2 := h.build(t, "a/", grafts)
	if errs := k.Sync(ctx, []Source{v2}, h.fetch); errs != nil {
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
	if k.Bundles()[0].Index == old {
		t.Error("the replaced bundle is still the one in use")
	}
}

func TestSync_AFailedBundleIsReportedAndTheRestLoads(t *testing.T) {
	h := newHost()
	good, next := h.build(t, "good/", pruning), h.build(t, "next/", storage)
	damaged := append([]byte(nil), h.files[next.URL]...)
	damaged[len(damaged)/2] ^= 1
	h.files[next.URL] = damaged
	errs := k0().Sync(ctx, []Source{
		good,
		{URL: next.URL}, // no hash: the manifest's name still holds
		{URL: "missing/manifest-0123456789abcdef.json"},
	}, h.fetch)
	if len(errs) != 2 || !errors.Is(errs[0], bundle.ErrDamaged) || !strings.Contains(errs[1].Error(), "404") {
		t.Fatalf("errors %v, want the damaged and the missing bundle", errs)
	}
	var k Knowledge
	k.Sync(ctx, []Source{good, {URL: next.URL}}, h.fetch)
	if len(k.Bundles()) != 1 || len(sources(t, Union{Site: &k}, "prune")) != 1 {
		t.Errorf("the good bundle did not load: %d bundles", len(k.Bundles()))
	}
}

func k0() *Knowledge { return &Knowledge{} }

func TestSync_AFailedUpdateKeepsTheOldVersion(t *testing.T) {
	h := newHost()
	v1 := h.build(t, "a/", pruning)
	var k Knowledge
	k.Sync(ctx, []Source{v1}, h.fetch)
	// The config names a new hash but the host still has the old manifest.
	errs := k.Sync(ctx, []Source{{URL: v1.URL, SHA256: strings.Repeat("0", 64)}}, h.fetch)
	if len(errs) != 1 || !errors.Is(errs[0], bundle.ErrDamaged) {
		t.Fatalf("errors %v", errs)
	}
	if got := sources(t, Union{Site: &k}, "prune"); len(got) != 1 {
		t.Errorf("the old version was dropped: %v", got)
	}
}

func TestUnion_ABundleThatCannotAnswerLeavesTheOthersAnswering(t *testing.T) {
	h := newHost()
	a, b := h.build(t, "a/", pruning), h.build(t, "b/", storage, grafts)
	var k Knowledge
	if errs := k.Sync(ctx, []Source{a, b}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	// Every term shard of a/ is gone from the host.
	for name := range h.files {
		if strings.HasPrefix(name, "a/t/") {
			delete(h.files, name)
		}
	}
	hits, err := Union{Site: &k}.Search(ctx, "pears winter", knowledge.SearchOptions{K: 5})
	var p *Partial
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "404") {
		t.Fatalf("error %v, want a *Partial naming the missing file", err)
	}
	if len(hits) == 0 || hits[0].Source != "guide/storage.html" || !reflect.DeepEqual(hits, p.Hits) {
		t.Errorf("hits %+v, want the other bundle's", hits)
	}
}

func TestUnion_SearchesVisitorAndSiteTogetherWithoutMixingTheirStores(t *testing.T) {
	h := newHost()
	var k Knowledge
	k.Sync(ctx, []Source{h.build(t, "s/", pruning, storage)}, h.fetch)
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
	hits, err := u.Search(ctx, "apple winter", knowledge.SearchOptions{K: 5})
	if err != nil || len(hits) != 2 || hits[0].Source != "notes.txt" || hits[1].Source != "guide/pruning.html" {
		t.Fatalf("fused hits %+v, %v", hits, err)
	}
	if hits[0].Site || !hits[1].Site {
		t.Error("Hit.Site does not tell the site's hit from the visitor's")
	}
	ps, err := u.Retrieve(ctx, "pears", 3)
	if err != nil || len(ps) != 1 || ps[0].Title != "Storage" || !ps[0].Site {
		t.Errorf("Retrieve = %+v, %v", ps, err)
	}
	docs, _ := store.Documents(ctx)
	if len(docs) != 1 {
		t.Errorf("the visitor's store holds %d documents, want only the visitor's one", len(docs))
	}
	if !k.IsSite(hits[1].DocID) || k.IsSite(docs[0].ID) {
		t.Error("IsSite cannot tell site documents from the visitor's")
	}
	if _, err := u.Search(ctx, "", knowledge.SearchOptions{}); !errors.Is(err, knowledge.ErrEmptyQuery) {
		t.Errorf("empty query: %v", err)
	}
}

func TestUnion_ASearchWaitsForTheSiteToOpen(t *testing.T) {
	h := newHost()
	src := h.build(t, "s/", pruning)
	var k Knowledge
	opened := make(chan struct{})
	u := Union{Site: &k, Opened: opened}
	// While the site opens, a search waits (here until its context ends)
	// rather than answering without the site's knowledge.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := u.Search(gone, "prune apple", knowledge.SearchOptions{K: 3}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a search while the site opens: %v, want it to wait", err)
	}
	if errs := k.Sync(ctx, []Source{src}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	close(opened)
	if hits, err := u.Search(ctx, "prune apple", knowledge.SearchOptions{K: 3}); err != nil || len(hits) == 0 || hits[0].Source != "guide/pruning.html" {
		t.Errorf("once open: %+v, %v; want the site's page", hits, err)
	}
}

// waitingVisitor is a visitor's knowledge base whose search waits until the
// site's bundle has asked for a term shard, or gives up after a while.
type waitingVisitor struct {
	shardAsked <-chan struct{}
	sawBundle  bool
}

func (v *waitingVisitor) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	select {
	case <-v.shardAsked:
		v.sawBundle = true
	case <-time.After(10 * time.Second):
	}
	return nil, nil
}

// The bundles' requests do not wait for the visitor's own search (which
// may wait on IndexedDB): every index is searched at once.
func TestUnion_SearchesTheBundlesWhileTheVisitorsKnowledgeIsSearched(t *testing.T) {
	h := newHost()
	src := h.build(t, "s/", pruning, storage)
	var k Knowledge
	if errs := k.Sync(ctx, []Source{src}, h.fetch); errs != nil {
		t.Fatal(errs)
	}
	asked := make(chan struct{})
	h.mu.Lock()
	h.termShard = asked
	h.mu.Unlock()
	v := &waitingVisitor{shardAsked: asked}
	u := Union{Visitor: v, Site: &k}
	hits, err := u.Search(ctx, "prune apple", knowledge.SearchOptions{K: 3})
	if err != nil || len(hits) == 0 || hits[0].Source != "guide/pruning.html" {
		t.Fatalf("hits %+v, %v; want the site's page", hits, err)
	}
	if !v.sawBundle {
		t.Error("the bundle asked for its term shard only after the visitor's search ended")
	}
}

// With Progress, the fused list is reported as the site's texts arrive:
// every report holds the final hits in their final places, the site's
// not yet arrived marked pending (with their chunk number and score),
// the visitor's complete from the first report on.
func TestUnion_ProgressReportsTheFusedHitsInTheirFinalPlaces(t *testing.T) {
	h := newHost()
	var k Knowledge
	k.Sync(ctx, []Source{h.build(t, "s/", pruning, storage, grafts,
		knowledge.Input{Title: "Apple varieties", Source: "guide/apples.html", Text: "Winter apples keep until spring; summer apples do not."})}, h.fetch)
	visitor, err := knowledge.Open(ctx, knowledge.Config{Store: knowledge.NewMemStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer visitor.Close()
	for _, in := range []knowledge.Input{
		{Title: "My notes", Source: "notes.txt", Text: "My apple trees were pruned too late this winter."},
		{Title: "Orchard diary", Source: "diary.txt", Text: "Spring came early; the apple blossom froze."},
	} {
		if _, err := visitor.Add(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// The site's texts come once the visitor's list is known, as they do
	// in the browser (the visitor's index is in memory, the texts on the
	// network): the fused list has hits pending.
	gate := make(chan struct{})
	h.mu.Lock()
	h.fragments = gate
	h.mu.Unlock()
	u := Union{Visitor: thenVisitor{visitor, func() { close(gate) }}, Site: &k}
	var reports [][]knowledge.Hit
	// More words than feedback expands, which would read the site's texts
	// before its hits are known.
	hits, err := u.Search(ctx, "apple winter spring keep", knowledge.SearchOptions{K: 10,
		Progress: func(h []knowledge.Hit) { reports = append(reports, h) }})
	if err != nil || len(hits) < 4 {
		t.Fatalf("search: %v, %d hits", err, len(hits))
	}
	if len(reports) == 0 {
		t.Fatal("no report before the site's texts had all arrived")
	}
	last := len(hits) + 1
	for n, r := range reports {
		if len(r) != len(hits) {
			t.Fatalf("report %d lists %d hits, the search %d", n, len(r), len(hits))
		}
		pending := 0
		for i, got := range r {
			if !got.Pending {
				if !reflect.DeepEqual(got, hits[i]) {
					t.Errorf("report %d, hit %d is %+v, the search's %+v", n, i, got, hits[i])
				}
				continue
			}
			pending++
			if !hits[i].Site || got.Chunk != hits[i].Chunk || got.Score != hits[i].Score {
				t.Errorf("report %d, hit %d pending as %+v where the search has %+v", n, i, got, hits[i])
			}
		}
		if pending == 0 || pending >= last {
			t.Errorf("report %d has %d hits pending, after %d", n, pending, last)
		}
		last = pending
	}
}

// thenVisitor is a visitor's knowledge base that calls then once its
// search has returned.
type thenVisitor struct {
	kb   Searcher
	then func()
}

func (v thenVisitor) Search(ctx context.Context, q string, opt knowledge.SearchOptions) ([]knowledge.Hit, error) {
	hits, err := v.kb.Search(ctx, q, opt)
	v.then()
	return hits, err
}
