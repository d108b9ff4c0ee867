package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// SearchOptions tunes Search.
type SearchOptions struct {
	// K is how many documents to return (default 5).
	K int
	// Highlight fills Hit.Fragments.
	Highlight bool
	// AsYouType searches a query that is still being typed (a search box
	// that shows results at every key): its last word also matches as the
	// start of a longer word, and a misspelt word of five or more letters
	// still finds its page through a near miss one edit away.
	AsYouType bool
}

// Hit is one matching document, represented by its best chunk.
type Hit struct {
	DocID   string
	ChunkID string
	// Chunk is the chunk's position in its document.
	Chunk  int
	Title  string
	Source string
	Score  float64
	// Text is the chunk's text, extended by a neighbouring chunk when that
	// one matched too.
	Text string
	// Fragments are short HTML-escaped excerpts of Text with the matched
	// words in <mark>…</mark>.
	Fragments []string
}

// ErrEmptyQuery is returned for a query with nothing to search for.
var ErrEmptyQuery = errors.New("knowledge: empty query")

// Search runs a BM25 query over titles and bodies and returns the best K
// documents, each once, represented by its best-scoring chunk.
func (kb *KB) Search(ctx context.Context, q string, opt SearchOptions) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, ErrEmptyQuery
	}
	if opt.K <= 0 {
		opt.K = 5
	}
	kb.mu.RLock()
	idx := kb.idx
	kb.mu.RUnlock()

	ranked, err := kb.rank(ctx, idx, q, opt.K)
	if err != nil {
		return nil, fmt.Errorf("knowledge: search %q: %w", q, err)
	}
	var terms map[string]bool
	if opt.Highlight {
		terms = kb.queryTerms(q)
	}
	hits := make([]Hit, 0, len(ranked))
	for _, r := range ranked {
		kb.mu.RLock()
		d, known := kb.docs[r.docID]
		kb.mu.RUnlock()
		if !known {
			continue // deleted while we searched
		}
		cs, err := kb.chunksOf(ctx, r.docID)
		if err != nil {
			return nil, err
		}
		n := r.chunk
		if n >= len(cs) {
			return nil, fmt.Errorf("knowledge: index has chunk %d of %s but the document has %d chunks", n, d.Source, len(cs))
		}
		text := cs[n].Text
		// The runner-up chunk right beside the best one continues the
		// passage: join them so the reader gets the whole thought, without
		// the repeated overlap.
		switch {
		case r.neighbour == n-1 && n > 0:
			text = cs[n-1].Text + "\n" + text[cs[n].Overlap:]
		case r.neighbour == n+1 && n+1 < len(cs):
			text = text + "\n" + cs[n+1].Text[cs[n+1].Overlap:]
		}
		h := Hit{DocID: r.docID, ChunkID: cs[n].ID, Chunk: n, Title: d.Title, Source: d.Source, Score: r.score, Text: strings.TrimSpace(text)}
		if opt.Highlight {
			h.Fragments = kb.fragments(h.Text, terms)
		}
		hits = append(hits, h)
	}
	return hits, nil
}
