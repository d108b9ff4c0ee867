// Package protocol implements the streaming side of the XML tool protocol
// (docs/protocol.md): it finds <tool name="…">…</tool> blocks in
// an LLM reply as it streams, without ever executing anything itself.
//
// The parser never rewrites text. Everything fed to it comes back out as
// visible text, byte for byte and in order; it only delays the few bytes
// that might still turn into a tool block (a tail that could begin "<tool ",
// or an open block waiting for its "</tool>"). Completed, valid blocks are
// additionally reported as Calls with their byte range, so a UI can replace
// that range with a card and the engine can run the tool.
package protocol

import "fmt"

// Limits of the protocol. A block longer than MaxBlockBytes, or whose input
// is longer than MaxInputRunes, is invalid and stays visible text.
const (
	MaxBlockBytes = 16 << 10
	MaxInputRunes = 4096
)

// maxLoggedErrors bounds the error log so a hostile stream of broken blocks
// cannot grow memory without limit; the counter keeps counting.
const maxLoggedErrors = 64

const (
	openTag  = "<tool "
	closeTag = "</tool>"
)

// Call is one completed, valid tool block.
type Call struct {
	Name    string // name attribute, trimmed (case preserved)
	Element string // "query", "url" or "source"
	Input   string // inner element content, entities decoded, trimmed
	Raw     string // the exact block text as streamed
	Start   int64  // byte offset of Raw's first byte in everything fed so far
	End     int64  // byte offset just past Raw
}

// ParseError records one block that was not executed and why.
type ParseError struct {
	Offset int64  // byte offset of the block's "<tool "
	Reason string // what was wrong
	Raw    string // the block text, cut to 200 bytes for the log
}

func (e ParseError) Error() string {
	return fmt.Sprintf("tool block at byte %d: %s", e.Offset, e.Reason)
}

// Stats counts what the parser saw in the stream.
type Stats struct {
	Blocks      int          // blocks that were opened ("<tool " outside code) and ended
	Calls       int          // valid blocks reported as Calls
	ParseErrors int          // blocks that were invalid, too long or never closed
	Errors      []ParseError // the first maxLoggedErrors of them
}

// mode is what the scanner is currently inside of.
type mode uint8

const (
	modeText  mode = iota // ordinary text
	modeBlock             // after "<tool ", waiting for "</tool>"
)

// XMLParseState is the incremental parser of one streamed reply. The zero
// value is ready to use. It is not safe for concurrent use.
type XMLParseState struct {
	pos       int64  // bytes fed so far
	hold      []byte // held-back suffix of the stream, starts at holdStart
	holdStart int64

	mode       mode
	tagMatched int   // bytes of openTag matched so far (text mode)
	tagStart   int64 // offset of the '<' of a partial or open tag
	endMatched int   // bytes of closeTag matched so far (block mode)

	md markdown

	stats Stats
}

// NewXMLParseState returns a parser ready for a new stream.
func NewXMLParseState() *XMLParseState { return &XMLParseState{} }

// Stats returns the counters and the error log so far.
func (p *XMLParseState) Stats() Stats {
	s := p.stats
	s.Errors = append([]ParseError(nil), p.stats.Errors...)
	return s
}

