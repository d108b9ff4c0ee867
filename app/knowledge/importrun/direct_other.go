//go:build !(js && wasm)

package importrun

import (
	"context"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importer"
)

// Runner runs the importers in-process: natively there is no wasm to keep
// them out of.
type Runner struct {
	// Script is the browser's worker bootstrap; unused natively.
	Script string
}

func (*Runner) run(_ context.Context, r request) (knowledge.Input, error) {
	var d importer.Document
	var err error
	if r.url != "" {
		d, err = importer.FromFetched(r.url, r.contentType, r.data)
	} else {
		d, err = importer.Import(r.name, r.data)
	}
	if err != nil {
		return knowledge.Input{}, err
	}
	return knowledge.Input{Title: d.Title, Source: d.Source, Type: d.Type, Language: d.Language, Text: d.Text}, nil
}
