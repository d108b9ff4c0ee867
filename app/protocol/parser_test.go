package protocol

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// feedAll feeds chunks and returns all visible text (Flush included), the
// calls and the final stats.
func feedAll(chunks ...string) (string, []Call, Stats) {
	var p XMLParseState
	var vis strings.Builder
	var calls []Call
	for _, c := range chunks {
		v, cs := p.Feed(c)
		vis.WriteString(v)
		calls = append(calls, cs...)
	}
	vis.WriteString(p.Flush())
	return vis.String(), calls, p.Stats()
}

// splitEvery cuts s into pieces of n bytes.
func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// chunkings returns the ways every test input is fed: whole, byte by byte,
// and in a few odd sizes, so no rule depends on where a chunk ends.
func chunkings(s string) map[string][]string {
	m := map[string][]string{"whole": {s}}
	for _, n := range []int{1, 2, 3, 5, 7, 13} {
		m[fmt.Sprintf("every%d", n)] = splitEvery(s, n)
	}
	return m
}

func TestFeed_ValidBlockIsReportedWithItsByteRange(t *testing.T) {
	in := `Let me check. <tool name="calculate"><query>3 * (17 + 5) / 2</query></tool> Done.`
	for how, chunks := range chunkings(in) {
		vis, calls, st := feedAll(chunks...)
		if vis != in {
			t.Fatalf("%s: visible %q, want the input unchanged", how, vis)
		}
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls, want 1", how, len(calls))
		}
		c := calls[0]
		if c.Name != "calculate" || c.Element != "query" || c.Input != "3 * (17 + 5) / 2" {
			t.Fatalf("%s: call %+v", how, c)
		}
		if in[c.Start:c.End] != c.Raw || !strings.HasPrefix(c.Raw, "<tool ") || !strings.HasSuffix(c.Raw, "</tool>") {
			t.Fatalf("%s: range [%d,%d) = %q, Raw %q", how, c.Start, c.End, in[c.Start:c.End], c.Raw)
		}
		if st.Blocks != 1 || st.Calls != 1 || st.ParseErrors != 0 {
			t.Fatalf("%s: stats %+v", how, st)
		}
	}
}

func TestFeed_AllSpecExamplesParse(t *testing.T) {
	tests := []struct{ block, name, elem, input string }{
		{`<tool name="rag_knowledge"><query>product return policy</query></tool>`, "rag_knowledge", "query", "product return policy"},
		{`<tool name="url_fetch"><url>https://example.com/docs/api</url></tool>`, "url_fetch", "url", "https://example.com/docs/api"},
		{`<tool name="nanogo"><source>fmt.Println(2 + 2)</source></tool>`, "nanogo", "source", "fmt.Println(2 + 2)"},
		{`<tool name="websearch"><query>tinyRAG streaming architecture</query></tool>`, "websearch", "query", "tinyRAG streaming architecture"},
		{`<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>`, "calculate", "query", "3 * (17 + 5) / 2"},
		{`<tool name="wikipedia"><query>Retrieval-augmented generation</query></tool>`, "wikipedia", "query", "Retrieval-augmented generation"},
	}
	for _, tt := range tests {
		c, ok := parseXMLBlock(tt.block)
		if !ok || c.Name != tt.name || c.Element != tt.elem || c.Input != tt.input {
			t.Errorf("parseXMLBlock(%q) = %+v, %v", tt.block, c, ok)
		}
	}
}

// Rule 1: parsing starts only at "<tool " with its trailing space; and only
// a tail that could still become "<tool " is held back.
func TestRule1_DetectionThresholdNeedsTrailingSpace(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantCalls int
	}{
		{"space", `<tool name="calculate"><query>1+1</query></tool>`, 1},
		{"no space, tab", "<tool\tname=\"calculate\"><query>1+1</query></tool>", 0},
		{"no space, newline", "<tool\nname=\"calculate\"><query>1+1</query></tool>", 0},
		{"uppercase", `<TOOL name="calculate"><query>1+1</query></TOOL>`, 0},
		{"longer word", `<toolbox name="calculate"><query>1+1</query></toolbox>`, 0},
		{"angle bracket prose", `a <b> c < d <to`, 0},
	}
	for _, tt := range tests {
		for how, chunks := range chunkings(tt.in) {
			vis, calls, _ := feedAll(chunks...)
			if vis != tt.in || len(calls) != tt.wantCalls {
				t.Errorf("%s/%s: visible %q calls %d, want input and %d", tt.name, how, vis, len(calls), tt.wantCalls)
			}
		}
	}
}

