package beir

import (
	"math"
	"sort"
	"time"
)

// NDCG is nDCG@k of one ranking (corpus ids, best first) with graded gains
// as in pytrec_eval: DCG = Σ rel_i / log2(i+1).
func NDCG(ranking []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, id := range ranking {
		if i >= k {
			break
		}
		if g := rel[id]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	var gains []int
	for _, g := range rel {
		if g > 0 {
			gains = append(gains, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gains)))
	idcg := 0.0
	for i, g := range gains {
		if i >= k {
			break
		}
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall is the share of relevant ids found in the first k of ranking.
func Recall(ranking []string, rel map[string]int, k int) float64 {
	total, found := 0, 0
	for _, g := range rel {
		if g > 0 {
			total++
		}
	}
	if total == 0 {
		return 0
	}
	for i, id := range ranking {
		if i >= k {
			break
		}
		if rel[id] > 0 {
			found++
		}
	}
	return float64(found) / float64(total)
}

// Percentile returns the p-th percentile (0..100) of ds by the
// nearest-rank method; ds is sorted in place.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	r := int(math.Ceil(p / 100 * float64(len(ds))))
	if r < 1 {
		r = 1
	}
	if r > len(ds) {
		r = len(ds)
	}
	return ds[r-1]
}
