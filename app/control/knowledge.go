package control

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"tinyrag/app/control/kbinput"
	"tinyrag/app/knowledge"
	"tinyrag/app/web"
)

// Knowledge is the controller's part that holds the visitor's knowledge
// base: its sources, the imports into it, its export and the search box's
// searches. It publishes StateKnowledge and StateSearch.
type Knowledge struct {
	c     *core
	model *Model // for the settings a Wikipedia import follows

	mu        sync.Mutex
	kn        KnowledgeState
	search    SearchState
	searchSeq int
	// searchWant is the query last asked for (search holds the last one
	// answered); searchMissedSite says that answer came before the site's
	// bundles were open (the search gave up waiting for them).
	searchWant       string
	searchMissedSite bool
}

// unlock releases mu and publishes the named states as they were.
func (k *Knowledge) unlock(states ...string) { k.c.publish(&k.mu, k.snapshotLocked, states...) }

func (k *Knowledge) snapshotLocked(state string) any {
	switch state {
	case StateKnowledge:
		s := k.kn
		s.Docs = slices.Clone(s.Docs)
		return s
	case StateSearch:
		s := k.search
		s.Hits = slices.Clone(s.Hits)
		return s
	}
	panic("control: the knowledge part has no state " + state)
}

// republish publishes the sources and the last search again (a root
// mounted again).
func (k *Knowledge) republish() {
	k.mu.Lock()
	k.unlock(StateKnowledge, StateSearch)
}

// siteLoaded says whether the site's knowledge is still on its way and
// what went wrong loading it; missed says the last search was answered
// before the site's bundles were open.
func (k *Knowledge) siteLoaded(loading bool, warns []string) (missed bool) {
	k.mu.Lock()
	k.kn.SiteLoading, k.kn.SiteErrs = loading, warns
	k.refreshDocsLocked()
	missed = k.searchMissedSite
	k.unlock(StateKnowledge)
	return missed
}

// siteRefreshed lists the site's bundles again after the site's config
// was read again, with what went wrong.
func (k *Knowledge) siteRefreshed(warns []string) {
	k.mu.Lock()
	k.kn.SiteErrs = warns
	k.refreshDocsLocked()
	k.unlock(StateKnowledge)
}

// refreshDocsLocked lists the sources, newest first: what was just
// imported is what one looks for.
// The site's bundles are listed apart: read-only, and not the visitor's.
func (k *Knowledge) refreshDocsLocked() {
	rt := k.c.runtime()
	if rt == nil {
		return
	}
	k.kn.Site = nil
	for _, b := range rt.Site.Bundles() {
		m := b.Index.Manifest()
		title := m.Title
		if title == "" {
			title = b.Source.URL
		}
		k.kn.Site = append(k.kn.Site, SiteBundle{URL: b.Source.URL, Title: title, Docs: m.Docs})
	}
	if rt.KB == nil {
		return
	}
	docs := rt.KB.Documents()
	slices.Reverse(docs)
	k.kn.Docs = docs
}

// SearchKB searches the knowledge base for q off the caller's goroutine
// (a search can wait on IndexedDB for chunk text); only the latest
// query's hits are published.
func (k *Knowledge) SearchKB(q string) {
	rt := k.c.runtime()
	k.mu.Lock()
	k.searchSeq++
	seq := k.searchSeq
	q = strings.TrimSpace(q)
	k.searchWant = q
	if q == "" || rt == nil {
		k.search = SearchState{}
		k.unlock(StateSearch)
		return
	}
	kb := rt.Retriever()
	k.mu.Unlock()
	// A site's hits are shown as their texts arrive (Hit.Pending for the
	// others), and a newer query's search replaces them.
	progress := func(hits []knowledge.Hit) {
		k.publishSearch(seq, SearchState{Query: q, Hits: hits}, nil)
	}
	k.c.goAsync(func() {
		k.c.mark("tinyrag:search")
		hits, err := kb.Search(context.Background(), q, knowledge.SearchOptions{K: 8, Highlight: true, Progress: progress})
		k.c.mark("tinyrag:searched")
		st := SearchState{Query: q, Hits: hits}
		if err != nil && err != knowledge.ErrEmptyQuery {
			st.Err = err.Error()
		}
		k.publishSearch(seq, st, func() { k.searchMissedSite = !rt.siteIsOpen() })
	})
}

// publishSearch shows st unless a newer query's search is under way;
// final, when not nil, runs first under the same lock (what only a
// finished search may record).
func (k *Knowledge) publishSearch(seq int, st SearchState, final func()) {
	k.mu.Lock()
	if seq != k.searchSeq {
		k.mu.Unlock()
		return
	}
	if final != nil {
		final()
	}
	k.search = st
	k.unlock(StateSearch)
}

