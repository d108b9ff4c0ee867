package evidence

import (
	"bufio"
	"strconv"
	"strings"

	"tinyrag/app/internal/lazyregexp"
)

var (
	beginLine = lazyregexp.New(`^=== BEGIN UNTRUSTED TOOL RESULT id=(\S+) tool=(\S+) sha256=([0-9a-f]{64}) ===$`)
	endLine   = lazyregexp.New(`^=== END UNTRUSTED TOOL RESULT id=(\S+) sha256=([0-9a-f]{64}) ===$`)
)

// Parse reads the results back out of a packet that Packet rendered, for a
// reader of the conversation that is not a language model (the answer path
// without a model composes its reply from them). A result is recognised only
// between a BEGIN line and the END line with the same id and hash, so text
// inside a result cannot end it early or add a result of its own. Content
// is what the packet shows: truncated content stays truncated, and an item
// whose content was left out for the budget has none. The input is
// returned as quoted in the packet. Parse returns nil for a message that
// is not a packet.
func Parse(packet string) []Item {
	if !strings.HasPrefix(packet, Header) {
		return nil
	}
	var items []Item
	var cur *Item
	var hash string
	var body []string
	sc := bufio.NewScanner(strings.NewReader(packet))
	sc.Buffer(make([]byte, 64<<10), len(packet)+1)
	for sc.Scan() {
		line := sc.Text()
		if cur == nil {
			if m := beginLine.FindStringSubmatch(line); m != nil {
				cur, hash, body = &Item{ID: m[1], Tool: m[2]}, m[3], nil
			}
			continue
		}
		if m := endLine.FindStringSubmatch(line); m != nil && m[1] == cur.ID && m[2] == hash {
			items = append(items, finish(*cur, body))
			cur = nil
			continue
		}
		body = append(body, line)
	}
	return items
}

// finish reads the header lines Packet writes before the content.
func finish(it Item, lines []string) Item {
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "input: "):
			q := strings.TrimPrefix(line, "input: ")
			if j := strings.LastIndex(q, `" (first `); j >= 0 {
				q = q[:j+1]
			}
			if s, err := strconv.Unquote(q); err == nil {
				it.Query = s
			}
		case strings.HasPrefix(line, "source: "):
			it.Source = strings.TrimPrefix(line, "source: ")
		case strings.HasPrefix(line, "error: "):
			// The message may span lines up to the closing instruction.
			msg := []string{strings.TrimPrefix(line, "error: ")}
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "The tool failed;") {
				i++
				msg = append(msg, lines[i])
			}
			it.Err = strings.Join(msg, "\n")
			return it
		case line == "content: (empty)" || strings.HasPrefix(line, "content: omitted"):
			return it
		case line == "content:" || strings.HasPrefix(line, "content (TRUNCATED"):
			it.Content = strings.Join(lines[i+1:], "\n")
			return it
		}
	}
	return it
}
