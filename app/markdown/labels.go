package markdown

// labels are the few words this package puts on the page itself.
type labels struct {
	lang                 string
	copy, copyAria       string
	run, runAria         string
	result, errorSummary string
	skipped, input       string
	status               map[string]string
}

var labelSets = map[string]labels{
	"en": {
		lang: "en",
		copy: "Copy", copyAria: "Copy code",
		run: "Run", runAria: "Run code",
		result: "Result", errorSummary: "Error", skipped: "Skipped", input: "Input",
		status: map[string]string{"running": "running", "done": "done", "error": "failed", "skipped": "skipped"},
	},
	"de": {
		lang: "de",
		copy: "Kopieren", copyAria: "Code kopieren",
		run: "Ausführen", runAria: "Code ausführen",
		result: "Ergebnis", errorSummary: "Fehler", skipped: "Übersprungen", input: "Eingabe",
		status: map[string]string{"running": "läuft", "done": "fertig", "error": "fehlgeschlagen", "skipped": "übersprungen"},
	},
}

// labelsFor falls back to English for any language it does not know, so a
// stale or mistyped setting never leaves buttons without text.
func labelsFor(lang string) labels {
	if l, ok := labelSets[lang]; ok {
		return l
	}
	return labelSets["en"]
}
