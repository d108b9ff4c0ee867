// Package rank scores a knowledge index's chunks and documents for a query
// and returns the best documents, each with its best chunk: BM25 over
// chunks (bm25.go), whole-document score (docscore.go), pseudo-relevance
// feedback (feedback.go), term proximity (proximity.go) and the fusion of
// the two representations (fusion.go).
//
// rank.go runs a query term at a time into the accumulator (accum.go),
// over what it learns of each segment once (segments.go); warm.go has
// that code compiled before a query needs it, in the browser.
//
// It reads an index through a small interface (Index, Segment), so the
// same code ranks the visitor's in-memory index (scorch with flat
// segments) and a site bundle read shard by shard over the network: the
// two rank exactly alike because they are ranked by the same code from the
// same numbers.
package rank

import (
	"container/heap"
	"context"
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
)

// Why not bleve's query searchers: profiling SciFact queries (claims of a
// dozen terms, OR semantics) showed most time in bleve's generic searcher
// stack — disjunction heaps, per-posting DocumentMatch objects, the TopN
// collector — not in reading postings; in WASM a query took ~20 ms of CPU.
// rank scores term-at-a-time straight from the postings of each segment
// into a dense accumulator, several times faster. The formula is
// Robertson's BM25 by default, or bleve's own (bm25.go), the one its
// BooleanQuery{must: match(body), should: match(title)^boost} computes, so
// that rankings can still be what bleve would give.

// queryTerm is one term of a query and its weight: how often the term
// occurs in the query as typed (each token is one clause, as in bleve's
// match query), or its share of an expanded query (feedback.go).
type queryTerm struct {
	term   string
	weight float64
}

// queryTokens analyses q, counting repeated terms.
func (r *Ranker) queryTokens(q string) []queryTerm {
	var terms []queryTerm
	seen := map[string]int{}
	for _, t := range r.cfg.Analyzer.Analyze([]byte(q)) {
		s := string(t.Term)
		if i, ok := seen[s]; ok {
			terms[i].weight++
		} else {
			seen[s] = len(terms)
			terms = append(terms, queryTerm{s, 1})
		}
	}
	return terms
}

// sqrtTF caches √tf for small term frequencies, as bleve does.
var sqrtTF = func() (t [64]float64) {
	for i := range t {
		t[i] = math.Sqrt(float64(i))
	}
	return t
}()

// Rank returns the best k documents of ix for q, best first, each with
// its best chunk; with feedback on, for the query expanded from a first
// ranking.
func (r *Ranker) Rank(ctx context.Context, ix Index, q string, k int) ([]Result, error) {
	return r.rank(ctx, ix, r.queryTokens(q), k)
}

// rank ranks for analysed terms.
func (r *Ranker) rank(ctx context.Context, ix Index, terms []queryTerm, k int) ([]Result, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	prox := r.cfg.Proximity.on(len(terms))
	depth := k
	if prox {
		depth = max(k, r.cfg.Proximity.Depth)
	}
	var stats bodyStats
	final := terms
	fb := r.cfg.Feedback
	if fb.on(len(terms)) {
		first, err := r.rankTerms(ctx, ix, terms, max(depth, fb.Docs), &stats)
		if err != nil || len(first) == 0 {
			return first, err
		}
		var expanded bool
		if final, expanded, err = r.expand(ctx, ix, terms, first[:min(fb.Docs, len(first))]); err != nil {
			return nil, err
		}
		if !expanded {
			// Nothing to expand with: the first ranking is the answer.
			if !prox {
				return first[:min(k, len(first))], nil
			}
			return r.proximityRerank(ctx, ix, terms, first, stats, k)
		}
	}
	ranked, err := r.rankTerms(ctx, ix, final, depth, &stats)
	if err != nil || !prox {
		return ranked, err
	}
	return r.proximityRerank(ctx, ix, terms, ranked, stats, k)
}

// bodyStats are the body field's statistics of one ranking: each term's
// idf and the average chunk length.
type bodyStats struct {
	idf    map[string]float64
	avgLen float64
}

