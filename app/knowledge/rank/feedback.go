package rank

import (
	"context"
	"sort"

	"tinyrag/app/knowledge/analyze"
	"tinyrag/app/knowledge/flatseg"
)

// Pseudo-relevance feedback with RM3 (Abdul-Jaleel et al., "UMass at TREC
// 2004"; Lavrenko and Croft's relevance model, interpolated with the
// query): the best documents of a first ranking are taken as relevant, the
// words they share weighted by how well each document ranked, and the ten
// strongest added to the query for a second ranking. It is the standard
// bag-of-words expansion (Anserini's and Pyserini's "bm25+rm3" baseline),
// and helps most where plain BM25 is weakest: short queries that miss the
// documents' own vocabulary. The constants are Anserini's defaults, not
// tuned here: 10 feedback documents, 10 expansion terms, original query
// weight 0.5; and like Anserini's RM3 it skips candidate
// terms found in more than a tenth of all documents, which carry little
// weight and make the second ranking slow.
//
// What differs: feedback reads a document's best chunk (the passage that
// ranked it, as indexed: title, heading path and text), not the whole
// document — feedback from passages (Callan, SIGIR 1994; Lv and Zhai,
// SIGIR 2010) keeps a long document's unrelated parts out of the model, and
// the chunk text is already in memory.

// Feedback configures pseudo-relevance feedback (RM3).
type Feedback struct {
	// Off turns feedback off: one ranking per query.
	Off bool
	// MaxQueryTerms limits feedback to queries of at most this many
	// distinct terms (default 3; negative: every query). Expansion gains
	// most on short queries, which say least of what they look for (Xu and
	// Croft, SIGIR 1996), while on long, specific queries it tends to
	// drift: on SciFact (claims of about a dozen terms) RM3 on every query
	// lowers nDCG@10 from 0.694 to 0.654.
	MaxQueryTerms int
	// Docs is how many top-ranked documents feed back (default 10).
	Docs int
	// Terms is how many expansion terms are kept (default 10).
	Terms int
	// OriginalWeight is the original query's share of the expanded query
	// (default 0.5; 1 would ignore the feedback).
	OriginalWeight float64
}

// Applies reports whether feedback (with its defaults filled in) runs for
// a query of n distinct analysed terms.
func (f Feedback) Applies(n int) bool { return f.withDefaults().on(n) }

// on says whether feedback applies to a query of n distinct terms.
func (f Feedback) on(n int) bool {
	return !f.Off && f.Docs > 0 && f.Terms > 0 && (f.MaxQueryTerms < 0 || n <= f.MaxQueryTerms)
}

// withDefaults fills zero fields with Anserini's RM3 defaults.
func (f Feedback) withDefaults() Feedback {
	if f.Docs <= 0 {
		f.Docs = 10
	}
	if f.MaxQueryTerms == 0 {
		f.MaxQueryTerms = 3
	}
	if f.Terms <= 0 {
		f.Terms = 10
	}
	if f.OriginalWeight <= 0 || f.OriginalWeight > 1 {
		f.OriginalWeight = 0.5
	}
	return f
}

// MaxFeedbackDF is the largest share of chunks a feedback term may appear
// in (Anserini's RM3).
const MaxFeedbackDF = 0.1

// CommonTerm reports whether a term found in df of an index's chunks
// (deleted ones included: a bound, not a statistic) is too common to
// expand a query with.
func CommonTerm(df, chunks int) bool { return float64(df) > MaxFeedbackDF*float64(chunks) }

// expand returns terms interpolated with the relevance model of the
// feedback documents: both sides normalised to sum 1, then mixed as
// OriginalWeight·query + (1−OriginalWeight)·model. ok is false when
// no term was rare enough to add: the query stands as it is.
func (r *Ranker) expand(ctx context.Context, ix Index, terms []queryTerm, fbDocs []Result) (expanded []queryTerm, ok bool, err error) {
	fb := r.cfg.Feedback
	if f, ok := ix.(Fetcher); ok {
		refs := make([]ChunkRef, len(fbDocs))
		for i, d := range fbDocs {
			refs[i] = ChunkRef{d.Doc, d.Chunk}
		}
		if err := f.FetchText(ctx, refs); err != nil {
			return nil, false, err
		}
	}
	model := map[string]float64{}
	for _, d := range fbDocs {
		tf, length, err := r.chunkTerms(ctx, ix, d.Doc, d.Chunk)
		if err != nil {
			return nil, false, err
		}
		if length == 0 {
			continue
		}
		// P(w|D)·score(D): Anserini weighs each document by its first-pass
		// score, standing in for the query likelihood P(Q|D).
		for _, t := range tf {
			model[t.Key] += float64(t.Freq) / float64(length) * d.Score
		}
	}
	cands := make([]queryTerm, 0, len(model))
	for t, w := range model {
		cands = append(cands, queryTerm{t, w})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].weight != cands[j].weight {
			return cands[i].weight > cands[j].weight
		}
		return cands[i].term < cands[j].term
	})
	kept := make([]queryTerm, 0, fb.Terms)
	sum := 0.0
	for _, c := range cands {
		if len(kept) == fb.Terms {
			break
		}
		if len(c.term) < 2 {
			continue
		}
		common, err := ix.Common(c.term)
		if err != nil {
			return nil, false, err
		}
		if common {
			continue
		}
		kept = append(kept, c)
		sum += c.weight
	}
	if len(kept) == 0 {
		return terms, false, nil // nothing rare enough to add: the query stands
	}
	qsum := 0.0
	for _, t := range terms {
		qsum += t.weight
	}
	out := make([]queryTerm, 0, len(terms)+len(kept))
	at := map[string]int{}
	for _, t := range terms {
		at[t.term] = len(out)
		out = append(out, queryTerm{t.term, fb.OriginalWeight * t.weight / qsum})
	}
	for _, c := range kept {
		w := (1 - fb.OriginalWeight) * c.weight / sum
		if i, ok := at[c.term]; ok {
			out[i].weight += w
			continue
		}
		out = append(out, queryTerm{c.term, w})
	}
	return out, true, nil
}

// chunkTerms analyses chunk n of document d as it was indexed (title,
// heading path, text) and returns its distinct terms with their
// frequencies, and its length in terms.
func (r *Ranker) chunkTerms(ctx context.Context, ix Index, d Doc, n int) ([]flatseg.Term, int, error) {
	text, err := ix.ChunkText(ctx, d, n)
	if err != nil {
		return nil, 0, err
	}
	length, terms := analyze.Frequencies(r.cfg.Analyzer, []byte(text))
	return terms, length, nil
}
