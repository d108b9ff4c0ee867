package ui

import (
	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
)

// The states the controller publishes (go-app's state API). Every value
// is a snapshot built for that one publication: nothing in it is changed
// afterwards, so components read it on the UI goroutine while the
// controller goes on working.
const (
	stateStatus    = "tinyrag/status"    // Status
	stateSettings  = "tinyrag/settings"  // Settings
	stateModel     = "tinyrag/model"     // ModelState
	stateChats     = "tinyrag/chats"     // ChatList
	stateThread    = "tinyrag/thread"    // Thread
	stateKnowledge = "tinyrag/knowledge" // KnowledgeState
	stateSearch    = "tinyrag/kb-search" // SearchState
	stateBusy      = "tinyrag/busy"      // bool: an answer is streaming
)

// View states: set by components for components, never by the
// controller.
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

// Status is the app's loading state and its one-line notices.
type Status struct {
	Ready   bool
	LoadErr string // a store could not be opened: memory stands in
	LoadMs  int64  // how long opening the stores and the knowledge base took
	Notice  string // an error the user should see (a failed save, …)
	// Queued: a question was sent before the app was ready; it is asked
	// once the model check is done.
	Queued bool
	// SiteFetchMs and SiteOpenMs are how long downloading and opening the
	// site's bundles took at start (benchmarks read them).
	SiteFetchMs, SiteOpenMs int64
}

// Model states, as data-llm spells them.
const (
	llmUnknown = "unknown"
	llmOK      = "ok"
	llmDown    = "down"
)

// ModelState is what the app knows about reaching the model.
type ModelState struct {
	Status string // llmUnknown, llmOK or llmDown
	Err    string
	// Net is the network's part when the model is down: the browser has
	// none, or this app's server does not answer (netOnline otherwise).
	Net    netState
	Models []string
	// Host is the endpoint's host when it is not this machine (""
	// otherwise); Proxy says the endpoint is this server's proxy, which
	// forwards to a model the browser cannot see.
	Host  string
	Proxy bool

	Testing bool
	TestMsg string
	TestOK  bool
}

// ChatItem is one row of the chat list.
type ChatItem struct {
	ID, Title string
}

// ChatList is the stored chats, newest first, and the open one's id.
type ChatList struct {
	Items   []ChatItem
	Current string
}

// Thread is the open conversation.
type Thread struct {
	ChatID   string
	Title    string
	Messages []chats.Message // copies: never the controller's own
	Busy     bool            // an answer is streaming
}

// KnowledgeState is the knowledge base's sources and the import under way.
type KnowledgeState struct {
	Docs      []knowledge.Document // newest first
	Importing bool
	Phase     string
	Progress  knowledge.Progress
	Result    string // last import's or export's outcome
	Err       string
	// Site are the site's read-only knowledge bundles, SiteErrs what went
	// wrong loading them; SiteLoading says the site's config and bundles
	// are on their way.
	Site        []SiteBundle
	SiteErrs    []string
	SiteLoading bool
}

// SiteBundle is one of the site's knowledge bundles, as the knowledge
// panel lists it.
type SiteBundle struct {
	URL, Title string
	// Docs is how many documents (pages) it holds.
	Docs int
}

// SearchState is the knowledge search box's latest finished search.
type SearchState struct {
	Query string
	Hits  []knowledge.Hit
	Err   string
}
