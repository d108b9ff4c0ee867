package control

// The few words the logic writes into an answer or a prompt: they are kept
// with the chat and read by the model, so they are put in the interface's
// language when the answer is made, not when it is shown. Everything the
// views show is translated by the views (app/ui/i18n).
const (
	textToolOffline   = iota // a web tool's error without a network
	textOfflineWhy           // why the browser tools answer: no network
	textServerDownWhy        // why the browser tools answer: no server
	textPageContext          // introduces the embedding page's context
	textStopped              // a tool the stopped answer did not run
)

// answerTexts are those words: English first, German second.
var answerTexts = [...][2]string{
	textToolOffline:   {"offline: this device has no network connection", "offline: dieses Gerät hat keine Netzwerkverbindung"},
	textOfflineWhy:    {"You are offline", "Du bist offline"},
	textServerDownWhy: {"The tinyRAG server cannot be reached", "Der tinyRAG-Server ist nicht erreichbar"},
	textPageContext:   {"The visitor asks from a page that describes itself like this:", "Der Besucher fragt von einer Seite, die sich so beschreibt:"},
	textStopped:       {"Stopped.", "Angehalten."},
}

// answerText is text in lang ("en" or "de").
func answerText(lang string, text int) string {
	if lang == "de" {
		return answerTexts[text][1]
	}
	return answerTexts[text][0]
}
