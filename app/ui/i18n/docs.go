package i18n

// The words for search, feedback, related pages, starters and chat
// addresses (app/ui: message.go, feedback.go, thread.go, chatroute.go).
var docsTexts = map[string][2]string{
	"related":                {"Related", "Verwandt"},
	"feedback":               {"Feedback", "Feedback"},
	"no_match":               {"Nothing in the knowledge base matched this question.", "Nichts in der Wissensbasis passte zu dieser Frage."},
	"reason_incorrect":       {"incorrect", "falsch"},
	"reason_not_helpful":     {"not helpful", "nicht hilfreich"},
	"reason_missing_sources": {"missing sources", "Quellen fehlen"},
	"reason_other":           {"other", "anderes"},
	"rate_up":                {"Helpful", "Hilfreich"},
	"rate_down":              {"Not helpful", "Nicht hilfreich"},
	"fb_what":                {"What was wrong?", "Was war falsch?"},
	"fb_note":                {"A note (optional)", "Eine Notiz (optional)"},
	"fb_send":                {"Send", "Senden"},
	"fb_thanks":              {"Thanks for your feedback.", "Danke für dein Feedback."},
	"fb_local":               {"Kept with this chat, in this browser only.", "Wird mit diesem Chat gespeichert, nur in diesem Browser."},
	"fb_host":                {"The page at %s receives your rating and note, with the question and the answer.", "Die Seite %s erhält deine Bewertung und Notiz, mit Frage und Antwort."},
	"copy_md":                {"Copy as Markdown", "Als Markdown kopieren"},
	"copied_md":              {"Conversation copied", "Unterhaltung kopiert"},
	"chat_unknown":           {"That chat is not in this browser; a new one is open.", "Diesen Chat gibt es in diesem Browser nicht; ein neuer ist offen."},
	"starters":               {"Questions to start with", "Fragen für den Anfang"},
}

func init() {
	for k, v := range docsTexts {
		texts[k] = v
	}
}
