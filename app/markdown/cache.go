package markdown

import "sync"

// The UI re-renders the whole answer for every streamed token, yet almost
// all of it — every finished paragraph, code block and card — comes out the
// same each time. Parsing and sanitizing are the costly steps, and both are
// pure functions of their input, so their results are remembered. Two
// generations approximate LRU: a full current generation becomes the
// previous one, and entries still in use are promoted back, so the stable
// part of an answer survives while the churn of the growing last block ages
// out.

// cacheGenerationBytes bounds one generation of each cache; two may be alive.
const cacheGenerationBytes = 2 << 20

// pieceKey names a finished stretch of Markdown rendered with some options.
type pieceKey struct {
	allowRun bool
	lang     string
	src      string
}

// cardKey names a card rendered in some language; the position fields are
// zeroed because they do not show.
type cardKey struct {
	card     Card
	lang     string
	expanded bool
}

var (
	// blockCache maps the raw HTML of one block to its sanitized form.
	blockCache = newCache(func(k string) int { return len(k) })
	// pieceCache maps a finished Markdown piece to its sanitized HTML.
	pieceCache = newCache(func(k pieceKey) int { return len(k.src) })
	// cardCache maps a card to its sanitized HTML.
	cardCache = newCache(func(k cardKey) int {
		return len(k.card.ID) + len(k.card.Tool) + len(k.card.Input) + len(k.card.Result) + len(k.card.Error)
	})
)

// resetCaches forgets everything; benchmarks use it to measure a cold render.
func resetCaches() {
	blockCache.reset()
	pieceCache.reset()
	cardCache.reset()
}

// genCache is a two-generation cache of strings, bounded in bytes.
type genCache[K comparable] struct {
	mu         sync.Mutex
	cur, prev  map[K]string
	curBytes   int
	generation int // bytes per generation
	keySize    func(K) int
}

func newCache[K comparable](keySize func(K) int) *genCache[K] {
	return &genCache[K]{generation: cacheGenerationBytes, keySize: keySize}
}

func (c *genCache[K]) get(key K) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[key]; ok {
		return v, true
	}
	if v, ok := c.prev[key]; ok {
		c.putLocked(key, v)
		return v, true
	}
	return "", false
}

func (c *genCache[K]) put(key K, val string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(key, val)
}

func (c *genCache[K]) putLocked(key K, val string) {
	size := c.keySize(key) + len(val)
	if size > c.generation {
		return // would evict everything and still not fit
	}
	if c.cur == nil || c.curBytes+size > c.generation {
		c.prev, c.cur, c.curBytes = c.cur, make(map[K]string), 0
	}
	c.cur[key] = val
	c.curBytes += size
}

func (c *genCache[K]) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur, c.prev, c.curBytes = nil, nil, 0
}

// sanitize runs the raw HTML of one block through the policy, remembering
// the result.
func sanitize(raw string) string {
	if raw == "" {
		return ""
	}
	if v, ok := blockCache.get(raw); ok {
		return v
	}
	v := policy().Sanitize(raw)
	blockCache.put(raw, v)
	return v
}
