package mdmodule

import (
	"strings"
	"testing"

	"tinyrag/app/markdown/answer"
)

func TestPlain_EscapesAndDropsToolBlocks(t *testing.T) {
	text := "Hi <script>x</script>\n\n<tool name=\"calculate\"><expression>1</expression></tool>\n\nbye & **b**"
	start := strings.Index(text, "<tool")
	cards := []answer.Card{{Start: start, End: start + len(`<tool name="calculate"><expression>1</expression></tool>`)}}
	want := `<div class="md plain">Hi &lt;script&gt;x&lt;/script&gt;` + "\n\n" + `bye &amp; **b**</div>`
	if got := Plain(text, cards); got != want {
		t.Errorf("Plain =\n%s\nwant\n%s", got, want)
	}
}
