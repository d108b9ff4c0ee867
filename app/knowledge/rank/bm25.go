package rank

import (
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"
)

// Why a choice of formula: bleve v2.6.3's BM25 (search/scorer/
// scorer_term.go and search/searcher/search_term.go in its module) is not
// the BM25 of the literature. It keeps k1 = 1.2 and b = 0.75 and
// Lucene's idf, log(1 + (N − n + 0.5)/(n + 0.5)), but inherits the shape
// of Lucene's classic tf·idf scoring: a term's score is multiplied by its
// query weight (boost · idf · queryNorm), so idf counts squared; term
// frequency enters as √tf; a boolean query multiplies by the share of its
// clauses matched (coord); and the "average field length" is the number
// of distinct terms in the field's dictionary divided by the number of
// documents, not the average number of tokens. On chunks of ~130 tokens
// that average is a handful of tokens, so b·len/avg is some thirty and a
// chunk's tf part is a small fraction of its maximum: length
// normalisation far stronger than the formula's b says.
//
// The other formulas are Robertson's BM25 as Lucene's BM25Similarity
// computes it (Robertson and Zaragoza, "The probabilistic relevance
// framework: BM25 and beyond", 2009): idf once, raw tf, the true average
// length in tokens, no coord. Lucene's defaults are k1 = 1.2, b = 0.75;
// Anserini's, used for its BEIR baselines, k1 = 0.9, b = 0.4 (Lin et al.,
// "Anserini", SIGIR 2017; Kamphuis et al., ECIR 2020, found the published
// BM25 variants alike in effectiveness).

// Formula names a BM25 formula.
type Formula string

// The formulas: Robertson's at Lucene's defaults (the default) and at
// Anserini's, and bleve's own.
const (
	FormulaLucene   Formula = ""
	FormulaAnserini Formula = "anserini"
	FormulaBleve    Formula = "bleve"
)

// ParseFormula reads a formula's name: lucene, anserini or bleve.
func ParseFormula(s string) (Formula, error) {
	switch s {
	case "", "lucene":
		return FormulaLucene, nil
	case string(FormulaAnserini), string(FormulaBleve):
		return Formula(s), nil
	}
	return "", fmt.Errorf("knowledge: unknown BM25 formula %q (want lucene, anserini or bleve)", s)
}

// bm25 is a formula's constants and shape.
type bm25 struct {
	k1, b float64
	// bleve: idf², √tf, coord and the dictionary-based average length.
	bleve bool
}

func (f Formula) params() bm25 {
	switch f {
	case FormulaAnserini:
		return bm25{k1: 0.9, b: 0.4}
	case FormulaBleve:
		return bm25{k1: search.BM25_k1, b: search.BM25_b, bleve: true}
	}
	return bm25{k1: 1.2, b: 0.75}
}

// tf is a term frequency as the formula counts it.
func (p bm25) tf(freq uint32) float64 {
	if !p.bleve {
		return float64(freq)
	}
	if freq < uint32(len(sqrtTF)) {
		return sqrtTF[freq]
	}
	return math.Sqrt(float64(freq))
}

// lengthNorm is the formula's k1·(1−b+b·length/avg): how a field of
// length against the average length avg damps a term's frequency.
func (p bm25) lengthNorm(length, avg float64) float64 {
	return p.k1 * (1 - p.b + p.b*length/avg)
}

// weight is a term's weight from its idf: squared in bleve's formula.
func (p bm25) weight(idf float64) float64 {
	if p.bleve {
		return idf * idf
	}
	return idf
}

// saturation is the numerator's factor: bleve's tf part peaks at k1,
// Robertson's at k1+1.
func (p bm25) saturation() float64 {
	if p.bleve {
		return p.k1
	}
	return p.k1 + 1
}

// coord is the share of a query's clauses matched, bleve's factor, or 1.
func (p bm25) coord(matched, clauses float64) float64 {
	if p.bleve {
		return matched / clauses
	}
	return 1
}

// liveFieldTotals adds up the named field's lengths over seg's chunks
// that are not deleted: the segment's totals, computed once and kept in
// info (segments are immutable), less the deleted chunks'.
func (r *Ranker) liveFieldTotals(seg Segment, info *segInfo, field string, deleted *roaring.Bitmap) (FieldTotals, error) {
	r.mu.Lock()
	t, ok := info.totals[field]
	var lens []uint32
	if !ok || deleted != nil {
		lens = seg.Lengths(field)
	}
	if !ok {
		for _, n := range lens {
			if n > 0 {
				t.Tokens += int64(n)
				t.Chunks++
			}
		}
		if info.totals == nil {
			info.totals = map[string]FieldTotals{}
		}
		info.totals[field] = t
	}
	r.mu.Unlock()
	if deleted != nil {
		it := deleted.Iterator()
		for it.HasNext() {
			if d := it.Next(); int(d) < len(lens) && lens[d] > 0 {
				t.Tokens -= int64(lens[d])
				t.Chunks--
			}
		}
	}
	return t, nil
}
