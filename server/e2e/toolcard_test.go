package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestChat_OpenedToolCardStaysOpenWhileTheAnswerStreams: each token
// replaces the answer's HTML, so a card the user opened must be rendered
// open again (markdown.Options.Expanded), and one they closed, closed.
func TestChat_OpenedToolCardStaysOpenWhileTheAnswerStreams(t *testing.T) {
	scripts := appScripts()
	scripts["[long]"] = [][]step{
		{{Text: "Calculating. "}, {Text: `<tool name="calculate"><query>6 * 7</query></tool>`, Delay: 20 * time.Millisecond}},
		words(strings.Repeat("The product is forty-two, as the card shows. ", 12), 60*time.Millisecond),
	}
	llm := newScriptedLLM(t, scripts)
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false")
	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/")

	ask(t, b, "[long] what is 6 * 7?")
	card := `.xml-tool-card[data-tool="calculate"]`
	waitJS(t, b, 20*time.Second, "card done while the answer streams",
		`document.querySelector('`+card+`[data-status="done"] summary') && document.querySelector(".answer.cursor")`)
	// Clicked from script: the card's node is replaced with each token,
	// so one found by a query may be gone by the time a mouse click lands.
	clickSummary := card + " summary"
	clickJS(t, b, clickSummary)
	streamed := eval[int](t, b, lastAnswer+`.length`)
	waitJS(t, b, 10*time.Second, "more of the answer streamed", lastAnswer+`.length > `+itoa(streamed+60))
	if !eval[bool](t, b, `!!document.querySelector('`+card+` details[open]')`) {
		t.Fatal("the card the user opened closed while the answer streamed")
	}
	clickJS(t, b, clickSummary)
	streamed = eval[int](t, b, lastAnswer+`.length`)
	waitJS(t, b, 10*time.Second, "more of the answer streamed", lastAnswer+`.length > `+itoa(streamed+60))
	if eval[bool](t, b, `!!document.querySelector('`+card+` details[open]')`) {
		t.Fatal("the card the user closed opened again while the answer streamed")
	}
	clickJS(t, b, clickSummary)
	waitJS(t, b, 20*time.Second, "answer finished", `!document.querySelector(".answer.cursor")`)
	if !eval[bool](t, b, `!!document.querySelector('`+card+` details[open]')`) {
		t.Error("the opened card closed when the answer finished")
	}
	if res := eval[string](t, b, `document.querySelector('`+card+` .tool-result').innerText`); !strings.Contains(res, "42") {
		t.Errorf("card result = %q, want 42", res)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
