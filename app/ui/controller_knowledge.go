package ui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/web"
)

// refreshDocsLocked lists the sources, newest first: what was just
// imported is what one looks for.
// The site's bundles are listed apart: read-only, and not the visitor's.
func (c *Controller) refreshDocsLocked() {
	if c.rt == nil {
		return
	}
	c.kn.Site = nil
	for _, b := range c.rt.Site.Bundles() {
		m := b.Index.Manifest()
		title := m.Title
		if title == "" {
			title = b.Source.URL
		}
		c.kn.Site = append(c.kn.Site, SiteBundle{URL: b.Source.URL, Title: title, Docs: m.Docs})
	}
	if c.rt.KB == nil {
		return
	}
	docs := c.rt.KB.Documents()
	for i, j := 0, len(docs)-1; i < j; i, j = i+1, j-1 {
		docs[i], docs[j] = docs[j], docs[i]
	}
	c.kn.Docs = docs
}

// WebImports reports whether URL imports can work here: a static site
// without a tinyRAG server has no fetch proxy.
func (c *Controller) WebImports() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rt == nil || c.rt.Proxy() != ""
}

// SearchKB searches the knowledge base for q off the caller's goroutine
// (a search can wait on IndexedDB for chunk text); only the latest
// query's hits are published.
func (c *Controller) SearchKB(q string) {
	c.mu.Lock()
	c.searchSeq++
	seq := c.searchSeq
	q = strings.TrimSpace(q)
	c.searchWant = q
	if q == "" || c.rt == nil {
		c.search = SearchState{}
		c.unlock(stateSearch)
		return
	}
	kb := c.rt.Retriever()
	c.mu.Unlock()
	c.goAsync(func() {
		hits, err := kb.Search(context.Background(), q, knowledge.SearchOptions{K: 8, Highlight: true})
		c.mu.Lock()
		if seq != c.searchSeq {
			c.mu.Unlock() // a newer query's search is under way
			return
		}
		c.search = SearchState{Query: q, Hits: hits}
		c.searchMissedSite = !c.rt.siteIsOpen()
		if err != nil && err != knowledge.ErrEmptyQuery {
			c.search.Err = err.Error()
		}
		c.unlock(stateSearch)
	})
}

// searchAgain repeats the last search after the sources changed: the
// query last asked for, which may still be under way.
func (c *Controller) searchAgain() {
	c.mu.Lock()
	q := c.searchWant
	c.mu.Unlock()
	if q != "" {
		c.SearchKB(q)
	}
}

// gatherFunc collects the inputs of one import (reading files, fetching
// a page); skipped lists what was left out and why.
type gatherFunc func(ctx context.Context) (ins []knowledge.Input, skipped []string, err error)

// ImportFiles imports the files read reads (it runs off the UI
// goroutine: reading waits for the browser). Files the importer refuses
// are listed, not fatal.
func (c *Controller) ImportFiles(read func() []fileData) bool {
	return c.importInputs(func(context.Context) ([]knowledge.Input, []string, error) {
		ins, skipped := fileInputs(read())
		return ins, skipped, nil
	})
}

// ImportText adds pasted text; blank text is refused at once.
func (c *Controller) ImportText(title, text string) error {
	in, err := pastedInput(title, text, c.now())
	if err != nil {
		return err
	}
	c.importInputs(func(context.Context) ([]knowledge.Input, []string, error) { return []knowledge.Input{in}, nil, nil })
	return nil
}