// Feed consumes the next chunk of the stream. It returns the text that can be
// shown now (everything except a held-back tail) and the tool blocks that
// completed within this chunk, in stream order. Valid blocks are part of the
// visible text too: the caller decides how to render them.
func (p *XMLParseState) Feed(chunk string) (visible string, calls []Call) {
	base := p.pos // offset of chunk[0]
	old := p.hold
	oldStart := p.holdStart
	// span returns stream bytes [a, b); anything at or after oldStart is
	// still available, either in the old hold or in this chunk.
	span := func(a, b int64) string {
		oa, ob := a-oldStart, b-oldStart
		n := int64(len(old))
		switch {
		case ob <= n:
			return string(old[oa:ob])
		case oa >= n:
			return chunk[oa-n : ob-n]
		default:
			return string(old[oa:]) + chunk[:ob-n]
		}
	}

	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		at := base + int64(i)
		if p.mode == modeBlock {
			if at-p.tagStart >= MaxBlockBytes {
				// The block would grow past the limit: give it up as text and
				// look at this byte afresh, it may start something new.
				p.stats.Blocks++
				p.fail(p.tagStart, "block longer than 16 KiB without </tool>", span(p.tagStart, min(at, p.tagStart+200)))
				p.mode = modeText
				p.endMatched = 0
				p.md.afterInline()
			} else {
				if p.endMatched == 0 {
					// Fast path: jump to the next '<', never past the limit.
					j := i
					lim := len(chunk)
					if l := int(p.tagStart + MaxBlockBytes - base); l < lim {
						lim = l
					}
					for j < lim && chunk[j] != '<' {
						j++
					}
					if j > i {
						i = j - 1
						continue
					}
				}
				if c == closeTag[p.endMatched] {
					p.endMatched++
					if p.endMatched == len(closeTag) {
						end := at + 1
						raw := span(p.tagStart, end)
						p.stats.Blocks++
						if call, err := checkBlock(raw); err == nil {
							call.Start, call.End = p.tagStart, end
							calls = append(calls, call)
							p.stats.Calls++
						} else {
							p.fail(p.tagStart, err.Error(), raw)
						}
						p.mode = modeText
						p.endMatched = 0
						p.md.afterInline()
					}
				} else if c == '<' {
					p.endMatched = 1
				} else {
					p.endMatched = 0
				}
				continue
			}
		}

		// Text mode. The common case (prose) only needs the markdown scanner.
		if p.tagMatched == 0 && c != '<' {
			if p.md.plain() {
				j := i
				for j < len(chunk) && !special[chunk[j]] {
					j++
				}
				if j > i {
					i = j - 1
					continue
				}
			}
			p.md.step(c)
			continue
		}
		p.md.step(c)
		if p.tagMatched > 0 && c == openTag[p.tagMatched] {
			p.tagMatched++
			if p.tagMatched == len(openTag) {
				p.mode = modeBlock
				p.tagMatched = 0
				p.endMatched = 0
			}
			continue
		}
		p.tagMatched = 0
		if c == '<' && !p.md.inCode() {
			p.tagMatched = 1
			p.tagStart = at
		}
	}
	p.pos = base + int64(len(chunk))

	// Whatever could still become (or is) a block stays held back.
	keepFrom := p.pos
	if p.mode == modeBlock || p.tagMatched > 0 {
		keepFrom = p.tagStart
	}
	visible = span(oldStart, keepFrom)
	switch {
	case keepFrom == p.pos:
		p.hold = p.hold[:0]
	case keepFrom == oldStart:
		p.hold = append(old, chunk...)
	default:
		// span copies whatever part comes from the old hold, so reusing
		// its backing array here is safe.
		kept := span(keepFrom, p.pos)
		p.hold = append(p.hold[:0], kept...)
	}
	p.holdStart = keepFrom
	return visible, calls
}

// Flush ends the stream: it releases any held-back text. A block that was
// opened but never closed is counted as a parse error and never executed.
// The parser can then be fed the next stream.
func (p *XMLParseState) Flush() (visible string) {
	if p.mode == modeBlock {
		raw := string(p.hold)
		p.stats.Blocks++
		p.fail(p.tagStart, "stream ended before </tool>", raw)
	}
	visible = string(p.hold)
	p.hold = p.hold[:0]
	p.holdStart = p.pos
	p.mode = modeText
	p.tagMatched, p.endMatched = 0, 0
	p.md = markdown{}
	return visible
}

func (p *XMLParseState) fail(at int64, reason, raw string) {
	p.stats.ParseErrors++
	if len(p.stats.Errors) < maxLoggedErrors {
		if len(raw) > 200 {
			raw = raw[:200]
		}
		p.stats.Errors = append(p.stats.Errors, ParseError{Offset: at, Reason: reason, Raw: raw})
	}
}

// special marks the bytes the text scanner must look at one by one while
// the markdown state is plain (mid-line, no pending run): every other byte
// of prose changes nothing.
var special = func() (t [256]bool) {
	for _, c := range []byte{'<', '`', '~', '\n'} {
		t[c] = true
	}
	return t
}()
