package kbview

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui/i18n"
)

// renderSiteKnowledge shows the site's bundles in the knowledge panel:
// read-only, apart from what the visitor imported, and saying so; whether
// they are still loading, and what went wrong. A bundle's pages are read
// as queries need them, so they are counted here, not listed.
func (k *KnowledgePanel) renderSiteKnowledge() app.UI {
	l := k.Lang
	var bundles []app.UI
	for _, b := range k.kn.Site {
		bundles = append(bundles, app.Div().Class("site-bundle").Attr("data-bundle", b.URL).Body(
			app.Div().Class("site-bundle-head").Body(
				app.Span().Class("badge").Text(i18n.T(l, "read_only")),
				app.Strong().Text(b.Title),
				app.Span().Class("doc-meta").Text(fmt.Sprintf(i18n.T(l, "site_docs"), b.Docs)),
			),
		))
	}
	if len(bundles) == 0 && len(k.kn.SiteErrs) == 0 && !k.kn.SiteLoading {
		return app.Text("")
	}
	var status []app.UI
	if k.kn.SiteLoading {
		status = append(status, app.P().Class("site-status").Attr("data-site", "loading").Text(i18n.T(l, "site_loading")))
	} else if len(bundles) > 0 {
		status = append(status, app.P().Class("site-status").Attr("data-site", "ready").Text(i18n.T(l, "site_ready")),
			&SiteOffline{Lang: l})
	}
	for _, e := range k.kn.SiteErrs {
		status = append(status, app.P().Class("form-error").Attr("data-site", "failed").Text(e))
	}
	return app.Section().Class("site-knowledge").ID("site-knowledge").Aria("label", i18n.T(l, "site_knowledge")).Body(
		app.Div().Class("side-section-title").Text(i18n.T(l, "site_knowledge")),
		app.P().Class("empty-hint").Text(i18n.T(l, "site_hint")),
		app.Div().Body(bundles...),
		app.Div().Aria("live", "polite").Body(status...),
	)
}

// chunkCount says how many chunks a source was cut into, in words.
func chunkCount(lang string, n int) string {
	if n == 1 {
		return i18n.T(lang, "one_chunk")
	}
	return fmt.Sprintf("%d %s", n, i18n.T(lang, "chunks"))
}
