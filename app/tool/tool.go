// Package tool defines what the answer engine knows about a tool: its name,
// the one inner element it takes, and how to run it. Concrete tools live in
// their own packages (calc, knowledge, web, nanogo) and are put together in a
// Registry by whoever builds the engine (the browser app, the CLI, a test).
package tool

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Element names a tool block's single inner element.
type Element string

// The inner elements of the XML tool protocol.
const (
	Query  Element = "query"
	URL    Element = "url"
	Source Element = "source"
)

// Result is what a tool hands back to the engine. Content is plain text that
// becomes untrusted evidence for the model; Source says where it came from
// (a URL, a knowledge-base citation, "calculator", …).
type Result struct {
	Content string
	Source  string
}

// Tool is one capability the model may call.
type Tool interface {
	// Name is the protocol name, e.g. "rag_knowledge".
	Name() string
	// Element is the inner element this tool takes.
	Element() Element
	// Description is one line for the tool manifest in the system prompt.
	Description() string
	// Run executes the tool. It must return promptly once ctx is done.
	Run(ctx context.Context, input string) (Result, error)
}

// Func adapts a function to the Tool interface.
type Func struct {
	ToolName string
	Elem     Element
	Desc     string
	Fn       func(ctx context.Context, input string) (Result, error)
}

// Name implements Tool.
func (f Func) Name() string { return f.ToolName }

// Element implements Tool.
func (f Func) Element() Element { return f.Elem }

// Description implements Tool.
func (f Func) Description() string { return f.Desc }

// Run implements Tool.
func (f Func) Run(ctx context.Context, input string) (Result, error) { return f.Fn(ctx, input) }

// Registry holds the tools an engine may run. Tools can be registered but
// disabled (nanogo without allow_nanogo, web tools with --no-web): a call to
// a disabled tool is skipped with reason "disabled" rather than "unknown_tool",
// and disabled tools are left out of the manifest the model sees.
type Registry struct {
	mu       sync.RWMutex
	tools    map[string]Tool
	disabled map[string]bool
}

// NewRegistry returns a registry holding the given tools, all enabled.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: map[string]Tool{}, disabled: map[string]bool{}}
	for _, t := range tools {
		r.Register(t)
	}
	return r
}

// Register adds or replaces a tool. It is enabled unless its name was
// disabled with SetEnabled before.
func (r *Registry) Register(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools[strings.ToLower(t.Name())] = t
}

// SetEnabled turns a registered tool on or off. Unknown names are remembered,
// so disabling a tool before it is registered still works.
func (r *Registry) SetEnabled(name string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := strings.ToLower(name)
	if on {
		delete(r.disabled, key)
	} else {
		r.disabled[key] = true
	}
}

// Lookup finds a tool by name, case-insensitively. enabled is false for a
// registered tool that has been disabled; t is nil for an unknown name.
func (r *Registry) Lookup(name string) (t Tool, enabled bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	key := strings.ToLower(strings.TrimSpace(name))
	t = r.tools[key]
	return t, t != nil && !r.disabled[key]
}

// Enabled lists the enabled tools sorted by name: the manifest the model sees.
func (r *Registry) Enabled() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []Tool
	for k, t := range r.tools {
		if !r.disabled[k] {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Manifest renders the enabled tools for the system prompt, one per line,
// with the exact block the model must write to call each.
func (r *Registry) Manifest() string {
	var b strings.Builder
	for _, t := range r.Enabled() {
		fmt.Fprintf(&b, "- %s: %s\n  <tool name=\"%s\"><%s>…</%s></tool>\n",
			t.Name(), t.Description(), t.Name(), t.Element(), t.Element())
	}
	return b.String()
}

// Passage is one retrieved piece of knowledge together with what is needed
// to cite it.
type Passage struct {
	DocID   string  `json:"doc_id"`
	ChunkID string  `json:"chunk_id"`
	Title   string  `json:"title"`
	Source  string  `json:"source"`
	Text    string  `json:"text"`
	Score   float64 `json:"score"`
	// Site says the passage comes from a site's published knowledge:
	// Source is then the page's address.
	Site bool `json:"site,omitempty"`
}

// Retriever finds the passages that best match a query. The knowledge base
// implements it; the engine uses it to put context into the system prompt
// and the UI to answer from the knowledge base when no LLM is reachable. A
// search that could read only part of the knowledge (a site's bundle
// unreachable) returns the passages it found together with an error
// saying what was not searched.
type Retriever interface {
	Retrieve(ctx context.Context, query string, k int) ([]Passage, error)
}
