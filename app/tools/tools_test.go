package tools_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"tinyrag/app/knowledge/ragtool"
	"tinyrag/app/nanogo"
	"tinyrag/app/tool"
	"tinyrag/app/tools"
	"tinyrag/app/web"
)

// fakeKB is a knowledge base that finds one passage for every query.
type fakeKB struct{}

func (fakeKB) Retrieve(context.Context, string, int) ([]tool.Passage, error) {
	return []tool.Passage{{DocID: "d", ChunkID: "d#1", Title: "Alpha", Source: "a.md", Text: "alpha"}}, nil
}

// noRunner is a nanoGo runner that fails every run: the registry only
// needs one to register the tool.
type noRunner struct{}

func (noRunner) Run(context.Context, string) (nanogo.Output, error) {
	return nanogo.Output{}, context.Canceled
}

func webTools() []tool.Tool {
	return []tool.Tool{
		web.URLFetch(nil), web.WebSearch(nil), web.Wikipedia(web.WikiConfig{}),
	}
}

func TestRegistry_OffersWhatTheOptionsHold(t *testing.T) {
	cases := []struct {
		name         string
		opts         tools.Options
		enabled, off []string
		unknown      []string
	}{
		{
			name:    "calculator alone",
			enabled: []string{"calculate"},
			unknown: []string{web.URLFetchName, "rag_knowledge", nanogo.Name},
		},
		{
			name:    "everything allowed",
			opts:    tools.Options{Web: webTools(), Knowledge: fakeKB{}, NanoGo: noRunner{}, AllowNanoGo: true},
			enabled: []string{"calculate", nanogo.Name, "rag_knowledge", web.URLFetchName, web.WebSearchName, web.WikipediaName},
		},
		{
			name:    "nanoGo registered but not allowed",
			opts:    tools.Options{NanoGo: noRunner{}},
			enabled: []string{"calculate"},
			off:     []string{nanogo.Name},
		},
		{
			name:    "web switched off stays known",
			opts:    tools.Options{Web: webTools(), Off: web.ToolNames},
			enabled: []string{"calculate"},
			off:     web.ToolNames,
		},
		{
			name:    "one web tool off",
			opts:    tools.Options{Web: webTools(), Off: []string{web.WebSearchName}},
			enabled: []string{"calculate", web.URLFetchName, web.WikipediaName},
			off:     []string{web.WebSearchName},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := tools.Registry(c.opts)
			var got []string
			for _, tl := range reg.Enabled() {
				got = append(got, tl.Name())
			}
			want := slices.Clone(c.enabled)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("enabled = %v, want %v", got, want)
			}
			for _, n := range c.off {
				if tl, on := reg.Lookup(n); tl == nil || on {
					t.Errorf("%s: registered %v, enabled %v; want registered and off", n, tl != nil, on)
				}
			}
			for _, n := range c.unknown {
				if tl, _ := reg.Lookup(n); tl != nil {
					t.Errorf("%s is registered, want unknown", n)
				}
			}
		})
	}
}

func TestRegistry_KnowledgeNumbersPassagesWithTheSharedNumbering(t *testing.T) {
	num := &ragtool.Numbering{}
	// A passage the prompt already showed holds number 1 …
	num.Number(tool.Passage{DocID: "p", ChunkID: "p#1", Source: "p.md"})
	reg := tools.Registry(tools.Options{Knowledge: fakeKB{}, Numbering: num})
	tl, on := reg.Lookup("rag_knowledge")
	if tl == nil || !on {
		t.Fatalf("rag_knowledge: %v, %v; want registered and on", tl, on)
	}
	res, err := tl.Run(context.Background(), "alpha")
	// … so the tool's passage is the answer's second.
	if err != nil || !strings.HasPrefix(res.Content, "[2] Alpha") {
		t.Errorf("Run = %q, %v; want the passage numbered [2]", res.Content, err)
	}
}
