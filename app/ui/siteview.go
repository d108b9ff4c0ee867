package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderSiteKnowledge lists the site's bundles in the knowledge panel:
// read-only, apart from what the visitor imported, and saying so.
func (k *KnowledgePanel) renderSiteKnowledge() app.UI {
	l := k.Lang
	var bundles []app.UI
	for _, b := range k.kn.Site {
		var rows []app.UI
		for i, d := range b.Docs {
			if i == docPage {
				break
			}
			var title app.UI = app.Span().Class("doc-title").Title(d.Source).Text(d.Title)
			if href := k.Ctrl.SiteLink(d.Source); href != "" {
				title = app.A().Class("doc-title").Href(href).Target("_blank").Rel("noopener").Title(d.Source).Text(d.Title)
			}
			rows = append(rows, app.Li().Class("doc site-doc").Body(app.Div().Class("doc-main").Body(
				title,
				app.Span().Class("doc-meta").Text(d.Source+" · "+chunkCount(l, d.Chunks)),
			)))
		}
		bundles = append(bundles, app.Div().Class("site-bundle").Attr("data-bundle", b.URL).Body(
			app.Div().Class("site-bundle-head").Body(
				app.Span().Class("badge").Text(T(l, "read_only")),
				app.Strong().Text(b.Title),
				app.Span().Class("doc-meta").Text(sprintf(T(l, "site_docs"), len(b.Docs))),
			),
			app.Ul().Class("doc-list").Body(rows...),
		))
	}
	if len(bundles) == 0 && len(k.kn.SiteErrs) == 0 {
		return app.Text("")
	}
	var errs []app.UI
	for _, e := range k.kn.SiteErrs {
		errs = append(errs, app.P().Class("form-error").Text(e))
	}
	return app.Section().Class("site-knowledge").ID("site-knowledge").Aria("label", T(l, "site_knowledge")).Body(
		app.Div().Class("side-section-title").Text(T(l, "site_knowledge")),
		app.P().Class("empty-hint").Text(T(l, "site_hint")),
		app.Div().Body(errs...),
		app.Div().Body(bundles...),
	)
}

// chunkCount says how many chunks a source was cut into, in words.
func chunkCount(lang string, n int) string {
	if n == 1 {
		return T(lang, "one_chunk")
	}
	return sprintf("%d %s", n, T(lang, "chunks"))
}
