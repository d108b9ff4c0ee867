package ask

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importer"
	"tinyrag/app/nanogo"
	"tinyrag/app/tool"
	"tinyrag/app/tools"
	"tinyrag/app/web"
)

// askRegistry builds the tools `tinyrag ask` offers the model, and the
// knowledge base the engine retrieves context from (nil without --kb).
// The list is app/tools', the browser app's too: a tool not registered
// there is simply unknown to the model (its calls are skipped as
// unknown_tool).
func askRegistry(ctx context.Context, o askOptions) (*tool.Registry, tool.Retriever, error) {
	getenv := o.getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	webTools, err := askWebTools(getenv, o.noWeb)
	if err != nil {
		return nil, nil, err
	}

	var kb tool.Retriever
	if len(o.kb) > 0 {
		k, err := loadKB(ctx, o)
		if err != nil {
			return nil, nil, err
		}
		kb = k
	}

	// nanoGo snippets run in a child process of this very binary (the
	// hidden nanogo-child command), never in the CLI's own process. The
	// child stops the program a little before the engine's tool timeout so
	// it can still report what the program printed.
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("locating the tinyrag binary for nanogo: %w", err)
	}
	opts := tools.Options{
		Web:         webTools,
		Knowledge:   kb,
		NanoGo:      nanogo.ChildRunner{Exe: exe, Args: []string{"nanogo-child"}, Timeout: childTimeout(o.cfg.ToolTimeout)},
		AllowNanoGo: o.allowNanogo,
	}
	if o.noWeb {
		opts.Off = web.ToolNames
	}
	reg := tools.Registry(opts)
	return reg, kb, nil
}

// loadKB imports every --kb path into an in-memory knowledge base. Files
// that cannot be imported are reported and skipped; a path that cannot be
// read at all, or no documents at all, is an error.
func loadKB(ctx context.Context, o askOptions) (*knowledge.KB, error) {
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		return nil, fmt.Errorf("creating the knowledge base: %w", err)
	}
	var inputs []knowledge.Input
	for _, p := range o.kb {
		docs, fileErrs, err := importer.ImportPath(ctx, p, importer.Options{})
		for _, fe := range fileErrs {
			fmt.Fprintf(o.stderr, "--kb: skipped %v\n", fe)
		}
		if err != nil {
			return nil, fmt.Errorf("--kb %s: %w", p, err)
		}
		for _, d := range docs {
			if strings.TrimSpace(d.Text) == "" {
				continue
			}
			inputs = append(inputs, knowledge.Input{Title: d.Title, Source: d.Source, Type: d.Type, Text: d.Text})
		}
	}
	if len(inputs) == 0 {
		return nil, errors.New("--kb: no importable documents in " + strings.Join(o.kb, ", "))
	}
	if _, err := kb.AddBatch(ctx, inputs, nil); err != nil {
		return nil, fmt.Errorf("--kb: indexing: %w", err)
	}
	fmt.Fprintf(o.stderr, "--kb: %d documents indexed\n", len(inputs))
	return kb, nil
}

// childTimeout leaves the nanoGo child a second before the engine gives up
// on the tool, so a runaway program ends with its output and a clear error.
func childTimeout(tool time.Duration) time.Duration {
	if tool > 2*time.Second {
		return tool - time.Second
	}
	return tool
}
