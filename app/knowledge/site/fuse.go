package site

// rrfK is reciprocal rank fusion's constant: a result at rank r (from 1)
// in one list scores 1/(rrfK+r). 60 is the value of the method's
// original evaluation and the common default; it makes the fused order
// depend on ranks only, never on the lists' raw scores.
const rrfK = 60

// fuse merges ranked lists by reciprocal rank fusion and returns the best
// k items, each once (by key, given the item's list and rank). BM25 scores from two indexes are not
// comparable (each index has its own term statistics), but ranks are. On
// equal fused scores the earlier list, then the better rank, comes first.
func fuse[T any](lists [][]T, key func(list, rank int, item T) string, k int) []T {
	type entry struct {
		item  T
		score float64
		list  int
		rank  int
	}
	var order []string
	byKey := map[string]*entry{}
	for li, l := range lists {
		for r, it := range l {
			s := 1 / float64(rrfK+r+1)
			kk := key(li, r, it)
			if e, ok := byKey[kk]; ok {
				e.score += s
				continue
			}
			byKey[kk] = &entry{item: it, score: s, list: li, rank: r}
			order = append(order, kk)
		}
	}
	es := make([]*entry, len(order))
	for i, kk := range order {
		es[i] = byKey[kk]
	}
	// Insertion sort keeps it stable and the lists are short (k each).
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && better(es[j].score, es[j].rank, es[j].list, es[j-1].score, es[j-1].rank, es[j-1].list); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
	if len(es) > k {
		es = es[:k]
	}
	out := make([]T, len(es))
	for i, e := range es {
		out[i] = e.item
	}
	return out
}

func better(s1 float64, r1, l1 int, s2 float64, r2, l2 int) bool {
	if s1 != s2 {
		return s1 > s2
	}
	if r1 != r2 {
		return r1 < r2
	}
	return l1 < l2
}
