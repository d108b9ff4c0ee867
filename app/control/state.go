package control

import (
	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
)

// The states the controller's parts publish, each named for the one part
// that owns it (go-app's state API in the browser). Every value is a
// snapshot built for that one publication: nothing in it is changed
// afterwards, so components read it on the UI goroutine while the parts go
// on working. Values are data — codes, numbers, names — which the views
// translate when they render.
const (
	StateStatus    = "tinyrag/status"    // Status (Controller)
	StateSettings  = "tinyrag/settings"  // Settings (Model)
	StateModel     = "tinyrag/model"     // ModelState (Model)
	StateConnTest  = "tinyrag/conn-test" // ConnTest (Model)
	StateChats     = "tinyrag/chats"     // ChatList (Chat)
	StateThread    = "tinyrag/thread"    // Thread (Chat)
	StateBusy      = "tinyrag/busy"      // bool: an answer is streaming (Chat)
	StateKnowledge = "tinyrag/knowledge" // KnowledgeState (Knowledge)
	StateSearch    = "tinyrag/kb-search" // SearchState (Knowledge)
)

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
	LLMUnknown = "unknown"
	LLMOK      = "ok"
	LLMDown    = "down"
)

// ModelState is what the app knows about reaching the model.
type ModelState struct {
	Status string // LLMUnknown, LLMOK or LLMDown
	// Err says why the model is down; ErrKey, when set, is a text key the
	// view shows instead.
	Err    string
	ErrKey string
	// Net is the network's part when the model is down: the browser has
	// none, or this app's server does not answer (NetOnline otherwise).
	Net    NetState
	Models []string
	// Host is the endpoint's host when it is not this machine (""
	// otherwise); Proxy says the endpoint is this server's proxy, which
	// forwards to a model the browser cannot see.
	Host  string
	Proxy bool
}

// ConnTest is the settings page's connection test: the model check under
// way or its outcome. It is a state of its own so that a test re-renders
// only the settings page.
type ConnTest struct {
	Testing bool
	// Done says a check has finished; OK says it reached the model, which
	// offers Models models. Otherwise Err (or the text key ErrKey) says why
	// not.
	Done   bool
	OK     bool
	Models int
	Err    string
	ErrKey string
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
	Progress  knowledge.Progress
	// Outcome is the last import's or export's, nil when there is none to
	// show.
	Outcome *Outcome
	// Err is what went wrong (Offline: the import needed the network,
	// which the browser does not have); Skipped lists the files left out,
	// each with why.
	Err     string
	Offline bool
	Skipped []string
	// Site are the site's read-only knowledge bundles, SiteErrs what went
	// wrong loading them; SiteLoading says the site's config and bundles
	// are on their way.
	Site        []SiteBundle
	SiteErrs    []string
	SiteLoading bool
}

// What an Outcome reports.
const (
	OutcomeImported = "imported"
	OutcomeExported = "exported"
)

// Outcome is what an import or export did: Action (OutcomeImported or
// OutcomeExported) on Count documents; Names are the first few imported
// (More says there were others), Bytes the size of an export.
type Outcome struct {
	Action string
	Count  int
	Names  []string
	More   bool
	Bytes  int
}

// SiteBundle is one of the site's knowledge bundles, as the knowledge
// panel lists it.
type SiteBundle struct {
	URL, Title string
	// Docs is how many documents (pages) it holds.
	Docs int
}

// SearchState is the knowledge search box's latest search: finished,
// or with some of a site's hits still Pending while their texts arrive
// (knowledge.SearchOptions.Progress).
type SearchState struct {
	Query string
	Hits  []knowledge.Hit
	Err   string
}
