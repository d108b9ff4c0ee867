package main

import (
	"context"
	"errors"
	"os"

	"tinyrag/app/calc"
	"tinyrag/app/tool"
)

// askRegistry builds the tools `tinyrag ask` offers the model, and the
// knowledge base the engine retrieves context from (nil without --kb).
// It is one plain list on purpose: a tool that is not registered here is
// simply unknown to the model (its calls are skipped as unknown_tool).
func askRegistry(ctx context.Context, o askOptions) (*tool.Registry, tool.Retriever, error) {
	reg := tool.NewRegistry(
		calc.Tool(),
	)
	webTools, err := askWebTools(os.Getenv, o.noWeb)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range webTools {
		reg.Register(t)
	}

	var kb tool.Retriever
	if len(o.kb) > 0 {
		// The knowledge package (app/knowledge) is not in the tree yet.
		return nil, nil, errors.New("--kb: knowledge base not available yet")
	}

	// Switches for tools registered above (or by their packages later);
	// SetEnabled remembers a name even before its tool is registered.
	reg.SetEnabled("nanogo", o.allowNanogo)
	if o.noWeb {
		for _, name := range []string{"url_fetch", "websearch", "wikipedia"} {
			reg.SetEnabled(name, false)
		}
	}
	return reg, kb, nil
}
