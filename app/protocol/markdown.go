package protocol

// markdown tracks, one byte at a time, whether the stream is inside a
// Markdown code fence or an inline code span. A tool block written there is
// an example the model is showing, not a call, so it must stay text
// (protocol rule 5). The state is a handful of integers: scanning stays
// linear and never looks back.
//
// The model follows CommonMark closely enough for safety:
//   - a fence is a run of three or more ` or ~ at the start of a line
//     (after at most three spaces); it closes at a line that starts with
//     a run of the same character at least as long, followed only by
//     blanks;
//   - outside fences, a run of n backticks opens an inline span that the
//     next run of exactly n backticks closes. A line end also closes it:
//     an unmatched backtick must not silence real calls further on.
type markdown struct {
	midLine bool // false at the start of a line (and of the stream)
	indent  int  // spaces seen at the start of the current line

	runChar    byte // '`' or '~' while a run of it is being counted
	runLen     int
	runAtStart bool // the run began at a line start (fence candidate)

	fenceChar    byte // non-zero inside a fenced code block
	fenceLen     int
	closePending bool // a closing fence run was seen; confirmed at line end

	spanLen int // length of the backtick run that opened an inline span
}

// plain reports that ordinary bytes (not '<', '`', '~' or a line end)
// cannot change the state, so the caller may skip over them.
func (m *markdown) plain() bool {
	return m.midLine && m.runChar == 0 && !m.closePending
}

// inCode reports whether the byte just stepped over is inside code.
func (m *markdown) inCode() bool { return m.fenceChar != 0 || m.spanLen != 0 }

// afterInline records that an inline construct (a tool block) was passed
// over without being scanned.
func (m *markdown) afterInline() {
	m.endRun()
	m.midLine = true
	m.closePending = false
}

func (m *markdown) step(c byte) {
	if m.runChar != 0 && c != m.runChar {
		m.endRun()
	}
	switch c {
	case '\n':
		if m.closePending {
			m.fenceChar, m.fenceLen = 0, 0
		}
		m.closePending = false
		m.spanLen = 0
		m.midLine = false
		m.indent = 0
		return
	case ' ', '\t', '\r':
		if !m.midLine {
			if c == ' ' && m.indent < 3 {
				m.indent++
			} else {
				// Four columns of indent make an indented code line, which
				// cannot open a fence; its backticks are ordinary.
				m.midLine = true
			}
		}
		return
	case '`', '~':
		if m.runChar == c {
			m.runLen++
			return
		}
		m.runChar, m.runLen = c, 1
		m.runAtStart = !m.midLine
		m.midLine = true
		m.closePending = false
		return
	}
	m.midLine = true
	m.closePending = false
}

// endRun decides what a finished run of backticks or tildes was.
func (m *markdown) endRun() {
	c, n, atStart := m.runChar, m.runLen, m.runAtStart
	m.runChar, m.runLen = 0, 0
	switch {
	case c == 0:
	case m.fenceChar != 0:
		if atStart && c == m.fenceChar && n >= m.fenceLen {
			m.closePending = true
		}
	case atStart && n >= 3 && m.spanLen == 0:
		m.fenceChar, m.fenceLen = c, n
	case c == '`':
		if m.spanLen == 0 {
			m.spanLen = n
		} else if m.spanLen == n {
			m.spanLen = 0
		}
	}
}
