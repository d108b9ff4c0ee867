package rank

import (
	"cmp"
	"slices"
)

// Why reciprocal rank fusion as an option: the best chunk and the whole
// document are two representations of one document, and their scores are
// added as they are (CombSUM), which trusts the two to be on one scale.
// Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) uses
// ranks only: a document scores Σ 1/(k + rank) over the rankings, with
// k = 60, the constant the paper fixed once for all its collections. A
// ranking's title bonus goes with both representations.

// Fusion says how the best chunk's and the whole document's scores
// combine.
type Fusion string

// The fusions: scores added (CombSUM, the default) or reciprocal ranks.
const (
	FusionSum Fusion = ""
	FusionRRF Fusion = "rrf"
)

// rrfK is reciprocal rank fusion's k (Cormack et al., SIGIR 2009).
const rrfK = 60

// combSUM is a document's score by ordinal: best chunk, title bonus and
// (already added into the bonus) whole document.
func (a *accum) combSUM(o int32) float64 { return a.best[o] + a.bonus[o] }

// rrf is a document's fused score by ordinal (fuseRanks).
func (a *accum) rrf(o int32) float64 { return a.fused[o] }

// fuseRanks ranks the touched documents twice, by best chunk and by whole
// document (each with the title bonus), and sums their reciprocal ranks
// into a.fused. A document missing from a ranking (no score in it) gets
// nothing from it; ties keep index order, as the final ranking does.
func (a *accum) fuseRanks() {
	for _, whole := range []bool{false, true} {
		a.order = a.order[:0]
		for _, o := range a.dtouch {
			sc := a.best[o]
			if whole {
				sc = a.dscore[o]
			}
			if sc > 0 {
				a.order = append(a.order, rankKey{sc + a.bonus[o], o})
			}
		}
		slices.SortFunc(a.order, func(x, y rankKey) int {
			if c := cmp.Compare(y.score, x.score); c != 0 {
				return c
			}
			return cmp.Compare(x.o, y.o)
		})
		for r, k := range a.order {
			a.fused[k.o] += 1 / float64(rrfK+r+1)
		}
	}
}

// rankKey is a document's score in one ranking, by ordinal.
type rankKey struct {
	score float64
	o     int32
}
