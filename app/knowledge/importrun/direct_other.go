//go:build !(js && wasm)

package importrun

import (
	"context"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importer"
)

func run(_ context.Context, r request) (knowledge.Input, error) {
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
