package rank

import (
	"context"
	"sort"

	"tinyrag/app/knowledge/analyze"
)

// Term proximity with the sequential dependence model (Metzler and Croft,
// "A Markov random field model for term dependencies", SIGIR 2005): query
// words that stand together in a passage in the order typed, or near each
// other, tell more than the same words scattered over it
// ("vitamin D deficiency" against a text that mentions vitamins, D and
// deficiencies apart). Bag-of-words BM25 cannot tell the two apart. The
// model mixes the term score with scores for each adjacent pair of query
// terms, counted as an exact phrase and within a window of 8 words, with
// the weights it is always used with (0.85, 0.10, 0.05). A pair is scored
// with the ranker's own term formula, its idf the sum of its terms' (as
// Lucene's span queries weigh a phrase), so no constant is new.
//
// The index keeps no word positions (they would cost index size and import
// time), so the ranking reads them from the best chunk of each of the
// first Depth documents, analysed again at query time, and re-ranks those.
//
// Off by default: on SciFact it lowers nDCG@10 (0.694 to 0.685) and
// multiplies query time (docs/retrieval.md, "Term proximity"); a collection of
// short keyword queries over long documents is where it is expected to pay.

// Proximity configures term-proximity re-ranking.
type Proximity struct {
	// On turns proximity re-ranking on.
	On bool
	// Depth is how many of the best documents are re-ranked (default 100).
	Depth int
}

// on says whether proximity applies to a query of n distinct terms: it
// needs two.
func (p Proximity) on(n int) bool { return p.On && p.Depth > 0 && n >= 2 }

func (p Proximity) withDefaults() Proximity {
	if p.Depth <= 0 {
		p.Depth = 100
	}
	return p
}

// Sequential dependence weights and window (Metzler and Croft, SIGIR
// 2005), the defaults of Indri, Galago and Anserini: terms 0.85, ordered
// pairs 0.10, unordered pairs within 8 words 0.05.
const (
	sdmTerm      = 0.85
	sdmOrdered   = 0.10
	sdmUnordered = 0.05
	sdmWindow    = 8
)

// proximityRerank re-scores the first Depth documents with the sequential
// dependence model: their term score (as ranked) mixed with the scores of
// the query's adjacent term pairs in the document's best chunk, scored
// like terms (a pair's idf is the sum of its terms', as Lucene's span
// queries weigh it); then re-sorts and keeps the best k.
func (r *Ranker) proximityRerank(ctx context.Context, ix Index, terms []queryTerm, ranked []Result, st bodyStats, k int) ([]Result, error) {
	if st.avgLen <= 0 {
		return ranked[:min(k, len(ranked))], nil
	}
	// Adjacent pairs of the query as typed (terms are in order of first
	// occurrence, which is the typed order for distinct terms).
	type pair struct {
		a, b string
		w    float64 // weighed as a term query weighs its idf
	}
	bm := r.cfg.Scoring.Formula.params()
	var pairs []pair
	for i := 0; i+1 < len(terms); i++ {
		a, b := terms[i].term, terms[i+1].term
		ia, oka := st.idf[a]
		ib, okb := st.idf[b]
		if !oka || !okb {
			continue // a term no chunk has: no chunk has the pair
		}
		pairs = append(pairs, pair{a, b, bm.weight(ia + ib)})
	}
	if len(pairs) == 0 {
		return ranked[:min(k, len(ranked))], nil
	}
	sat := bm.saturation()
	if f, ok := ix.(Fetcher); ok {
		refs := make([]ChunkRef, len(ranked))
		for i, d := range ranked {
			refs[i] = ChunkRef{d.Doc, d.Chunk}
		}
		if err := f.FetchText(ctx, refs); err != nil {
			return nil, err
		}
	}
	pos := map[string][]int{}
	for i := range ranked {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := &ranked[i]
		text, err := ix.ChunkText(ctx, d.Doc, d.Chunk)
		if err != nil {
			return nil, err
		}
		clear(pos)
		length := 0
		analyze.EachTerm(r.cfg.Analyzer, []byte(text), func(term string, p int) {
			length++
			if _, ok := st.idf[term]; ok {
				pos[term] = append(pos[term], p)
			}
		})
		ln := bm.lengthNorm(float64(length), st.avgLen)
		score := func(tf int) float64 {
			s := bm.tf(uint32(tf))
			return s * sat / (s + ln)
		}
		var od, uw float64
		for _, p := range pairs {
			o, u := pairCounts(pos[p.a], pos[p.b])
			if o > 0 {
				od += p.w * score(o)
			}
			if u > 0 {
				uw += p.w * score(u)
			}
		}
		d.Score = sdmTerm*d.Score + sdmOrdered*od + sdmUnordered*uw
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].Score > ranked[j].Score })
	return ranked[:min(k, len(ranked))], nil
}

// pairCounts counts how often b directly follows a (ordered window 1) and
// how often they occur within sdmWindow positions in either order.
func pairCounts(pa, pb []int) (ordered, unordered int) {
	if len(pa) == 0 || len(pb) == 0 {
		return 0, 0
	}
	for _, x := range pa {
		for _, y := range pb {
			if y == x+1 {
				ordered++
			}
			if d := y - x; d < sdmWindow && d > -sdmWindow {
				unordered++
			}
		}
	}
	return ordered, unordered
}
