package protocol

import (
	"strings"
	"testing"
)

// FuzzFeed checks the parser's invariant: for any input and any way of
// cutting it into chunks, the visible text (Flush included) is the input,
// every call's Raw is exactly its byte range of the input and parses again
// to the same call, and nothing panics.
func FuzzFeed(f *testing.F) {
	seeds := []string{
		"",
		"plain prose without anything special",
		`<tool name="calculate"><query>1+1</query></tool>`,
		"```\n<tool name=\"x\"><query>q</query></tool>\n```\n<tool name=\"y\"><url>http://a</url></tool>",
		"`<tool name=\"x\"><query>q</query></tool>` <tool name='z'><source>a < b</source></tool>",
		`<tool name="a"><query><tool name="b"><query>y</query></tool></query></tool>`,
		"<tool <to <t <tool name=\"\"><query>x</query></tool></tool>",
		"~~~~\n~~~\n<tool name=\"x\"><query>q</query></tool>\n~~~~  \r\n<tool name=\"x\"><query>&#x41;&amp;</query></tool>",
	}
	for i, s := range seeds {
		f.Add(s, uint64(i*7919+1))
	}
	f.Fuzz(func(t *testing.T, in string, cuts uint64) {
		var p XMLParseState
		var vis strings.Builder
		var calls []Call
		rest := in
		seed := cuts
		for len(rest) > 0 {
			// A tiny xorshift turns one number into many chunk sizes.
			seed ^= seed << 13
			seed ^= seed >> 7
			seed ^= seed << 17
			n := 1 + int(seed%uint64(min(len(rest), 64)))
			v, cs := p.Feed(rest[:n])
			vis.WriteString(v)
			calls = append(calls, cs...)
			rest = rest[n:]
		}
		vis.WriteString(p.Flush())
		if vis.String() != in {
			t.Fatalf("visible text differs from input:\n got %q\nwant %q", vis.String(), in)
		}
		for _, c := range calls {
			if c.Start < 0 || c.End > int64(len(in)) || in[c.Start:c.End] != c.Raw {
				t.Fatalf("call %+v does not match its byte range", c)
			}
			again, ok := parseXMLBlock(c.Raw)
			if !ok || again.Name != c.Name || again.Element != c.Element || again.Input != c.Input {
				t.Fatalf("call %+v does not parse again: %+v %v", c, again, ok)
			}
		}
		// The same input in one piece gives the same calls: chunking never
		// changes what runs.
		var whole XMLParseState
		_, wcalls := whole.Feed(in)
		whole.Flush()
		if len(wcalls) != len(calls) {
			t.Fatalf("%d calls when chunked, %d when whole", len(calls), len(wcalls))
		}
		for i := range calls {
			if calls[i] != wcalls[i] {
				t.Fatalf("call %d differs: %+v vs %+v", i, calls[i], wcalls[i])
			}
		}
	})
}
