package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tinyrag/app/tool"
)

// Retrieve implements tool.Retriever: the best k passages for a query.
func (kb *KB) Retrieve(ctx context.Context, q string, k int) ([]tool.Passage, error) {
	hits, err := kb.Search(ctx, q, SearchOptions{K: k})
	if err != nil {
		return nil, err
	}
	return Passages(hits), nil
}

// Passages turns search hits into the passages tools hand on.
func Passages(hits []Hit) []tool.Passage {
	out := make([]tool.Passage, len(hits))
	for i, h := range hits {
		out[i] = tool.Passage{DocID: h.DocID, ChunkID: h.ChunkID, Title: h.Title, Source: h.Source, Text: h.Text, Score: h.Score, Site: h.Site}
	}
	return out
}

// ToolPassages is how many passages rag_knowledge returns.
const ToolPassages = 5

// Citation names a passage as "source#chunk", the form results cite.
func Citation(p tool.Passage) string {
	n := p.ChunkID
	if _, after, ok := strings.Cut(p.ChunkID, "#"); ok {
		n = after
	}
	return p.Source + "#" + n
}

// FormatPassages renders passages as the rag_knowledge result text: each
// one headed "[i] Title — source#chunk" so the model can cite it.
func FormatPassages(ps []tool.Passage) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%d] %s — %s\n%s", i+1, p.Title, Citation(p), p.Text)
	}
	return b.String()
}

// queryAdvice is the tool's description in the system prompt. The model
// writes every query itself, so asking it for the words a matching passage
// would contain — not the user's question as asked — is query rewriting at
// no query-time cost: word-matching ranking (package rank) only finds what
// shares words with the query, and users' questions are often short or
// phrased in other words than their documents.
const queryAdvice = "search the user's knowledge base (imported documents); returns numbered passages citing source#chunk. " +
	"Write the query as the key words a matching passage would contain (names, technical terms, and other words for the user's words), not as a question"

// NewTool returns the rag_knowledge tool searching r (usually a *KB).
func NewTool(r tool.Retriever) tool.Tool {
	return tool.Func{
		ToolName: "rag_knowledge",
		Elem:     tool.Query,
		Desc:     queryAdvice,
		Fn: func(ctx context.Context, q string) (tool.Result, error) {
			ps, err := r.Retrieve(ctx, q, ToolPassages)
			if errors.Is(err, ErrEmptyQuery) {
				return tool.Result{}, errors.New("rag_knowledge: the query is empty; put search words inside <query>")
			}
			if err != nil && len(ps) == 0 {
				return tool.Result{}, fmt.Errorf("rag_knowledge: %w", err)
			}
			// A search that found passages but could not read every part of
			// the knowledge base says so with them.
			var note string
			if err != nil {
				note = "\n\n(Not searched: " + err.Error() + ")"
			}
			if len(ps) == 0 {
				return tool.Result{Content: "No passage in the knowledge base matches " + strconv.Quote(q) + ".", Source: "knowledge base"}, nil
			}
			cites := make([]string, len(ps))
			for i, p := range ps {
				cites[i] = Citation(p)
			}
			return tool.Result{Content: FormatPassages(ps) + note, Source: strings.Join(cites, ", ")}, nil
		},
	}
}
