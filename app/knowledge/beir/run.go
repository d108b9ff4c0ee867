package beir

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"tinyrag/app/knowledge"
)

// Report is what one evaluation measured.
type Report struct {
	Docs, Queries int
	IndexTime     time.Duration
	DocsPerSecond float64
	NDCG10        float64
	Recall100     float64
	QueryP50      time.Duration
	QueryP95      time.Duration
	// Rankings are each evaluated query's results, in query order.
	Rankings []Ranking
}

// Ranking is one query's ranked corpus ids with their scores, best first.
type Ranking struct {
	QueryID string
	IDs     []string
	Scores  []float64
}

// Index adds the corpus to kb as one import (title, text, corpus id as
// source) and returns how long it took.
func Index(ctx context.Context, kb *knowledge.KB, corpus []Doc) (time.Duration, error) {
	ins := Inputs(corpus)
	start := time.Now()
	if _, err := kb.AddBatch(ctx, ins, nil); err != nil {
		return 0, fmt.Errorf("beir: index corpus: %w", err)
	}
	return time.Since(start), nil
}

// Inputs are the corpus's documents as a knowledge base takes them: title,
// text, and the corpus id as source.
func Inputs(corpus []Doc) []knowledge.Input {
	ins := make([]knowledge.Input, len(corpus))
	for i, d := range corpus {
		ins[i] = knowledge.Input{Title: d.Title, Source: d.ID, Type: "text", Text: d.Text}
	}
	return ins
}

// Evaluate runs every query that has judgments against kb, taking the top
// 100 documents, and averages nDCG@10 and Recall@100 over them.
func Evaluate(ctx context.Context, kb *knowledge.KB, s Set) (Report, error) {
	var r Report
	var lat []time.Duration
	for _, q := range s.Queries {
		rel, ok := s.Qrels[q.ID]
		if !ok {
			continue
		}
		start := time.Now()
		hits, err := kb.Search(ctx, q.Text, knowledge.SearchOptions{K: 100})
		lat = append(lat, time.Since(start))
		if err != nil {
			return r, fmt.Errorf("beir: query %s: %w", q.ID, err)
		}
		ranking := make([]string, len(hits))
		scores := make([]float64, len(hits))
		for i, h := range hits {
			ranking[i], scores[i] = h.Source, h.Score
		}
		r.Rankings = append(r.Rankings, Ranking{QueryID: q.ID, IDs: ranking, Scores: scores})
		r.NDCG10 += NDCG(ranking, rel, 10)
		r.Recall100 += Recall(ranking, rel, 100)
		r.Queries++
	}
	if r.Queries == 0 {
		return r, fmt.Errorf("beir: no query has relevance judgments")
	}
	r.NDCG10 /= float64(r.Queries)
	r.Recall100 /= float64(r.Queries)
	r.QueryP50 = Percentile(lat, 50)
	r.QueryP95 = Percentile(lat, 95)
	return r, nil
}

// Run indexes the corpus into a fresh knowledge base built from cfg and
// evaluates it. The knowledge base is returned for further measurements.
func Run(ctx context.Context, cfg knowledge.Config, s Set) (Report, *knowledge.KB, error) {
	kb, err := knowledge.New(cfg)
	if err != nil {
		return Report{}, nil, err
	}
	took, err := Index(ctx, kb, s.Corpus)
	if err != nil {
		kb.Close()
		return Report{}, nil, err
	}
	r, err := Evaluate(ctx, kb, s)
	r.Docs = len(s.Corpus)
	r.IndexTime = took
	if took > 0 {
		r.DocsPerSecond = float64(len(s.Corpus)) / took.Seconds()
	}
	return r, kb, err
}

// WriteRun writes rankings in the TREC run format trec_eval and
// pytrec_eval read: "query-id Q0 corpus-id rank score tag" per line, ranks
// from 1.
func WriteRun(w io.Writer, rankings []Ranking, tag string) error {
	bw := bufio.NewWriter(w)
	for _, r := range rankings {
		for i, id := range r.IDs {
			fmt.Fprintf(bw, "%s Q0 %s %d %.6f %s\n", r.QueryID, id, i+1, r.Scores[i], tag)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("beir: write run: %w", err)
	}
	return nil
}
