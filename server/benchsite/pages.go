package main

import (
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"tinyrag/app/knowledge/beir"
)

// pageHTML is one page of the generated site as a static site generator
// writes it: a title, a short navigation and footer the site's owner
// keeps out of the search index (marked for both indexers), and the
// abstract in <main>.
func pageHTML(title, text string) string {
	t := html.EscapeString(title)
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>")
	b.WriteString(t)
	b.WriteString("</title></head>\n<body>\n")
	b.WriteString("<nav data-pagefind-ignore data-tinyrag-ignore><a href=\"/\">Home</a> · <a href=\"/docs/\">Abstracts</a></nav>\n")
	b.WriteString("<main data-pagefind-body data-tinyrag-body>\n<h1>")
	b.WriteString(t)
	b.WriteString("</h1>\n<p>")
	b.WriteString(html.EscapeString(text))
	b.WriteString("</p>\n</main>\n")
	b.WriteString("<footer data-pagefind-ignore data-tinyrag-ignore>Abstracts from the SciFact corpus.</footer>\n</body>\n</html>\n")
	return b.String()
}

// sitePage is one generated page: its file name under docs/ and its content.
type sitePage struct {
	name, title, text string
}

// sitePages returns the n pages of a site made from corpus: its
// documents first, then (beyond the corpus) pages whose text is sentences
// drawn from random corpus documents, each titled after one of them, so
// the vocabulary stays the corpus's while the postings grow. Page i's
// draws depend on seed and i only, so a site is the same on every run.
func sitePages(corpus []beir.Doc, n int, seed uint64) []sitePage {
	out := make([]sitePage, 0, n)
	for i := 0; i < n && i < len(corpus); i++ {
		d := corpus[i]
		out = append(out, sitePage{name: d.ID + ".html", title: d.Title, text: d.Text})
	}
	if len(out) == n || len(corpus) == 0 {
		return out
	}
	sents := make([][]string, len(corpus))
	for i, d := range corpus {
		sents[i] = sentences(d.Text)
	}
	for i := len(corpus); i < n; i++ {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		title := corpus[rng.IntN(len(corpus))].Title
		// As long as a random corpus document, so page lengths keep the
		// corpus's spread.
		want := len(corpus[rng.IntN(len(corpus))].Text)
		var b strings.Builder
		for b.Len() < want {
			s := sents[rng.IntN(len(sents))]
			if len(s) == 0 {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s[rng.IntN(len(s))])
		}
		out = append(out, sitePage{name: fmt.Sprintf("x%06d.html", i), title: title, text: b.String()})
	}
	return out
}

// sentences splits text after each ". ", "? " or "! ", keeping the mark.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(text); i++ {
		switch text[i] {
		case '.', '?', '!':
			if text[i+1] == ' ' {
				if s := strings.TrimSpace(text[start : i+1]); s != "" {
					out = append(out, s)
				}
				start = i + 2
			}
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// writePages writes pages into dir (created, or emptied first).
func writePages(dir string, pages []sitePage) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range pages {
		if err := os.WriteFile(filepath.Join(dir, p.name), []byte(pageHTML(p.title, p.text)), 0o644); err != nil {
			return err
		}
	}
	return nil
}
