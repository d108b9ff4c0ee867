// Package kbinput turns what a visitor hands over — files, pasted text, a
// web address, a Wikipedia title — into knowledge-base inputs.
package kbinput

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tinyrag/app/knowledge"
	"tinyrag/app/web"
)

// Importer reads a file's bytes, or a body fetched from the web, into a
// knowledge-base input: app/knowledge/importrun.Runner, in-process natively
// and in a Web Worker holding importer.wasm in the browser.
type Importer interface {
	File(ctx context.Context, name string, data []byte) (knowledge.Input, error)
	Fetched(ctx context.Context, url, contentType string, body []byte) (knowledge.Input, error)
}

// File is one file the user handed over, read into memory.
type File struct {
	Name string // path inside a dropped or picked folder, else the name
	Data []byte
	Err  string // why the browser could not read it ("": it could)
}

// Files turns files into knowledge-base inputs with imp. Files the
// importer refuses (binary, too large, unreadable) are listed with the
// reason instead of failing the whole import.
func Files(imp Importer, files []File) ([]knowledge.Input, []string) {
	var ins []knowledge.Input
	var skipped []string
	for _, f := range files {
		if f.Err != "" {
			skipped = append(skipped, f.Name+": "+f.Err)
			continue
		}
		in, err := imp.File(context.Background(), f.Name, f.Data)
		if err != nil {
			skipped = append(skipped, f.Name+": "+err.Error())
			continue
		}
		if strings.TrimSpace(in.Text) == "" {
			skipped = append(skipped, f.Name+": no text in it")
			continue
		}
		ins = append(ins, in)
	}
	return ins, skipped
}

// ErrEmptyText is returned when pasted text is blank.
var ErrEmptyText = errors.New("there is no text to add")

// Pasted makes an input of pasted text. Its source is unique so two
// pastes with the same title do not replace each other.
func Pasted(title, text string, now time.Time) (knowledge.Input, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return knowledge.Input{}, ErrEmptyText
	}
	title = strings.TrimSpace(title)
	if title == "" {
		first, _, _ := strings.Cut(text, "\n")
		title = Clip(strings.TrimLeft(first, "# "), 60)
	}
	return knowledge.Input{Title: title, Source: "pasted:" + now.UTC().Format("20060102T150405.000"), Type: "text", Text: text}, nil
}

// URL imports a web address through the server proxy. The proxy
// hands over the file as it came and imp reads it here, as it reads a
// picked file: a PDF, CSV or Markdown link is imported as such, an HTML
// page as its readable text.
func URL(ctx context.Context, imp Importer, f web.RawFetcher, raw string) (knowledge.Input, error) {
	raw = strings.TrimSpace(raw)
	if !strings.HasPrefix(raw, "http://") && !strings.HasPrefix(raw, "https://") {
		return knowledge.Input{}, fmt.Errorf("%q is not a web address: it must start with http:// or https://", raw)
	}
	res, err := f.FetchRaw(ctx, raw)
	if err != nil {
		return knowledge.Input{}, err
	}
	in, err := imp.Fetched(ctx, res.URL, res.ContentType, res.Body)
	if err != nil {
		return knowledge.Input{}, fmt.Errorf("importing %s: %w", raw, err)
	}
	if strings.TrimSpace(in.Text) == "" {
		return knowledge.Input{}, fmt.Errorf("%s has no readable text", raw)
	}
	// The address typed is the source, so importing it again replaces it;
	// "url" marks it as one the list can fetch again.
	in.Source, in.Type = raw, "url"
	return in, nil
}

// Wikipedia fetches a Wikipedia article by title.
func Wikipedia(ctx context.Context, cfg web.WikiConfig, title string) (knowledge.Input, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return knowledge.Input{}, errors.New("enter the title of a Wikipedia article")
	}
	got, page, text, err := web.WikipediaArticle(ctx, cfg, title)
	if err != nil {
		return knowledge.Input{}, fmt.Errorf("Wikipedia %q: %w", title, err)
	}
	return knowledge.Input{Title: got, Source: page, Type: "wikipedia", Text: text}, nil
}

// Clip cuts s to about n bytes at a word boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexAny(cut, " \n"); i > n/2 {
		cut = cut[:i]
	}
	return cut + " …"
}
