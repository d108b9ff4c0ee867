package importer

import "strings"

// cleanLog keeps a log's lines but removes ANSI escape sequences (colours,
// cursor moves, terminal titles) that would otherwise pollute the index.
func cleanLog(text string) string {
	if strings.IndexByte(text, 0x1b) < 0 {
		return normalizeNewlines(text)
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); i++ {
		if text[i] != 0x1b {
			b.WriteByte(text[i])
			continue
		}
		i = skipEscape(text, i)
	}
	return normalizeNewlines(b.String())
}

// skipEscape returns the index of the last byte of the escape sequence
// starting at text[i] (an ESC byte).
func skipEscape(text string, i int) int {
	if i+1 >= len(text) {
		return i
	}
	switch text[i+1] {
	case '[': // CSI: parameters and intermediates, then one final byte 0x40–0x7E
		j := i + 2
		for j < len(text) && text[j] >= 0x20 && text[j] <= 0x3f {
			j++
		}
		for j < len(text) && text[j] >= 0x20 && text[j] <= 0x2f {
			j++
		}
		if j < len(text) && text[j] >= 0x40 && text[j] <= 0x7e {
			return j
		}
		return j - 1
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ESC \
		for j := i + 2; j < len(text); j++ {
			if text[j] == 0x07 {
				return j
			}
			if text[j] == 0x1b && j+1 < len(text) && text[j+1] == '\\' {
				return j + 1
			}
			if text[j] == '\n' {
				// An unterminated string must not swallow the rest of the log.
				return j - 1
			}
		}
		return len(text) - 1
	case '(', ')', '*', '+': // charset designation: one more byte
		if i+2 < len(text) && text[i+2] >= 0x20 && text[i+2] < 0x7f {
			return i + 2
		}
		return i + 1
	default: // two-byte sequence such as ESC 7 or ESC M
		if c := text[i+1]; c >= 0x20 && c < 0x7f {
			return i + 1
		}
		// A lone ESC before non-ASCII: drop only the ESC, never half a rune.
		return i
	}
}