func TestRule1_OnlyAPossibleTagStartIsHeldBack(t *testing.T) {
	tests := []struct {
		chunk, visible string
	}{
		{"hello", "hello"},
		{"hello <", "hello "},
		{"hello <t", "hello "},
		{"hello <tool", "hello "},
		{"hello <tool ", "hello "},
		{"hello <tool name=\"x\"><query>q", "hello "},
		{"hello <tx", "hello <tx"},
		{"a < b", "a < b"},
		{"<toolx", "<toolx"},
		{"`<tool ", "`<tool "},
	}
	for _, tt := range tests {
		var p XMLParseState
		v, _ := p.Feed(tt.chunk)
		if v != tt.visible {
			t.Errorf("Feed(%q) visible %q, want %q", tt.chunk, v, tt.visible)
		}
		if rest := p.Flush(); v+rest != tt.chunk {
			t.Errorf("Feed(%q)+Flush = %q, want the input", tt.chunk, v+rest)
		}
	}
}

// Rule 2 and the first safety row: a partial block is never executed, and
// Feed holds it until "</tool>".
func TestRule2_PartialBlockNeverExecutes(t *testing.T) {
	full := `x <tool name="calculate"><query>1+1</query></tool> y`
	end := strings.Index(full, "</tool>") + len("</tool>")
	for cut := 0; cut < end; cut++ {
		var p XMLParseState
		v, calls := p.Feed(full[:cut])
		if len(calls) != 0 {
			t.Fatalf("prefix of %d bytes produced a call", cut)
		}
		if strings.Contains(v, "<tool ") {
			t.Fatalf("prefix of %d bytes showed part of an open block: %q", cut, v)
		}
		rest := p.Flush()
		if v+rest != full[:cut] {
			t.Fatalf("prefix %d: lost text: %q", cut, v+rest)
		}
	}
}

func TestSafety_FeedHoldsTheBufferUntilCloseTag(t *testing.T) {
	var p XMLParseState
	steps := []struct {
		chunk, visible string
		calls          int
	}{
		{"Before ", "Before ", 0},
		{`<tool name="calculate">`, "", 0},
		{"<query>2^10</query></tool", "", 0},
		{">", `<tool name="calculate"><query>2^10</query></tool>`, 1},
		{" after", " after", 0},
	}
	for i, s := range steps {
		v, calls := p.Feed(s.chunk)
		if v != s.visible || len(calls) != s.calls {
			t.Fatalf("step %d: Feed(%q) = %q, %d calls; want %q, %d", i, s.chunk, v, len(calls), s.visible, s.calls)
		}
	}
}

func TestRule2_UnclosedBlockAtStreamEndIsVisibleAndCounted(t *testing.T) {
	in := `text <tool name="calculate"><query>1+1</query>`
	for how, chunks := range chunkings(in) {
		vis, calls, st := feedAll(chunks...)
		if vis != in || len(calls) != 0 || st.ParseErrors != 1 {
			t.Fatalf("%s: visible %q calls %d stats %+v", how, vis, len(calls), st)
		}
	}
}

// Rule 3 and the second safety row: invalid blocks are text, logged and
// counted, and parseXMLBlock returns (_, false).
func TestRule3_StrictValidationRejectsInvalidBlocks(t *testing.T) {
	tests := []struct{ name, block string }{
		{"no name", `<tool id="1"><query>x</query></tool>`},
		{"empty name", `<tool name=""><query>x</query></tool>`},
		{"blank name", `<tool name="   "><query>x</query></tool>`},
		{"unquoted name", `<tool name=calc><query>x</query></tool>`},
		{"unclosed quote", `<tool name="calc><query>x</query></tool>`},
		{"duplicate name", `<tool name="a" name="b"><query>x</query></tool>`},
		{"no inner element", `<tool name="calculate">1+1</tool>`},
		{"empty inner element", `<tool name="calculate"><query></query></tool>`},
		{"blank inner element", "<tool name=\"calculate\"><query>  \n\t </query></tool>"},
		{"unknown inner element", `<tool name="calculate"><expr>1+1</expr></tool>`},
		{"two inner elements", `<tool name="calculate"><query>1</query><query>2</query></tool>`},
		{"mixed inner elements", `<tool name="url_fetch"><url>http://a</url><query>b</query></tool>`},
		{"element inside query", `<tool name="calculate"><query><url>x</url></query></tool>`},
		{"unclosed inner", `<tool name="calculate"><query>1+1</tool>`},
		{"text after inner", `<tool name="calculate"><query>1</query> more</tool>`},
		{"self closing", `<tool name="calculate"/></tool>`},
		{"bad char reference", `<tool name="calculate"><query>&#xD800;</query></tool>`},
		{"nul char reference", `<tool name="calculate"><query>&#0;</query></tool>`},
		{"missing space between attributes", `<tool name="a"id="1"><query>x</query></tool>`},
	}
	for _, tt := range tests {
		if c, ok := parseXMLBlock(tt.block); ok {
			t.Errorf("%s: parseXMLBlock accepted %q as %+v", tt.name, tt.block, c)
		}
		in := "a " + tt.block + " b"
		vis, calls, st := feedAll(splitEvery(in, 3)...)
		if vis != in || len(calls) != 0 || st.ParseErrors != 1 || len(st.Errors) != 1 || st.Errors[0].Offset != 2 {
			t.Errorf("%s: visible %q calls %d stats %+v", tt.name, vis, len(calls), st)
		}
	}
}

