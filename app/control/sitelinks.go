package control

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine/route"
	"tinyrag/app/knowledge"
	"tinyrag/app/textfrag"
)

// What a documentation site's visitors expect around the answers: search
// as they type, links that open a page at the cited passage, pages to read
// next, the site's own starter questions, and a way to rate an answer.

// Site is the controller's part that answers questions about the site's
// knowledge and where its documents and citations link, for the views and
// for the answers: it reads the runtime and keeps no state of its own. Its
// methods may be called on a nil Site (the server's prerender has no
// controller).
type Site struct {
	c *core
}

// runtime is the controller's runtime; nil on a nil Site and while the
// stores are opening.
func (s *Site) runtime() *Runtime {
	if s == nil {
		return nil
	}
	return s.c.runtime()
}

// relatedPages is how many related pages an answer lists at most.
const relatedPages = 3

// relatedTimeout bounds the search for related pages after an answer.
const relatedTimeout = 10 * time.Second

// SearchSite searches the knowledge (the site's and the visitor's) for a
// query still being typed: the best k documents, with their passages'
// matched words marked (knowledge.SearchOptions.AsYouType). progress, if
// not nil, hears the hits while some site pages' texts are still on their
// way (knowledge.SearchOptions.Progress). Before the app has started
// there is nothing to search yet: no hits.
func (s *Site) SearchSite(ctx context.Context, q string, k int, progress func([]knowledge.Hit)) ([]knowledge.Hit, error) {
	rt := s.runtime()
	if rt == nil || strings.TrimSpace(q) == "" {
		return nil, nil
	}
	hits, err := rt.Retriever().Search(ctx, q, knowledge.SearchOptions{K: k, Highlight: true, AsYouType: true, Progress: progress})
	if errors.Is(err, knowledge.ErrEmptyQuery) {
		return nil, nil // only stop words: nothing to search for yet
	}
	return hits, err
}

// PageLink is where a document of the knowledge base can be read: a page
// of the site (resolved against the site's base), or the web page a
// visitor's document was imported from; "" when it is no web page.
func (s *Site) PageLink(docID, source string) string {
	rt := s.runtime()
	if rt != nil && rt.IsSiteCitation(docID) {
		return s.SiteLink(source)
	}
	if u, err := url.Parse(source); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return source
	}
	return ""
}

// PassageLink is where a citation links: its page opened at the passage
// (a text fragment made of the passage's words, app/textfrag); "" when
// the document is no web page.
func (s *Site) PassageLink(cite chats.Citation) string {
	doc, _, _ := strings.Cut(cite.ChunkID, "#")
	return textfrag.Link(s.PageLink(doc, cite.Source), cite.Text)
}

// CiteLinks are the links of an answer's citations by number: the n-th
// is where "[n]" in the answer leads.
func (s *Site) CiteLinks(cites []chats.Citation) []string {
	if len(cites) == 0 {
		return nil
	}
	out := make([]string, len(cites))
	for i, ct := range cites {
		out[i] = s.PassageLink(ct)
	}
	return out
}

// related finds what to read after an answer to q without another model
// call: the documents that match q best and that the answer did not cite,
// if they are web pages (the answer's sources are listed with it already:
// every passage it was given). noMatch says
// nothing in the knowledge matched q at all (and the answer was given no
// passage): a question the site's pages do not answer.
func (s *Site) related(rt *Runtime, q string, cites []chats.Citation) (rel []chats.Related, noMatch bool) {
	if !rt.HasKnowledge() {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), relatedTimeout)
	defer cancel()
	hits, err := rt.Retriever().Search(ctx, q, knowledge.SearchOptions{K: relatedPages + len(cites) + 2})
	if err != nil {
		return nil, errors.Is(err, knowledge.ErrEmptyQuery) && len(cites) == 0
	}
	seen := map[string]bool{}
	for _, ct := range cites {
		doc, _, _ := strings.Cut(ct.ChunkID, "#")
		seen[doc] = true
	}
	for _, h := range hits {
		if seen[h.DocID] || len(rel) == relatedPages {
			continue
		}
		seen[h.DocID] = true
		if link := s.PageLink(h.DocID, h.Source); link != "" {
			rel = append(rel, chats.Related{Title: h.Title, Source: h.Source, URL: link})
		}
	}
	return rel, len(hits) == 0 && len(cites) == 0
}

// knowledgeQuestion reports whether an answer was a question for the
// knowledge base: not one the router answered directly (a greeting), nor
// one another tool answered (a calculation, a web page). Only such a
// question that matched nothing is a hole in the site's pages.
func knowledgeQuestion(m *chats.Message) bool {
	if m.Route != nil && m.Route.Mode == string(route.Direct) {
		return false
	}
	for _, c := range m.Cards {
		if c.Tool != "rag_knowledge" && c.Status == chats.StatusDone {
			return false
		}
	}
	return true
}

// Starters are the site's starter questions (tinyrag.json "starters"),
// shown on the welcome screen instead of the app's own suggestions; none
// before the app has read the site's config.
func (s *Site) Starters() []string {
	rt := s.runtime()
	if rt == nil || rt.SiteConfig() == nil {
		return nil
	}
	return slices.Clone(rt.SiteConfig().Starters)
}

// HostSubmit reports whether the site lets a question from outside the
// app — an embedding page, a link's ?q= — be sent at once. Off (the
// default), it waits in the composer for the visitor to send.
func (s *Site) HostSubmit() bool {
	rt := s.runtime()
	return rt != nil && rt.SiteConfig() != nil && rt.SiteConfig().EmbedPolicy().HostSubmit
}

// HostSubmitOnceKnown is HostSubmit once the site's config was read: the
// app is ready before it arrives, and a question that came with the
// page's address must not go by the default for want of it. It waits up
// to siteConfigWait; a site slower than that gets the default (off).
func (s *Site) HostSubmitOnceKnown() bool {
	rt := s.runtime()
	if rt == nil || !rt.SiteConfigRead(siteConfigWait) {
		return false
	}
	return s.HostSubmit()
}

// siteConfigWait is how long a question from the page's address waits
// for the site's config to say whether it may be sent at once.
const siteConfigWait = 10 * time.Second

// WebImports reports whether URL imports can work here: a static site
// without a tinyRAG server has no fetch proxy.
func (s *Site) WebImports() bool {
	rt := s.runtime()
	return rt == nil || rt.Proxy() != ""
}
