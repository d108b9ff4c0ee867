package knowledge

import (
	"sort"
	"sync"
)

// catalog is the list of the knowledge base's documents, by id and by
// source, with the chunks of those whose text has been read (after a
// reload only the list is, and chunks are read from the store on first
// use). A document is in the catalog once it is indexed and stored: the
// catalog is what a search may return. Safe for concurrent use.
type catalog struct {
	mu       sync.RWMutex
	docs     map[string]Document
	chunks   map[string][]Chunk // by document id; nil entry: not read yet
	bySource map[string]string  // source → document id
}

func newCatalog() *catalog {
	return &catalog{docs: map[string]Document{}, chunks: map[string][]Chunk{}, bySource: map[string]string{}}
}

// get returns a document by id.
func (c *catalog) get(id string) (Document, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.docs[id]
	return d, ok
}

// has says whether the catalog lists id.
func (c *catalog) has(id string) bool {
	_, ok := c.get(id)
	return ok
}

// source returns the id of the document imported from source.
func (c *catalog) source(source string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	id, ok := c.bySource[source]
	return id, ok
}

// len is how many documents the catalog lists.
func (c *catalog) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.docs)
}

// list returns the documents, oldest first.
func (c *catalog) list() []Document {
	c.mu.RLock()
	out := make([]Document, 0, len(c.docs))
	for _, d := range c.docs {
		out = append(out, d)
	}
	c.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Added.Equal(out[j].Added) {
			return out[i].Added.Before(out[j].Added)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// publish lists indexed and stored records and returns the ids of the
// older documents with the same sources, which they replace.
func (c *catalog) publish(batch []Record) (replaced []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range batch {
		if old, ok := c.bySource[r.Document.Source]; ok && old != r.Document.ID {
			replaced = append(replaced, old)
		}
		c.docs[r.Document.ID] = r.Document
		c.chunks[r.Document.ID] = r.Chunks
		c.bySource[r.Document.Source] = r.Document.ID
	}
	return replaced
}

// drop takes documents off the list and returns those it listed.
func (c *catalog) drop(ids []string) []Document {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Document
	for _, id := range ids {
		d, ok := c.docs[id]
		if !ok {
			continue
		}
		out = append(out, d)
		delete(c.docs, id)
		delete(c.chunks, id)
		if c.bySource[d.Source] == id {
			delete(c.bySource, d.Source)
		}
	}
	return out
}

// cached returns a document's chunks if they have been read, and whether
// the catalog lists the document at all.
func (c *catalog) cached(id string) (cs []Chunk, known bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, known = c.docs[id]
	return c.chunks[id], known
}

// keep remembers the chunks read for a document, unless it was dropped in
// the meantime.
func (c *catalog) keep(id string, cs []Chunk) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, still := c.docs[id]; still {
		c.chunks[id] = cs
	}
}
