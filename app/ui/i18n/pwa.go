package i18n

// The words for updates, the offline state and start-up (app/ui's update
// prompt, model banner, model pill and composer; the knowledge panel's
// import).
var pwaTexts = map[string][2]string{
	"update_ready":      {"A new version is ready —", "Eine neue Version ist bereit —"},
	"update_reload":     {"Reload", "Neu laden"},
	"offline":           {"Offline", "Offline"},
	"offline_title":     {"You are offline", "Du bist offline"},
	"offline_text":      {"This device has no network connection. tinyRAG keeps working from this browser: your chats, your settings, your knowledge base, the calculator and nanoGo, which answer what they can until then. The language model and the web tools need the network; tinyRAG reconnects by itself when it is back.", "Dieses Gerät hat keine Netzwerkverbindung. tinyRAG arbeitet in diesem Browser weiter: deine Chats, deine Einstellungen, deine Wissensbasis, der Rechner und nanoGo, die bis dahin beantworten, was sie können. Das Sprachmodell und die Web-Werkzeuge brauchen das Netz; tinyRAG verbindet sich von selbst wieder, sobald es zurück ist."},
	"server_down_title": {"The tinyRAG server cannot be reached", "Der tinyRAG-Server ist nicht erreichbar"},
	"server_down_text":  {"The app runs from this browser's copy: your chats, your settings, your knowledge base, the calculator and nanoGo, which answer what they can until then. The language model and the web tools go through the server; tinyRAG reconnects by itself when it answers again.", "Die App läuft aus der Kopie in diesem Browser: deine Chats, deine Einstellungen, deine Wissensbasis, der Rechner und nanoGo, die bis dahin beantworten, was sie können. Sprachmodell und Web-Werkzeuge laufen über den Server; tinyRAG verbindet sich von selbst wieder, sobald er antwortet."},
	"offline_server":    {"Server offline", "Server offline"},
	"import_offline":    {"Offline: web pages and Wikipedia articles can be imported when the network is back. Files and pasted text import offline too.", "Offline: Webseiten und Wikipedia-Artikel lassen sich importieren, sobald das Netz zurück ist. Dateien und eingefügter Text gehen auch offline."},
	"starting":          {"Starting…", "Startet…"},
	"starting_queued":   {"Starting… your question will be sent as soon as tinyRAG is ready.", "Startet… deine Frage wird gesendet, sobald tinyRAG bereit ist."},
}

func init() {
	for k, v := range pwaTexts {
		texts[k] = v
	}
}