func TestRule3_ValidationAcceptsWhatTheProtocolAllows(t *testing.T) {
	tests := []struct{ name, block, toolName, elem, input string }{
		{"single quotes", `<tool name='calculate'><query>1+1</query></tool>`, "calculate", "query", "1+1"},
		{"spaces around =", `<tool name = "calculate" ><query>1+1</query></tool>`, "calculate", "query", "1+1"},
		{"whitespace around inner", "<tool name=\"calculate\">\n  <query>1+1</query>\n</tool>", "calculate", "query", "1+1"},
		{"name trimmed, case kept", `<tool name=" Calculate "><query>1+1</query></tool>`, "Calculate", "query", "1+1"},
		{"input trimmed", `<tool name="calculate"><query>  1+1 </query></tool>`, "calculate", "query", "1+1"},
		{"named entities decoded", `<tool name="calculate"><query>1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;x&quot; &apos;y&apos;</query></tool>`, "calculate", "query", `1 < 2 && 3 > 2 "x" 'y'`},
		{"numeric entities decoded", `<tool name="websearch"><query>caf&#233; &#x4E2D;</query></tool>`, "websearch", "query", "café 中"},
		{"entity in name", `<tool name="a&amp;b"><query>q</query></tool>`, "a&b", "query", "q"},
		{"bare ampersand kept", `<tool name="websearch"><query>R&D at AT&T</query></tool>`, "websearch", "query", "R&D at AT&T"},
		{"raw < in source", `<tool name="nanogo"><source>if a < b { fmt.Println(a) }</source></tool>`, "nanogo", "source", "if a < b { fmt.Println(a) }"},
		{"cdata source", `<tool name="nanogo"><source><![CDATA[x := 1 && 2 < 3]]></source></tool>`, "nanogo", "source", "x := 1 && 2 < 3"},
		{"extra attribute ignored", `<tool name="calculate" id="7"><query>1+1</query></tool>`, "calculate", "query", "1+1"},
		{"input of 4096 runes", `<tool name="websearch"><query>` + strings.Repeat("é", MaxInputRunes) + `</query></tool>`, "websearch", "query", strings.Repeat("é", MaxInputRunes)},
	}
	for _, tt := range tests {
		c, err := CheckBlock(tt.block)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if c.Name != tt.toolName || c.Element != tt.elem || c.Input != tt.input {
			t.Errorf("%s: got %q %q %q", tt.name, c.Name, c.Element, c.Input)
		}
	}
}

// Rule 4: a nested tool tag makes the whole block a parse error; nothing in
// it runs, and all of it stays visible.
func TestRule4_NestedToolTagIsAParseError(t *testing.T) {
	tests := []string{
		`<tool name="a"><query><tool name="calculate"><query>1+1</query></tool></query></tool>`,
		`<tool name="a"><query>x</query><tool name="b"><query>y</query></tool>`,
		`<tool name="a"><source>s := "<tool>"</source></tool>`,
		`<tool name="a"><source>s := "<tool/>"</source></tool>`,
	}
	for _, in := range tests {
		for how, chunks := range chunkings(in) {
			vis, calls, st := feedAll(chunks...)
			if vis != in || len(calls) != 0 || st.ParseErrors < 1 {
				t.Fatalf("%q/%s: visible %q calls %+v stats %+v", in, how, vis, calls, st)
			}
			if !strings.Contains(st.Errors[0].Reason, "nested") {
				t.Fatalf("%q/%s: reason %q does not name the nesting", in, how, st.Errors[0].Reason)
			}
		}
	}
}

