// Package publish is the publishing side of knowledge bundles: what
// `tinyrag bundle` reads. It is apart from package bundle so the browser,
// which only opens bundles, does not link the file importers.
package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importer"
)

// MaxFiles bounds the files of one folder a bundle reads. The importer's
// default (10,000) keeps a visitor's folder pick in the browser from
// reading a whole disk; a site's owner publishing a large site means all
// of it, and the byte bound (importer.DefaultMaxTotalBytes) still holds.
const MaxFiles = 1_000_000

// Inputs imports files and folders with the app's importers (HTML by its
// readable content and title) and names each document by its path
// relative to the folder given, slash-separated, after prefix: for a
// built site's output folder that is the page's URL relative to the site,
// so a citation can link to the page. A file given directly is named by
// its base name. Files the importers skip are reported in the second
// result; the import stops only for a missing path or a size bound.
func Inputs(ctx context.Context, paths []string, prefix string) ([]knowledge.Input, []error, error) {
	var ins []knowledge.Input
	var skipped []error
	seen := map[string]string{}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, skipped, fmt.Errorf("bundle: %w", err)
		}
		base := root
		if !info.IsDir() {
			base = filepath.Dir(root)
		}
		docs, errs, err := importer.ImportPath(ctx, root, importer.Options{MaxFiles: MaxFiles})
		skipped = append(skipped, errs...)
		if err != nil {
			return nil, skipped, fmt.Errorf("bundle: %w", err)
		}
		for _, d := range docs {
			rel, err := filepath.Rel(base, d.Source)
			if err != nil {
				return nil, skipped, fmt.Errorf("bundle: %s is outside %s: %w", d.Source, base, err)
			}
			src := prefix + filepath.ToSlash(rel)
			if other, dup := seen[src]; dup {
				return nil, skipped, fmt.Errorf("bundle: %s and %s would both be cited as %q; bundle them separately or with different prefixes", other, d.Source, src)
			}
			seen[src] = d.Source
			ins = append(ins, knowledge.Input{Title: d.Title, Source: src, Type: d.Type, Language: d.Language, Text: d.Text})
		}
	}
	return ins, skipped, nil
}
