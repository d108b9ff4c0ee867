// Package icons is the one set of icons the interface draws its own
// controls with, in both views (the full app and the embedded one) and on
// the tool cards: inline SVG in currentColor, so an icon takes the colour
// of its button and needs no font. Emoji and symbol characters render as
// empty boxes where the system has no font for them (Chromium on a plain
// Debian has no emoji font); a path always renders.
//
// Every icon is aria-hidden: the control it sits on carries the text
// label (aria-label or a visible word).
package icons

import "strings"

// paths are the icons' drawings on a 24×24 grid, stroked with
// currentColor. They are drawn for this set: simple outlines that read at
// 14–18 px.
var paths = map[string]string{
	"search":      `<circle cx="11" cy="11" r="7"/><path d="M16.5 16.5 21 21"/>`,
	"file-search": `<path d="M13 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h5M13 3l6 6v2M13 3v6h6"/><circle cx="16" cy="16" r="3"/><path d="m18.2 18.2 2.8 2.8"/>`,
	"globe":       `<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c2.4 2.6 3.6 5.6 3.6 9s-1.2 6.4-3.6 9c-2.4-2.6-3.6-5.6-3.6-9S9.6 5.6 12 3z"/>`,
	"book":        `<path d="M4 4.5A1.5 1.5 0 0 1 5.5 3H20v14H5.5A1.5 1.5 0 0 0 4 18.5zM4 18.5A1.5 1.5 0 0 0 5.5 20H20"/>`,
	"calculator":  `<rect x="5" y="3" width="14" height="18" rx="2"/><path d="M8 7h8M8.5 11.5h1M11.5 11.5h1M14.5 11.5h1M8.5 15h1M11.5 15h1M14.5 15h1M8.5 18h1M11.5 18h1M14.5 18h1"/>`,
	"code":        `<path d="m9 7-5 5 5 5M15 7l5 5-5 5"/>`,
	"wrench":      `<path d="M14.7 6.3a4 4 0 0 0-5.3 5L4 16.7V20h3.3l5.4-5.4a4 4 0 0 0 5-5.3l-2.5 2.5-2.8-.7-.7-2.8z"/>`,
	"copy":        `<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M15 9V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h3"/>`,
	"trash":       `<path d="M4 7h16M10 11v6M14 11v6M6 7l1 12.5A1.5 1.5 0 0 0 8.5 21h7a1.5 1.5 0 0 0 1.5-1.5L18 7M9 7V4h6v3"/>`,
	"edit":        `<path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4"/>`,
	"check":       `<path d="m5 12.5 4.5 4.5L19 7.5"/>`,
	"close":       `<path d="M6 6l12 12M18 6 6 18"/>`,
	"plus":        `<path d="M12 5v14M5 12h14"/>`,
	"send":        `<path d="M5 12h14M13 6l6 6-6 6"/>`,
	"stop":        `<rect x="7" y="7" width="10" height="10" rx="1.5" fill="currentColor"/>`,
	"menu":        `<path d="M4 6h16M4 12h16M4 18h16"/>`,
	"settings":    `<path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1"/><circle cx="15" cy="6" r="2"/><circle cx="9" cy="12" r="2"/><circle cx="17" cy="18" r="2"/>`,
	"user":        `<circle cx="12" cy="8" r="4"/><path d="M4 21c0-4.2 3.6-7 8-7s8 2.8 8 7"/>`,
	"spark":       `<path d="M12 3l2.1 6.9L21 12l-6.9 2.1L12 21l-2.1-6.9L3 12l6.9-2.1z"/>`,
	"thumbs-up":   `<path d="M7 10v11H4V10zM7 10l4-7a2 2 0 0 1 2.8 1.9L13 9h5.5a2 2 0 0 1 2 2.3l-1.3 8a2 2 0 0 1-2 1.7H7"/>`,
	"thumbs-down": `<path d="M7 14V3H4v11zM7 14l4 7a2 2 0 0 0 2.8-1.9L13 15h5.5a2 2 0 0 0 2-2.3l-1.3-8a2 2 0 0 0-2-1.7H7"/>`,
	"refresh":     `<path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7"/>`,
	"external":    `<path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>`,
	"upload":      `<path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"/>`,
	"clipboard":   `<rect x="5" y="4" width="14" height="17" rx="2"/><path d="M9 4V3h6v1M9 10h6M9 14h6M9 18h3"/>`,
	"chat":        `<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/>`,
	"file":        `<path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9zM14 3v6h6"/>`,
}

// toolIcons are the tool cards' icons, by the protocol's tool names.
var toolIcons = map[string]string{
	"rag_knowledge": "file-search",
	"url_fetch":     "globe",
	"websearch":     "search",
	"wikipedia":     "book",
	"calculate":     "calculator",
	"nanogo":        "code",
}

// cache holds each icon's markup, built once: the UI asks for the same
// few icons on every render.
var cache = func() map[string]string {
	m := make(map[string]string, len(paths))
	for name, p := range paths {
		m[name] = `<svg class="icon icon-` + name + `" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false" ` +
			`fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">` + p + `</svg>`
	}
	return m
}()

// SVG returns the markup of the icon called name: one <svg> element,
// aria-hidden, drawn in currentColor, 16 px unless the style sheet sizes
// it (class "icon icon-NAME"). An unknown name is the wrench.
func SVG(name string) string {
	if s, ok := cache[name]; ok {
		return s
	}
	return cache["wrench"]
}

// Has reports whether the set has an icon called name.
func Has(name string) bool {
	_, ok := paths[name]
	return ok
}

// Tool returns the icon of a tool card for the tool called name; a tool
// the set has no icon for gets the wrench.
func Tool(name string) string {
	return SVG(toolIcons[strings.ToLower(name)])
}