// Rule 5: a block inside a code fence or inline code span is an example,
// shown as text, never executed.
func TestRule5_MarkdownWrappedBlocksNeverExecute(t *testing.T) {
	blk := `<tool name="calculate"><query>1+1</query></tool>`
	tests := []struct {
		name  string
		in    string
		calls int
	}{
		{"backtick fence", "Example:\n```\n" + blk + "\n```\n", 0},
		{"backtick fence with info", "```xml\n" + blk + "\n```", 0},
		{"tilde fence", "~~~\n" + blk + "\n~~~\n", 0},
		{"indented fence", "   ```\n" + blk + "\n   ```\n", 0},
		{"long fence not closed by shorter", "````\n```\n" + blk + "\n````\n", 0},
		{"fence not closed by info line", "```\n```go\n" + blk + "\n```\n", 0},
		{"fence not closed by other char", "```\n~~~\n" + blk + "\n```\n", 0},
		{"inline span", "Write `" + blk + "` to call it.", 0},
		{"double backtick span", "Write `` a ` " + blk + " `` to call it.", 0},
		{"call after closed fence runs", "```\ncode\n```\n" + blk, 1},
		{"call after closed CRLF fence runs", "```\r\ncode\r\n```\r\n" + blk, 1},
		{"call after closed span runs", "`x` " + blk, 1},
		{"unmatched backtick ends at line end", "a ` b\n" + blk, 1},
		{"backticks mid-line are no fence", "a ```\n" + blk, 1},
		{"four-space indent is no fence", "    ```\n" + blk, 1},
		{"fence run inside block is ignored", `<tool name="nanogo"><source>x := "` + "```" + `"</source></tool>` + "\n" + blk, 2},
	}
	for _, tt := range tests {
		for how, chunks := range chunkings(tt.in) {
			vis, calls, _ := feedAll(chunks...)
			if vis != tt.in || len(calls) != tt.calls {
				t.Fatalf("%s/%s: visible %q, %d calls; want input, %d", tt.name, how, vis, len(calls), tt.calls)
			}
		}
	}
}

func TestLimits_BlockOver16KiBIsInvalidAndVisible(t *testing.T) {
	head := `<tool name="nanogo"><source>`
	tail := `</source></tool>`
	fits := head + strings.Repeat("a", MaxBlockBytes-len(head)-len(tail)) + tail
	if len(fits) != MaxBlockBytes {
		t.Fatal("test block has the wrong size")
	}
	tooLong := head + strings.Repeat("a", MaxBlockBytes-len(head)-len(tail)+1) + tail
	// Runes are within limit only for "fits" if the input is small enough:
	// use source runes under MaxBlockBytes but above 4096 to keep the size
	// test about bytes, so build a second fitting block that is valid.
	valid := head + strings.Repeat("é", 2000) + tail
	tests := []struct {
		name   string
		in     string
		calls  int
		errors int
	}{
		{"16 KiB exactly is not cut", "x" + fits + "y", 0, 1}, // too many runes, but still parsed as a block
		{"one byte more is given up", "x" + tooLong + "y", 0, 1},
		{"then a real call still runs", tooLong + valid, 1, 1},
		{"small multibyte block runs", valid, 1, 0},
	}
	for _, tt := range tests {
		for _, n := range []int{1, 1000, 1 << 20} {
			vis, calls, st := feedAll(splitEvery(tt.in, n)...)
			if vis != tt.in || len(calls) != tt.calls || st.ParseErrors != tt.errors {
				t.Fatalf("%s/%d: visible equal %v, calls %d, stats %d %v", tt.name, n, vis == tt.in, len(calls), st.ParseErrors, st.Errors)
			}
		}
	}
	_, calls, st := feedAll("x" + fits)
	if len(calls) != 0 || !strings.Contains(st.Errors[0].Reason, "limit is 4096") {
		t.Fatalf("16 KiB block: %v", st.Errors)
	}
	_, _, st = feedAll(tooLong)
	if !strings.Contains(st.Errors[0].Reason, "16 KiB") {
		t.Fatalf("too long block: %v", st.Errors)
	}
}

func TestLimits_InputOver4096RunesIsInvalid(t *testing.T) {
	ok := `<tool name="websearch"><query>` + strings.Repeat("ü", MaxInputRunes) + `</query></tool>`
	bad := `<tool name="websearch"><query>` + strings.Repeat("ü", MaxInputRunes+1) + `</query></tool>`
	if _, good := parseXMLBlock(ok); !good {
		t.Fatal("input of exactly 4096 runes rejected")
	}
	if _, err := CheckBlock(bad); err == nil || !strings.Contains(err.Error(), "4097") {
		t.Fatalf("input of 4097 runes: err %v", err)
	}
	vis, calls, _ := feedAll(splitEvery(bad, 100)...)
	if vis != bad || len(calls) != 0 {
		t.Fatal("oversized input ran or lost text")
	}
}

