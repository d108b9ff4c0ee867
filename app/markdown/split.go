package markdown

import (
	"strings"
)

// lastBoundary returns the byte offset of the last place where src can be
// cut into two Markdown documents that render exactly as src does, or 0 if
// there is none. Such a place starts a line at column 0, right after a blank
// line, outside any fenced code block, with a first character that cannot
// continue a list or a block quote: everything before it is then closed.
//
// The rule is deliberately conservative. There is no boundary at all if src
// may hold a link reference definition ("]:"), which reaches back to
// earlier blocks; none after a fence that is indented or inside a container
// (its extent is not followed here); and none after the start of an HTML
// block of the kinds that blank lines do not end (<!--, <?, <!X, <![CDATA[,
// <script, <pre, <style, <textarea).
func lastBoundary(src string) int {
	if strings.Contains(src, "]:") {
		return 0
	}
	last := 0
	var fenceChar byte // '`' or '~' while inside a column-0 fence
	fenceLen := 0
	prevBlank := false
	for pos := 0; pos < len(src); {
		end := strings.IndexByte(src[pos:], '\n')
		next := len(src)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(src)
		}
		line := strings.TrimRight(src[pos:end], "\r")
		blank := strings.TrimLeft(line, " \t") == ""

		if fenceChar != 0 {
			// A closing fence may be indented by up to three spaces.
			closing := line
			for i := 0; i < 3 && strings.HasPrefix(closing, " "); i++ {
				closing = closing[1:]
			}
			if n := fenceRun(closing); n >= fenceLen && closing[0] == fenceChar && strings.TrimSpace(closing[n:]) == "" {
				fenceChar = 0
			}
			prevBlank = false
			pos = next
			continue
		}
		if pos > 0 && prevBlank && !blank && canStartAfterBlank(line[0]) {
			last = pos
		}
		body := strings.TrimLeft(line, " \t>*+-0123456789.)")
		switch {
		case fenceRun(line) >= 3 && (line[0] == '~' || !strings.Contains(line[fenceRun(line):], "`")):
			fenceChar, fenceLen = line[0], fenceRun(line)
		case fenceRun(body) >= 3, opensUnendingHTML(body):
			// Not followed: no boundary from here on.
			return last
		}
		prevBlank = blank
		pos = next
	}
	return last
}

// fenceRun is the length of the run of '`' or '~' that line starts with.
func fenceRun(line string) int {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return 0
	}
	n := 1
	for n < len(line) && line[n] == line[0] {
		n++
	}
	return n
}

// canStartAfterBlank reports whether a column-0 line starting with c, after
// a blank line, necessarily begins a new top-level block. List markers,
// block quotes, reference-like brackets and HTML are left out.
func canStartAfterBlank(c byte) bool {
	switch {
	case c == ' ' || c == '\t' || c == '-' || c == '+' || c == '*' || c == '>' || c == '[' || c == '<':
		return false
	case c >= '0' && c <= '9':
		return false
	}
	return true
}

// opensUnendingHTML reports whether s starts one of the HTML blocks that
// run past blank lines until their own end marker.
func opensUnendingHTML(s string) bool {
	if !strings.HasPrefix(s, "<") {
		return false
	}
	if strings.HasPrefix(s, "<!") || strings.HasPrefix(s, "<?") {
		return true
	}
	lower := strings.ToLower(s)
	for _, tag := range []string{"<script", "<pre", "<style", "<textarea"} {
		if strings.HasPrefix(lower, tag) {
			return true
		}
	}
	return false
}
