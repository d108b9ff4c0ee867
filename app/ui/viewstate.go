package ui

// View states: set by components for components, never by the
// controller (whose states are app/control's).
const (
	stateView     = "tinyrag/view"     // View
	stateCitation = "tinyrag/citation" // CitationView
	stateDraft    = "tinyrag/draft"    // Draft
)

// Pages of the main area.
const (
	pageChat     = "chat"
	pageSettings = "settings"
)

// View is which page the main area shows and whether the sidebar is open
// on a narrow screen.
type View struct {
	Page    string // pageChat ("" too) or pageSettings
	NavOpen bool
}
