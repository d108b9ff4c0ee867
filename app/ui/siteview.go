package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderSiteKnowledge lists the site's bundles in the knowledge panel:
// read-only, apart from what the visitor imported, and saying so.
func (s *Shell) renderSiteKnowledge() app.UI {
	l := s.lang()
	var bundles []app.UI
	if s.rt != nil {
		for _, b := range s.rt.Site.Bundles() {
			docs := b.KB.Documents()
			var rows []app.UI
			for i, d := range docs {
				if i == docPage {
					break
				}
				var title app.UI = app.Span().Class("doc-title").Title(d.Source).Text(d.Title)
				if href := SiteLink(s.pageURL(), d.Source); href != "" {
					title = app.A().Class("doc-title").Href(href).Target("_blank").Rel("noopener").Title(d.Source).Text(d.Title)
				}
				rows = append(rows, app.Li().Class("doc site-doc").Body(app.Div().Class("doc-main").Body(
					title,
					app.Span().Class("doc-meta").Text(d.Source+" · "+sprintf("%d %s", d.Chunks, T(l, "chunks"))),
				)))
			}
			name := b.Info.Title
			if name == "" {
				name = b.Source.URL
			}
			bundles = append(bundles, app.Div().Class("site-bundle").Attr("data-bundle", b.Source.URL).Body(
				app.Div().Class("site-bundle-head").Body(
					app.Span().Class("badge").Text(T(l, "read_only")),
					app.Strong().Text(name),
					app.Span().Class("doc-meta").Text(sprintf(T(l, "site_docs"), len(docs))),
				),
				app.Ul().Class("doc-list").Body(rows...),
			))
		}
	}
	if len(bundles) == 0 && len(s.kn.siteErrs) == 0 {
		return app.Text("")
	}
	var errs []app.UI
	for _, e := range s.kn.siteErrs {
		errs = append(errs, app.P().Class("form-error").Text(e))
	}
	return app.Section().Class("site-knowledge").ID("site-knowledge").Aria("label", T(l, "site_knowledge")).Body(
		app.Div().Class("side-section-title").Text(T(l, "site_knowledge")),
		app.P().Class("empty-hint").Text(T(l, "site_hint")),
		app.Div().Body(errs...),
		app.Div().Body(bundles...),
	)
}

// pageURL is the app's own URL (its base path), which relative site
// sources are resolved against.
func (s *Shell) pageURL() string {
	if app.IsServer {
		return ""
	}
	u := app.Window().URL()
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}
