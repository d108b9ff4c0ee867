package rank

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"tinyrag/app/knowledge/analyze"
)

// Search as you type: a visitor typing "prote" wants the pages about
// proteins already, and one typing "protien" wants them too. The query's
// last word, while it is still being typed (no space after it), matches
// every indexed term it begins, and a longer word the index does not hold
// matches the indexed terms one edit away from it (Damerau's edits: a
// letter inserted, deleted, replaced, or two neighbours swapped). Each
// word of the query keeps the weight of one word, shared among the terms
// it stands for, so a prefix that completes to many terms does not
// outweigh the words typed in full. Feedback and proximity stay off: they
// would cost a second round of lookups on every keystroke.

// Dictionary answers the term lookups of search as you type. The terms
// are the index's (analysed: lower-cased and stemmed) body terms.
type Dictionary interface {
	// Complete returns up to max terms that start with prefix, those in
	// most chunks first.
	Complete(ctx context.Context, prefix string, max int) ([]string, error)
	// Near returns the terms one edit from term (OneEdit).
	Near(ctx context.Context, term string) ([]string, error)
	// Has reports whether any chunk holds term.
	Has(ctx context.Context, term string) (bool, error)
}

// Limits of the expansion.
const (
	// MinPrefix is the shortest last word that is completed: one letter
	// would stand for a good part of the vocabulary.
	MinPrefix = 2
	// MaxCompletions is how many terms a prefix stands for at most.
	MaxCompletions = 8
	// MinNearMiss is the shortest word (in letters) that may be misspelt:
	// in shorter words one edit makes another common word.
	MinNearMiss = 5
	// MaxNearMisses is how many terms a misspelt word stands for at most.
	MaxNearMisses = 4
)

// AsYouType returns the terms q stands for while it is being typed (see
// above), each with its weight, and the terms alone, for highlighting.
func (r *Ranker) AsYouType(ctx context.Context, dict Dictionary, q string) ([]string, error) {
	terms, err := r.asYouTypeTerms(ctx, dict, q)
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.term
	}
	return out, err
}

// RankAsYouType ranks the documents of ix for q as typed so far: q's words
// expanded by AsYouType, then one ranking without feedback or proximity.
func (r *Ranker) RankAsYouType(ctx context.Context, ix Index, dict Dictionary, q string, k int) ([]Result, error) {
	terms, err := r.asYouTypeTerms(ctx, dict, q)
	if err != nil || len(terms) == 0 {
		return nil, err
	}
	return r.rankTerms(ctx, ix, terms, k, nil)
}

func (r *Ranker) asYouTypeTerms(ctx context.Context, dict Dictionary, q string) ([]queryTerm, error) {
	words := analyze.Words(r.cfg.Analyzer, []byte(q))
	typing := q != "" && !strings.ContainsRune(" \t\n\r", rune(q[len(q)-1]))
	var terms []queryTerm
	at := map[string]int{}
	add := func(cands []string) {
		for _, c := range cands {
			w := 1 / float64(len(cands))
			if i, ok := at[c]; ok {
				terms[i].weight += w
				continue
			}
			at[c] = len(terms)
			terms = append(terms, queryTerm{c, w})
		}
	}
	for i, w := range words {
		last := i == len(words)-1 && typing && w.End == len(strings.TrimRight(q, " \t\n\r"))
		var cands []string
		has := false
		if w.Term != "" {
			ok, err := dict.Has(ctx, w.Term)
			if err != nil {
				return nil, err
			}
			has = ok
		}
		switch {
		case last && utf8.RuneCountInString(w.Word) >= MinPrefix:
			if has {
				cands = append(cands, w.Term)
			}
			for _, p := range uniq(strings.ToLower(w.Word), w.Term) {
				more, err := dict.Complete(ctx, p, MaxCompletions)
				if err != nil {
					return nil, err
				}
				cands = union(cands, more, MaxCompletions)
			}
		case has:
			cands = []string{w.Term}
		case w.Term != "" && utf8.RuneCountInString(w.Word) >= MinNearMiss:
			near, err := dict.Near(ctx, w.Term)
			if err != nil {
				return nil, err
			}
			cands = near[:min(len(near), MaxNearMisses)]
		}
		if len(cands) > 0 {
			add(cands)
		}
	}
	return terms, nil
}

// uniq returns its non-empty arguments without repeats, in order.
func uniq(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// union appends the terms of more that a lacks, up to max terms in all.
func union(a, more []string, max int) []string {
	for _, m := range more {
		if len(a) >= max {
			break
		}
		if !slices.Contains(a, m) {
			a = append(a, m)
		}
	}
	return a
}

// OneEdit reports whether a and b differ by exactly one edit: a rune
// inserted, deleted or replaced, or two neighbouring runes swapped.
func OneEdit(a, b string) bool {
	if a == b {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		i := 0
		for i < len(ra) && ra[i] == rb[i] {
			i++
		}
		j := len(ra) - 1
		for j > i && ra[j] == rb[j] {
			j--
		}
		if i == j {
			return true // one replaced
		}
		return j == i+1 && ra[i] == rb[j] && ra[j] == rb[i] // neighbours swapped
	case 1:
		i := 0
		for i < len(rb) && ra[i] == rb[i] {
			i++
		}
		return string(ra[i+1:]) == string(rb[i:]) // one inserted
	}
	return false
}
