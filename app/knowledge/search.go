package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tinyrag/app/knowledge/highlight"
	"tinyrag/app/knowledge/rank"
)

// SearchOptions tunes Search.
type SearchOptions struct {
	// K is how many documents to return (default 5).
	K int
	// Highlight fills Hit.Fragments.
	Highlight bool
	// AsYouType searches q as typed so far, for search as you type: its
	// last word, unless a space follows it, matches the indexed terms it
	// begins, and a word of five or more letters that no chunk holds
	// matches the terms one edit away (see package rank). It ranks without
	// feedback or proximity.
	AsYouType bool
	// Progress, if set, is called as a search's hits arrive, before
	// Search returns: with the hits in their final order, those whose
	// text is still on its way marked Pending. A site's bundle fetches
	// each hit's text after its ranking, some of them a second wave of
	// requests later, and the first can be shown meanwhile. Searches that
	// have every text at hand (the visitor's own knowledge) never call
	// it; Search's return is the final list either way.
	Progress func(hits []Hit)
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
	// Site says the hit comes from a site's bundle: Source is then the
	// address of the page it was read from.
	Site bool
	// Pending says the hit's document has not arrived yet (only in what
	// SearchOptions.Progress is given): only Chunk, Score and Site are
	// set, since a site's bundle reads even the document's ID with its
	// text.
	Pending bool
}

// ErrEmptyQuery is returned for a query with nothing to search for.
var ErrEmptyQuery = errors.New("knowledge: empty query")

// Search runs a BM25 query over titles and bodies and returns the best K
// documents, each once, represented by its best-scoring chunk.
func (kb *KB) Search(ctx context.Context, q string, opt SearchOptions) ([]Hit, error) {
	// As you type, a space after the last word says it is finished.
	typed := q
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

	var ranked []rank.Result
	var err error
	var terms map[string]bool
	if opt.AsYouType {
		dict := idx.Dictionary()
		ranked, err = kb.ranker.RankAsYouType(ctx, rankIndex{idx, kb}, dict, typed, opt.K)
		if err == nil && opt.Highlight {
			terms, err = highlight.AsYouTypeTerms(ctx, kb.ranker, dict, typed)
		}
	} else {
		ranked, err = kb.ranker.Rank(ctx, rankIndex{idx, kb}, q, opt.K)
		if opt.Highlight {
			terms = highlight.QueryTerms(kb.analyzer, q)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("knowledge: search %q: %w", q, err)
	}
	hits := make([]Hit, 0, len(ranked))
	for _, r := range ranked {
		d, known := kb.docs.get(r.Doc.ID)
		if !known {
			continue // deleted while we searched
		}
		cs, err := kb.chunksOf(ctx, r.Doc.ID)
		if err != nil {
			return nil, err
		}
		h, err := NewHit(d, cs, r)
		if err != nil {
			return nil, err
		}
		if opt.Highlight {
			h.Fragments = highlight.Fragments(kb.analyzer, h.Text, terms)
		}
		hits = append(hits, h)
	}
	return hits, nil
}

// NewHit is the hit for ranked document d, whose chunks are cs: its best
// chunk, joined with the runner-up when that one sits right beside it.
func NewHit(d Document, cs []Chunk, r rank.Result) (Hit, error) {
	n := r.Chunk
	if n < 0 || n >= len(cs) {
		return Hit{}, fmt.Errorf("knowledge: index has chunk %d of %s but the document has %d chunks", n, d.Source, len(cs))
	}
	text := cs[n].Text
	// The runner-up chunk right beside the best one continues the
	// passage: join them so the reader gets the whole thought, without
	// the repeated overlap.
	switch {
	case r.Neighbour == n-1 && n > 0:
		text = cs[n-1].Text + "\n" + text[min(cs[n].Overlap, len(text)):]
	case r.Neighbour == n+1 && n+1 < len(cs):
		text = text + "\n" + cs[n+1].Text[min(cs[n+1].Overlap, len(cs[n+1].Text)):]
	}
	return Hit{DocID: d.ID, ChunkID: cs[n].ID, Chunk: n, Title: d.Title, Source: d.Source, Score: r.Score, Text: strings.TrimSpace(text)}, nil
}
