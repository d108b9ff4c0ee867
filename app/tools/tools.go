// Package tools builds the tool registry an answer is made with, the same
// way for the browser app (app/ui) and for `tinyrag ask`: the calculator,
// the web tools, rag_knowledge and nanoGo. What differs between the two —
// the web tools' transports, the knowledge searched, the nanoGo runner and
// which tools are switched off — comes in as Options.
package tools

import (
	"tinyrag/app/calc"
	"tinyrag/app/knowledge/ragtool"
	"tinyrag/app/nanogo"
	"tinyrag/app/tool"
)

// Options is what the registry is built over.
type Options struct {
	// Web are url_fetch, websearch and wikipedia over the platform's
	// transports: the server's proxies in the browser (web.BrowserTools),
	// in-process fetchers and search backends in the CLI.
	Web []tool.Tool
	// Knowledge is what rag_knowledge searches; nil leaves the tool out.
	Knowledge tool.Retriever
	// Numbering numbers rag_knowledge's passages, shared with the prompt's
	// passages of one answer; nil gives the tool a numbering of its own.
	Numbering *ragtool.Numbering
	// NanoGo runs nanoGo snippets; nil leaves the nanogo tool out.
	NanoGo nanogo.Runner
	// AllowNanoGo switches the nanogo tool on: running code is the user's
	// choice, so it is off unless allowed.
	AllowNanoGo bool
	// Off names tools registered but switched off (web.ToolNames under
	// --no-web). A call to one is then reported as disabled, not unknown.
	Off []string
}

// Registry builds the registry o describes.
func Registry(o Options) *tool.Registry {
	reg := tool.NewRegistry(calc.Tool())
	for _, t := range o.Web {
		reg.Register(t)
	}
	if o.Knowledge != nil {
		num := o.Numbering
		if num == nil {
			num = &ragtool.Numbering{}
		}
		reg.Register(ragtool.NewNumberedTool(o.Knowledge, num))
	}
	if o.NanoGo != nil {
		reg.Register(nanogo.Tool(o.NanoGo))
	}
	// SetEnabled remembers a name even before its tool is registered, so
	// a switch holds for a tool that is absent here too.
	reg.SetEnabled(nanogo.Name, o.AllowNanoGo)
	for _, name := range o.Off {
		reg.SetEnabled(name, false)
	}
	return reg
}
