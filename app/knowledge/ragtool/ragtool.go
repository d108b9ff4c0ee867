// Package ragtool is the rag_knowledge tool: a knowledge search offered to
// the model, whose passages are numbered across one answer so that the
// model cites each by its number.
package ragtool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"tinyrag/app/knowledge"
	"tinyrag/app/tool"
)

// PassagesPerCall is how many passages rag_knowledge returns.
const PassagesPerCall = 5

// Numbering gives the passages one answer sees their numbers: the model
// cites a passage as [n], and the app links [n] to that passage's page.
// The passages retrieved into the prompt come first, numbered as the
// prompt lists them ([1]…[k]); each rag_knowledge call then numbers its
// passages after every number given so far, and a passage seen before
// keeps its number. So one number means one passage in the whole answer,
// and Passages, in order, are the answer's sources by number. Safe for
// concurrent use (tools of one reply may run together).
type Numbering struct {
	mu      sync.Mutex
	list    []tool.Passage
	byChunk map[string]int
}

// Number returns p's number, giving it the next one if it has none yet.
func (n *Numbering) Number(p tool.Passage) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if i, ok := n.byChunk[p.ChunkID]; ok {
		return i
	}
	if n.byChunk == nil {
		n.byChunk = map[string]int{}
	}
	n.list = append(n.list, p)
	n.byChunk[p.ChunkID] = len(n.list)
	return len(n.list)
}

// Passages lists the numbered passages in the order of their numbers:
// Passages()[i] is [i+1].
func (n *Numbering) Passages() []tool.Passage {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]tool.Passage(nil), n.list...)
}

// Retriever returns r numbering every passage it retrieves: the engine's
// retriever for the prompt, whose passages the prompt lists as [1]…[k].
func (n *Numbering) Retriever(r tool.Retriever) tool.Retriever { return numbered{r: r, n: n} }

type numbered struct {
	r tool.Retriever
	n *Numbering
}

// Retrieve implements tool.Retriever.
func (nr numbered) Retrieve(ctx context.Context, q string, k int) ([]tool.Passage, error) {
	ps, err := nr.r.Retrieve(ctx, q, k)
	for _, p := range ps {
		nr.n.Number(p)
	}
	return ps, err
}

// FormatPassages renders passages as the rag_knowledge result text, each
// headed "[n] Title — source" with n from number: the model cites the
// number, which the app turns into a link to the passage. The source is
// the document's name, never a URL with a chunk's "#n", which a model
// would copy into a link that leads nowhere.
func FormatPassages(ps []tool.Passage, number func(tool.Passage) int) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n\n")
		}
		title := p.Title
		if title == "" {
			title = p.DocID
		}
		fmt.Fprintf(&b, "[%d] %s — %s\n%s", number(p), title, p.Source, p.Text)
	}
	return b.String()
}

// queryAdvice is the tool's description in the system prompt. The model
// writes every query itself, so asking it for the words a matching passage
// would contain — not the user's question as asked — is query rewriting at
// no query-time cost: word-matching ranking (package rank) only finds what
// shares words with the query, and users' questions are often short or
// phrased in other words than their documents.
const queryAdvice = "search the user's knowledge base (imported documents); returns numbered passages: cite one by its number, like [3] (the app links it to the passage). " +
	"Write the query as the key words a matching passage would contain (names, technical terms, and other words for the user's words), not as a question"

// NewTool returns the rag_knowledge tool searching r (usually a *knowledge.KB),
// numbering its passages across its calls.
func NewTool(r tool.Retriever) tool.Tool { return NewNumberedTool(r, &Numbering{}) }

// NewNumberedTool returns the rag_knowledge tool searching r, numbering
// its passages with n, which the answer's prompt passages share.
func NewNumberedTool(r tool.Retriever, n *Numbering) tool.Tool {
	return tool.Func{
		ToolName: "rag_knowledge",
		Elem:     tool.Query,
		Desc:     queryAdvice,
		Fn: func(ctx context.Context, q string) (tool.Result, error) {
			ps, err := r.Retrieve(ctx, q, PassagesPerCall)
			if errors.Is(err, knowledge.ErrEmptyQuery) {
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
			var sources []string
			for _, p := range ps {
				if !slices.Contains(sources, p.Source) {
					sources = append(sources, p.Source)
				}
			}
			return tool.Result{Content: FormatPassages(ps, n.Number) + note, Source: strings.Join(sources, ", ")}, nil
		},
	}
}