func TestFeed_ManyBlocksInOneChunkComeInOrder(t *testing.T) {
	var in strings.Builder
	for i := 0; i < 20; i++ {
		in.WriteString("step ")
		in.WriteString(`<tool name="calculate"><query>` + strings.Repeat("1+", i) + `1</query></tool>`)
	}
	for how, chunks := range chunkings(in.String()) {
		_, calls, st := feedAll(chunks...)
		if len(calls) != 20 || st.Blocks != 20 {
			t.Fatalf("%s: %d calls, stats %+v", how, len(calls), st)
		}
		for i, c := range calls {
			if want := strings.Repeat("1+", i) + "1"; c.Input != want {
				t.Fatalf("%s: call %d input %q, want %q", how, i, c.Input, want)
			}
			if i > 0 && c.Start < calls[i-1].End {
				t.Fatalf("%s: calls overlap", how)
			}
		}
	}
}

func TestFeed_OffsetsCountAcrossFlush(t *testing.T) {
	var p XMLParseState
	v1, _ := p.Feed("abc <to")
	v2 := p.Flush()
	_, calls := p.Feed(`<tool name="x"><query>q</query></tool>`)
	if v1+v2 != "abc <to" || len(calls) != 1 || calls[0].Start != 7 {
		t.Fatalf("got %q %+v", v1+v2, calls)
	}
}

func TestStats_ErrorLogIsBounded(t *testing.T) {
	in := strings.Repeat(`<tool name=""><query>x</query></tool>`, maxLoggedErrors*2)
	_, _, st := feedAll(in)
	if st.ParseErrors != maxLoggedErrors*2 || len(st.Errors) != maxLoggedErrors {
		t.Fatalf("stats: %d errors, %d logged", st.ParseErrors, len(st.Errors))
	}
}

// TestFeed_RandomChunkingsKeepEveryByte is the fuzz invariant on a fixed
// mixed input, so it runs in every ordinary test run too.
func TestFeed_RandomChunkingsKeepEveryByte(t *testing.T) {
	in := "# Title\n```go\n<tool name=\"x\"><query>no</query></tool>\n```\n" +
		"Run `<tool name=\"x\"><query>no</query></tool>` or <tool name=\"calculate\"><query>2*3</query></tool>.\n" +
		"<tool name=\"a\"><query><tool name=\"b\"><query>y</query></tool></query></tool> <to <tool\t<tool name='w'><url>http://a/?a=1&amp;b=2</url></tool>"
	want, wantCalls, _ := feedAll(in)
	if want != in || len(wantCalls) != 2 || wantCalls[1].Input != "http://a/?a=1&b=2" {
		t.Fatalf("whole input: %d calls", len(wantCalls))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 300; k++ {
		var chunks []string
		s := in
		for len(s) > 0 {
			n := 1 + r.IntN(min(len(s), 40))
			chunks = append(chunks, s[:n])
			s = s[n:]
		}
		vis, calls, _ := feedAll(chunks...)
		if vis != in || len(calls) != len(wantCalls) {
			t.Fatalf("chunking %d: visible equal %v, %d calls", k, vis == in, len(calls))
		}
		for i := range calls {
			if calls[i] != wantCalls[i] {
				t.Fatalf("chunking %d: call %d = %+v, want %+v", k, i, calls[i], wantCalls[i])
			}
		}
	}
}

// Safety row "Invalid XML is logged and ignored": parseXMLBlock returns
// (_, false), the stream reports no call, and the log says where and why.
func TestSafety_InvalidXMLIsLoggedAndIgnored(t *testing.T) {
	bad := `<tool name="calculate"><query>1+1</query><query>2</query></tool>`
	if _, ok := parseXMLBlock(bad); ok {
		t.Fatal("parseXMLBlock accepted two inner elements")
	}
	in := "abc " + bad
	vis, calls, st := feedAll(splitEvery(in, 4)...)
	if vis != in || len(calls) != 0 || st.Blocks != 1 || st.ParseErrors != 1 {
		t.Fatalf("visible %q calls %d stats %+v", vis, len(calls), st)
	}
	e := st.Errors[0]
	if e.Offset != 4 || e.Raw != bad || !strings.Contains(e.Reason, "exactly one inner element") ||
		e.Error() != "tool block at byte 4: "+e.Reason {
		t.Fatalf("logged %+v", e)
	}
}
