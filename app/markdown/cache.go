package markdown

import "sync"

// The UI re-renders the whole answer for every streamed token, yet almost
// all of it — every finished paragraph, code block and card — comes out the
// same each time. Sanitizing is the costly step, and it is a pure function
// of its input, so its results are remembered. Two generations approximate
// LRU: a full current generation becomes the previous one, and entries
// still in use are promoted back, so the stable part of an answer survives
// while the churn of the growing last block ages out.

// cacheGenerationBytes bounds one generation; two may be alive.
const cacheGenerationBytes = 2 << 20

type sanitizeCache struct {
	mu         sync.Mutex
	cur, prev  map[string]string
	curBytes   int
	generation int // bytes per generation
}

// blockCache maps the raw HTML of one block or card to its sanitized form;
// pieceCache maps a finished Markdown piece (options included in the key)
// to its sanitized HTML.
var (
	blockCache = &sanitizeCache{generation: cacheGenerationBytes}
	pieceCache = &sanitizeCache{generation: cacheGenerationBytes}
)

// resetCaches forgets everything; benchmarks use it to measure a cold render.
func resetCaches() {
	blockCache.reset()
	pieceCache.reset()
}

func (c *sanitizeCache) get(key string) (string, bool) {
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

func (c *sanitizeCache) put(key, val string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(key, val)
}

func (c *sanitizeCache) putLocked(key, val string) {
	size := len(key) + len(val)
	if size > c.generation {
		return // would evict everything and still not fit
	}
	if c.cur == nil || c.curBytes+size > c.generation {
		c.prev, c.cur, c.curBytes = c.cur, make(map[string]string), 0
	}
	c.cur[key] = val
	c.curBytes += size
}

func (c *sanitizeCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur, c.prev, c.curBytes = nil, nil, 0
}

// sanitize runs unsanitized HTML through the policy, remembering the result.
func sanitize(raw string) string {
	if raw == "" {
		return ""
	}
	if v, ok := blockCache.get(raw); ok {
		return v
	}
	v := policy.Sanitize(raw)
	blockCache.put(raw, v)
	return v
}