// rankTerms ranks documents for weighted terms; stats, if not nil, gets
// the body field's statistics.
func (r *Ranker) rankTerms(ctx context.Context, ix Index, terms []queryTerm, k int, stats *bodyStats) ([]Result, error) {
	clauses := 0.0
	names := make([]string, len(terms))
	for i, t := range terms {
		clauses += t.weight
		names[i] = t.term
	}
	if f, ok := ix.(Fetcher); ok {
		if err := f.FetchTerms(ctx, names); err != nil {
			return nil, err
		}
	}
	view, err := ix.View()
	if err != nil {
		return nil, err
	}
	defer view.Release()
	segs := view.Segments
	offsets := make([]uint64, len(segs)+1)
	live := make([]Segment, len(segs))
	for i, ss := range segs {
		live[i] = ss.Segment
		offsets[i+1] = offsets[i] + ss.Segment.Count()
	}
	total := offsets[len(segs)]
	docCount := view.Chunks
	if docCount == 0 {
		return nil, nil
	}
	r.forgetSegments(live)
	infos := make([]*segInfo, len(segs))
	for i := range segs {
		if infos[i], err = r.segmentInfo(live[i]); err != nil {
			return nil, err
		}
	}
	ords := r.ordinalDocs()
	deleted := make([]*roaring.Bitmap, len(segs))
	for i, ss := range segs {
		if d := ss.Deleted; d != nil && !d.IsEmpty() {
			deleted[i] = d
		}
	}
	scoring := r.cfg.Scoring
	// Document-level statistics, when anything needs them.
	perDoc := scoring.documentScore() || scoring.documentIDF()
	var parts []*docParts
	liveDocs := 0
	var liveDocTokens int64
	if perDoc {
		parts = make([]*docParts, len(segs))
		for i := range segs {
			if parts[i], err = r.documentParts(live[i], infos[i]); err != nil {
				return nil, err
			}
			n, tokens := liveDocuments(parts[i], infos[i], deleted[i])
			liveDocs += n
			liveDocTokens += tokens
		}
	}
	bm := scoring.Formula.params()

	a := r.takeAccum()
	a.reset(int(total), len(ords))
	// The arrays are cleared for the next query after this one has its
	// results: in the browser, while its fragments download.
	defer func() {
		go func() {
			a.clear()
			r.putAccum(a)
		}()
	}()

	fields := []struct {
		name  string
		boost float64
		into  []float64
	}{{FieldBody, 1, a.body}, {FieldTitle, r.cfg.TitleBoost, a.title}}
	lists := make([]flatPostings, len(segs))
	// The title postings the whole-document score reads, by query term
	// and segment, kept for the title field's own pass.
	var titles [][]flatPostings
	if perDoc && scoring.documentScore() {
		titles = make([][]flatPostings, len(terms))
	}
	// BM25+'s δ on the formula's scale (bleve's tf part peaks at k1, not
	// k1+1).
	delta := scoring.Delta * bm.saturation() / (bm.k1 + 1)
	norm := fieldNorm{bm: bm, sat: bm.saturation()}
	for _, f := range fields {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.boost <= 0 {
			continue // the title bonus is off
		}
		body := f.name == FieldBody
		// n is the number of units (chunks) a field's idf counts.
		var avgLen, docAvgLen float64
		n := float64(docCount)
		if bm.bleve {
			card, err := view.Cardinality(f.name)
			if err != nil {
				return nil, fmt.Errorf("knowledge: field statistics: %w", err)
			}
			avgLen = math.Ceil(float64(card) / float64(docCount))
			if body && perDoc && liveDocs > 0 {
				// The same (bleve's) average, over documents.
				docAvgLen = math.Ceil(float64(card) / float64(liveDocs))
			}
		} else {
			// Lucene's statistics: tokens per chunk that has the field,
			// which also counts the units of the field's idf.
			var tot FieldTotals
			for i := range segs {
				t, err := r.liveFieldTotals(live[i], infos[i], f.name, deleted[i])
				if err != nil {
					return nil, err
				}
				tot.Tokens += t.Tokens
				tot.Chunks += t.Chunks
			}
			if tot.Chunks > 0 {
				avgLen, n = float64(tot.Tokens)/float64(tot.Chunks), float64(tot.Chunks)
			}
			if body && perDoc && liveDocs > 0 {
				docAvgLen = float64(liveDocTokens) / float64(liveDocs)
			}
		}
		if avgLen <= 0 {
			continue
		}
		if stats != nil && body {
			stats.avgLen = avgLen
			stats.idf = map[string]float64{}
		}
		norm.reset(avgLen)
		for ti, qt := range terms {
			var df uint64
			for i := range segs {
				var fp flatPostings
				if !body && titles != nil {
					if titles[ti] == nil {
						break // no chunk has the term
					}
					fp = titles[ti][i]
				} else if fp, err = postingsOf(live[i], f.name, qt.term); err != nil {
					return nil, err
				}
				lists[i] = fp
				df += fp.count(deleted[i])
			}
			if df == 0 {
				continue
			}
			// Lucene's idf; bleve's formula squares it (bm25.weight).
			idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
			var docIDF float64
			if body && perDoc {
				if titles != nil {
					titles[ti] = make([]flatPostings, len(segs))
				}
				if err := a.documentFrequencies(live, infos, lists, deleted, titles, ti, qt.term); err != nil {
					return nil, err
				}
				ddf := float64(len(a.tdocs))
				docIDF = math.Log(1 + (float64(liveDocs)-ddf+0.5)/(ddf+0.5))
				if scoring.documentIDF() {
					idf = docIDF
				}
			}
			if stats != nil && body {
				stats.idf[qt.term] = idf
			}
			w := f.boost * bm.weight(idf) * qt.weight
			m := qt.weight
			var dl float64
			if body {
				dl = delta
			}
			for i := range segs {
				a.scorePostings(f.into, lists[i], deleted[i], uint32(offsets[i]), w, m, dl, &norm)
			}
			if body && perDoc {
				// The whole document, scored by the same formula.
				a.scoreDocuments(parts, bm.weight(docIDF)*qt.weight, m, bm, scoring.documentScore(), docAvgLen, delta)
			}
		}
		a.coordField(f.into, bm, clauses)
	}
	// A document ranks by its best chunk's body score plus its title
	// bonus (the title is indexed with the first chunk only) and, unless
	// off, its whole-document score (docscore.go).
	for lo, seg := 0, 0; lo < len(a.scored); lo += chooseWords {
		seg = a.chooseChunks(lo, min(lo+chooseWords, len(a.scored)), seg, offsets, infos)
	}

	// The whole document's score, with its own coord factor: added to
	// the best chunk's (CombSUM), or fused with it by rank.
	final := a.combSUM
	if scoring.Fusion == FusionRRF && scoring.documentScore() {
		for _, o := range a.dscoreTouch {
			a.dscore[o] *= bm.coord(a.dmatched[o], clauses)
		}
		a.fuseRanks()
		final = a.rrf
	} else {
		for _, o := range a.dscoreTouch {
			a.bonus[o] += a.dscore[o] * bm.coord(a.dmatched[o], clauses)
		}
	}
	h := &minHeap{}
	for _, o := range a.dtouch {
		sc := final(o)
		if h.Len() < k {
			heap.Push(h, hnode{uint32(o), sc})
		} else if sc > (*h)[0].score || (sc == (*h)[0].score && uint32(o) < (*h)[0].n) {
			(*h)[0] = hnode{uint32(o), sc}
			heap.Fix(h, 0)
		}
	}
	out := make([]Result, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		top := heap.Pop(h).(hnode)
		o := int32(top.n)
		res := Result{Doc: Doc{Ord: o, ID: ords[o]}, Chunk: int(a.bestN[o]), Score: top.score, Neighbour: -1}
		if a.second[o] > 0 && (a.secondN[o] == a.bestN[o]-1 || a.secondN[o] == a.bestN[o]+1) {
			res.Neighbour = int(a.secondN[o])
		}
		out[i] = res
	}
	return out, nil
}

// fieldNorm is what scoring a field's postings needs beside the term:
// the formula, its saturation, and k1·(1−b+b·len/avg) by field length,
// filled in as lengths are met.
type fieldNorm struct {
	bm     bm25
	sat    float64
	avgLen float64
	byLen  [512]float64
}

// reset starts a field of average length avgLen.
func (n *fieldNorm) reset(avgLen float64) {
	n.avgLen = avgLen
	clear(n.byLen[:])
}

// of returns k1·(1−b+b·fieldLen/avg).
func (n *fieldNorm) of(fieldLen uint32) float64 {
	if fieldLen < uint32(len(n.byLen)) {
		ln := n.byLen[fieldLen]
		if ln == 0 {
			ln = n.bm.lengthNorm(float64(fieldLen), n.avgLen)
			n.byLen[fieldLen] = ln
		}
		return ln
	}
	return n.bm.lengthNorm(float64(fieldLen), n.avgLen)
}

type hnode struct {
	n     uint32
	score float64
}

// minHeap keeps the weakest of the best at the top; among equal scores the
// later document is weaker, so ties break by index order.
type minHeap []hnode

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].n > h[j].n
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(hnode)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