// ImportDocuments adds texts handed over whole (by an embedding page):
// each with its title and, as its source, its URL. Blank texts are left
// out and listed. It waits until the documents are searchable, so a
// question asked next finds them; ErrImportBusy if an import runs or the
// app is still starting.
func (c *Controller) ImportDocuments(ctx context.Context, ins []knowledge.Input) error {
	done := make(chan error, 1)
	started := c.importThen(func(context.Context) ([]knowledge.Input, []string, error) {
		var keep []knowledge.Input
		var skipped []string
		for _, in := range ins {
			if strings.TrimSpace(in.Text) == "" {
				skipped = append(skipped, in.Title+": "+ErrEmptyText.Error())
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
func (c *Controller) ImportURL(raw string) bool {
	return c.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
		in, err := urlInput(ctx, c.fetcher(), raw)
		return []knowledge.Input{in}, nil, err
	})
}

// ImportWikipedia imports the Wikipedia article titled title.
func (c *Controller) ImportWikipedia(title string) bool {
	cfg := c.wikiConfig()
	return c.importInputs(func(ctx context.Context) ([]knowledge.Input, []string, error) {
		in, err := wikiInput(ctx, cfg, title)
		return []knowledge.Input{in}, nil, err
	})
}

// Reimport fetches a URL or Wikipedia source again.
func (c *Controller) Reimport(d knowledge.Document) bool {
	if d.Type == "wikipedia" {
		return c.ImportWikipedia(d.Title)
	}
	return c.ImportURL(d.Source)
}

func (c *Controller) fetcher() web.ProxyFetcher {
	c.mu.Lock()
	defer c.mu.Unlock()
	base := c.deps.Origin
	if c.rt != nil {
		base = c.rt.Proxy()
	}
	return web.ProxyFetcher{Base: base, Client: c.deps.HTTP}
}

func (c *Controller) wikiConfig() web.WikiConfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	rt := c.rt
	if rt == nil {
		rt = &Runtime{HTTP: c.deps.HTTP}
	}
	return rt.wikiConfig(c.settings)
}

// importInputs gathers inputs off the UI goroutine, then adds them in
// batches with published progress. It reports false when an import is
// already running.
func (c *Controller) importInputs(gather gatherFunc) bool {
	return c.importThen(gather, nil)
}

// importThen is importInputs that calls done, if not nil, once the import
// has ended with its outcome: the documents are searchable by then.
func (c *Controller) importThen(gather gatherFunc, done func(error)) bool {
	kb, l, ok := c.beginImport()
	if !ok {
		return false
	}
	c.goAsync(func() {
		bg := context.Background()
		ins, skipped, err := gather(bg)
		err = offlineImportErr(l, c.online(), err)
		var docs []knowledge.Document
		if err == nil && len(ins) > 0 {
			docs, err = kb.AddBatch(bg, ins, c.progress())
		}
		c.mu.Lock()
		c.endImportLocked()
		var msgs []string
		if err != nil {
			msgs = append(msgs, err.Error())
		}
		if len(skipped) > 0 {
			msgs = append(msgs, strings.Join(skipped, "; "))
		}
		c.kn.Err = strings.Join(msgs, " — ")
		if len(docs) > 0 {
			names := make([]string, 0, 3)
			for i, d := range docs {
				if i == 3 {
					names = append(names, "…")
					break
				}
				names = append(names, d.Title)
			}
			c.kn.Result = sprintf("%s: %d (%s)", T(l, "imported"), len(docs), strings.Join(names, ", "))
		}
		c.unlock(stateKnowledge)
		c.searchAgain()
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
func (c *Controller) beginImport() (kb *knowledge.KB, lang string, ok bool) {
	c.mu.Lock()
	if c.kn.Importing || c.rt == nil {
		c.mu.Unlock()
		return nil, "", false
	}
	kb, lang = c.rt.KB, c.settings.Lang
	c.kn.Importing, c.kn.Err, c.kn.Result = true, "", ""
	c.kn.Phase, c.kn.Progress = T(lang, "importing")+"…", knowledge.Progress{}
	c.unlock(stateKnowledge)
	return kb, lang, true
}

func (c *Controller) endImportLocked() {
	c.kn.Importing = false
	c.refreshDocsLocked()
}

// progress returns a progress callback that publishes at most every
// 100 ms (and always the end): each publication re-renders.
func (c *Controller) progress() func(knowledge.Progress) {
	var last time.Time
	return func(p knowledge.Progress) {
		if time.Since(last) < 100*time.Millisecond && p.Done < p.Total {
			return
		}
		last = time.Now()
		c.mu.Lock()
		c.kn.Progress = p
		c.unlock(stateKnowledge)
	}
}

// DeleteDoc removes a source (and saves the index snapshot).
func (c *Controller) DeleteDoc(id string) {
	c.mu.Lock()
	if c.rt == nil {
		c.mu.Unlock()
		return
	}
	kb := c.rt.KB
	c.mu.Unlock()
	c.goAsync(func() {
		err := kb.Delete(context.Background(), id)
		c.mu.Lock()
		if err != nil {
			c.kn.Err = err.Error()
		}
		c.refreshDocsLocked()
		c.unlock(stateKnowledge)
		c.searchAgain()
	})
}

// ExportKB writes the knowledge base as one file and hands it to deliver
// (on a controller goroutine); nothing leaves the machine.
func (c *Controller) ExportKB(deliver func(data []byte, name string)) {
	c.mu.Lock()
	if c.rt == nil {
		c.mu.Unlock()
		return
	}
	kb, l := c.rt.KB, c.settings.Lang
	c.kn.Err, c.kn.Result = "", ""
	c.unlock(stateKnowledge)
	c.goAsync(func() {
		var buf bytes.Buffer
		err := kb.Export(context.Background(), &buf)
		if err == nil {
			deliver(buf.Bytes(), "tinyrag-knowledge-"+c.now().Format("2006-01-02")+".tinyrag.gz")
		}
		c.mu.Lock()
		if err != nil {
			c.kn.Err = err.Error()
		} else {
			c.kn.Result = sprintf("%s: %d (%s)", T(l, "exported"), len(c.kn.Docs), humanSize(buf.Len()))
		}
		c.unlock(stateKnowledge)
	})
}

// ImportBackup replaces the knowledge base with a file made by ExportKB,
// with the same progress as any import. A damaged file changes nothing
// (KB.Import checks it before replacing anything).
func (c *Controller) ImportBackup(read func() []fileData) bool {
	kb, l, ok := c.beginImport()
	if !ok {
		return false
	}
	c.goAsync(func() {
		files := read()
		var docs []knowledge.Document
		var err error
		if len(files) > 0 {
			if files[0].Err != "" {
				err = errors.New(files[0].Err)
			} else {
				docs, err = kb.Import(context.Background(), bytes.NewReader(files[0].Data), c.progress())
			}
		}
		c.mu.Lock()
		c.endImportLocked()
		if err != nil {
			c.kn.Err = err.Error()
		} else {
			c.kn.Result = sprintf("%s: %d", T(l, "imported"), len(docs))
		}
		c.unlock(stateKnowledge)
		c.searchAgain()
	})
	return true
}
