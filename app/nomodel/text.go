package nomodel

// texts are the sentences of answers without a model, in English and
// German (the interface languages). Values with %s are format strings.
var texts = map[string][2]string{
	"no_model": {"No language model is reachable", "Kein Sprachmodell erreichbar"},
	"calculating": {"The calculator answers this one:",
		"Das beantwortet der Rechner:"},
	"running": {"Running the Go snippet in nanoGo:",
		"Das Go-Snippet läuft in nanoGo:"},
	"searching": {"Searching your knowledge base instead:",
		"Stattdessen eine Suche in deiner Wissensbasis:"},
	"nanogo_off": {"Running Go snippets is off; turn on \"Allow nanoGo\" in Settings to run it here in the browser.",
		"Go-Snippets auszuführen ist aus; schalte \"nanoGo erlauben\" in den Einstellungen ein, um es hier im Browser auszuführen."},
	"cannot": {"Without one, tinyRAG can still calculate (for example `3 * (17 + 5) / 2`), run a Go snippet in a ```go block when nanoGo is allowed, and search your knowledge base once you import documents.",
		"Ohne Modell kann tinyRAG trotzdem rechnen (zum Beispiel `3 * (17 + 5) / 2`), ein Go-Snippet in einem ```go-Block ausführen, wenn nanoGo erlaubt ist, und deine Wissensbasis durchsuchen, sobald du Dokumente importierst."},
	"failed":    {"The tool %s failed: %s", "Das Werkzeug %s ist fehlgeschlagen: %s"},
	"output":    {"Output:", "Ausgabe:"},
	"no_output": {"The program ran and printed nothing.", "Das Programm lief und gab nichts aus."},
	"from_kb":   {"The best passages from your knowledge base:", "Die besten Passagen aus deiner Wissensbasis:"},
	"no_match_hint": {"Import documents in the Knowledge tab, or connect a model in Settings for answers beyond them.",
		"Importiere Dokumente im Tab Wissen oder verbinde ein Modell in den Einstellungen für Antworten darüber hinaus."},
}

func (c Chatter) t(key string) string {
	v := texts[key]
	if c.Lang == "de" && v[1] != "" {
		return v[1]
	}
	return v[0]
}