// searchAgain repeats the last search after the sources changed: the
// query last asked for, which may still be under way.
func (k *Knowledge) searchAgain() {
	k.mu.Lock()
	q := k.searchWant
	k.mu.Unlock()
	if q != "" {
		k.SearchKB(q)
	}
}

// gatherFunc collects the inputs of one import (reading files, fetching
// a page); skipped lists what was left out and why.
type gatherFunc func(ctx context.Context) (ins []knowledge.Input, skipped []string, err error)

// ImportFiles imports the files read reads (it runs off the UI
// goroutine: reading waits for the browser). Files the importer refuses
// are listed, not fatal.
func (k *Knowledge) ImportFiles(read func() []File) bool {
	return k.importThen(func(context.Context) ([]knowledge.Input, []string, error) {
		ins, skipped := kbinput.Files(k.c.deps.Importer, read())
		return ins, skipped, nil
	}, nil)
}

// ImportText adds pasted text; blank text is refused at once.
func (k *Knowledge) ImportText(title, text string) error {
	in, err := kbinput.Pasted(title, text, k.c.now())
	if err != nil {
		return err
	}
	k.importThen(func(context.Context) ([]knowledge.Input, []string, error) { return []knowledge.Input{in}, nil, nil }, nil)
	return nil
}

// ImportDocuments adds texts handed over whole (by an embedding page):
// each with its title and, as its source, its URL. Blank texts are left
// out and listed. It waits until the documents are searchable, so a
// question asked next finds them; ErrImportBusy if an import runs or the
// app is still starting.
func (k *Knowledge) ImportDocuments(ctx context.Context, ins []knowledge.Input) error {
	done := make(chan error, 1)
	started := k.importThen(func(context.Context) ([]knowledge.Input, []string, error) {
		var keep []knowledge.Input
		var skipped []string
		for _, in := range ins {
			if strings.TrimSpace(in.Text) == "" {
				skipped = append(skipped, in.Title+": "+kbinput.ErrEmptyText.Error())
				continue
			}
			keep = append(keep, in)
		}
		return keep, skipped, nil
	}, func(err error) { done <- err })
	if !started {
		return ErrImportBusy
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ErrImportBusy: an import is running already, or the app is starting.
var ErrImportBusy = errors.New("an import is still running or tinyRAG is still starting; add the documents again in a moment")

// ImportURL imports a web address through the server's fetch proxy.
func (k *Knowledge) ImportURL(raw string) bool {
	base := k.c.deps.Origin
	if rt := k.c.runtime(); rt != nil {
		base = rt.Proxy()
	}
	f := web.ProxyFetcher{Base: base, Client: k.c.deps.HTTP}
	return k.importThen(func(ctx context.Context) ([]knowledge.Input, []string, error) {
		in, err := kbinput.URL(ctx, k.c.deps.Importer, f, raw)
		return []knowledge.Input{in}, nil, err
	}, nil)
}

// ImportWikipedia imports the Wikipedia article titled title.
func (k *Knowledge) ImportWikipedia(title string) bool {
	rt := k.c.runtime()
	if rt == nil {
		rt = &Runtime{HTTP: k.c.deps.HTTP}
	}
	cfg := rt.wikiConfig(k.model.Settings())
	return k.importThen(func(ctx context.Context) ([]knowledge.Input, []string, error) {
		in, err := kbinput.Wikipedia(ctx, cfg, title)
		return []knowledge.Input{in}, nil, err
	}, nil)
}

// Reimport fetches a URL or Wikipedia source again.
func (k *Knowledge) Reimport(d knowledge.Document) bool {
	if d.Type == "wikipedia" {
		return k.ImportWikipedia(d.Title)
	}
	return k.ImportURL(d.Source)
}

// importThen gathers inputs off the UI goroutine, then adds them in
// batches with published progress, and calls done, if not nil, once the
// import has ended with its outcome: the documents are searchable by then.
// It reports false when an import is already running.
func (k *Knowledge) importThen(gather gatherFunc, done func(error)) bool {
	kb, ok := k.beginImport()
	if !ok {
		return false
	}
	k.c.goAsync(func() {
		bg := context.Background()
		ins, skipped, err := gather(bg)
		err = offlineImportErr(k.c.online(), err)
		var docs []knowledge.Document
		if err == nil && len(ins) > 0 {
			docs, err = kb.AddBatch(bg, ins, k.progress())
		}
		k.mu.Lock()
		k.endImportLocked(err)
		k.kn.Skipped = skipped
		if len(docs) > 0 {
			o := &Outcome{Action: OutcomeImported, Count: len(docs)}
			for i, d := range docs {
				if i == 3 {
					o.More = true
					break
				}
				o.Names = append(o.Names, d.Title)
			}
			k.kn.Outcome = o
		}
		k.unlock(StateKnowledge)
		k.searchAgain()
		if done != nil {
			if err == nil && len(skipped) > 0 {
				err = errors.New(strings.Join(skipped, "; "))
			}
			done(err)
		}
	})
	return true
}

// beginImport marks an import as running and publishes it; ok is false
// when one already runs (or nothing is open yet).
func (k *Knowledge) beginImport() (kb *knowledge.KB, ok bool) {
	rt := k.c.runtime()
	k.mu.Lock()
	if k.kn.Importing || rt == nil {
		k.mu.Unlock()
		return nil, false
	}
	k.kn.Importing, k.kn.Progress = true, knowledge.Progress{}
	k.kn.Err, k.kn.Offline, k.kn.Skipped, k.kn.Outcome = "", false, nil, nil
	k.unlock(StateKnowledge)
	return rt.KB, true
}

// endImportLocked ends an import that failed with err (nil: it did not).
func (k *Knowledge) endImportLocked(err error) {
	k.kn.Importing = false
	k.kn.Offline = errors.Is(err, errImportOffline)
	if err != nil && !k.kn.Offline {
		k.kn.Err = err.Error()
	}
	k.refreshDocsLocked()
}

// progress returns a progress callback that publishes at most every
// 100 ms (and always the end): each publication re-renders.
func (k *Knowledge) progress() func(knowledge.Progress) {
	var last time.Time
	return func(p knowledge.Progress) {
		if time.Since(last) < 100*time.Millisecond && p.Done < p.Total {
			return
		}
		last = time.Now()
		k.mu.Lock()
		k.kn.Progress = p
		k.unlock(StateKnowledge)
	}
}

// DeleteDoc removes a source (and saves the index snapshot).
func (k *Knowledge) DeleteDoc(id string) {
	rt := k.c.runtime()
	if rt == nil {
		return
	}
	kb := rt.KB
	k.c.goAsync(func() {
		err := kb.Delete(context.Background(), id)
		k.mu.Lock()
		if err != nil {
			k.kn.Err = err.Error()
		}
		k.refreshDocsLocked()
		k.unlock(StateKnowledge)
		k.searchAgain()
	})
}

// ExportKB writes the knowledge base as one file and hands it to deliver
// (on a controller goroutine); nothing leaves the machine.
func (k *Knowledge) ExportKB(deliver func(data []byte, name string)) {
	rt := k.c.runtime()
	if rt == nil {
		return
	}
	kb := rt.KB
	k.mu.Lock()
	k.kn.Err, k.kn.Offline, k.kn.Skipped, k.kn.Outcome = "", false, nil, nil
	k.unlock(StateKnowledge)
	k.c.goAsync(func() {
		var buf bytes.Buffer
		err := kb.Export(context.Background(), &buf)
		if err == nil {
			deliver(buf.Bytes(), "tinyrag-knowledge-"+k.c.now().Format("2006-01-02")+".tinyrag.gz")
		}
		k.mu.Lock()
		if err != nil {
			k.kn.Err = err.Error()
		} else {
			k.kn.Outcome = &Outcome{Action: OutcomeExported, Count: len(k.kn.Docs), Bytes: buf.Len()}
		}
		k.unlock(StateKnowledge)
	})
}

// ImportBackup replaces the knowledge base with a file made by ExportKB,
// with the same progress as any import. A damaged file changes nothing
// (KB.Import checks it before replacing anything).
func (k *Knowledge) ImportBackup(read func() []File) bool {
	kb, ok := k.beginImport()
	if !ok {
		return false
	}
	k.c.goAsync(func() {
		files := read()
		var docs []knowledge.Document
		var err error
		if len(files) > 0 {
			if files[0].Err != "" {
				err = errors.New(files[0].Err)
			} else {
				docs, err = kb.Import(context.Background(), bytes.NewReader(files[0].Data), k.progress())
			}
		}
		k.mu.Lock()
		k.endImportLocked(err)
		if err == nil {
			k.kn.Outcome = &Outcome{Action: OutcomeImported, Count: len(docs)}
		}
		k.unlock(StateKnowledge)
		k.searchAgain()
	})
	return true
}
