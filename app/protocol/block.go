package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Elements are the inner elements a block may carry. Which one fits which
// tool is the engine's business, not the parser's.
var Elements = []string{"query", "url", "source"}

// parseXMLBlock validates one complete block, "<tool …>…</tool>", and
// returns the call it asks for. ok is false for anything the protocol does
// not allow; such a block must never be executed.
func parseXMLBlock(block string) (Call, bool) {
	c, err := checkBlock(block)
	return c, err == nil
}

// ParseBlock is parseXMLBlock for other packages: it validates one complete
// block and reports whether it is a valid call.
func ParseBlock(block string) (Call, bool) { return parseXMLBlock(block) }

// CheckBlock is ParseBlock with the reason a block is invalid.
func CheckBlock(block string) (Call, error) { return checkBlock(block) }

func checkBlock(block string) (Call, error) {
	call := Call{Raw: block, End: int64(len(block))}
	if len(block) > MaxBlockBytes {
		return call, fmt.Errorf("block is %d bytes, the limit is %d", len(block), MaxBlockBytes)
	}
	if !strings.HasPrefix(block, openTag) {
		return call, errors.New(`block does not start with "<tool "`)
	}
	if !strings.HasSuffix(block, closeTag) {
		return call, errors.New(`block does not end with "</tool>"`)
	}
	if nestedTool(block[len(openTag):]) {
		return call, errors.New("nested <tool> tag")
	}
	body := block[:len(block)-len(closeTag)]

	attrs, rest, err := parseOpenTag(body[len("<tool"):])
	if err != nil {
		return call, err
	}
	name, ok := attrs["name"]
	if !ok {
		return call, errors.New("missing name attribute")
	}
	call.Name = strings.TrimSpace(name)
	if call.Name == "" {
		return call, errors.New("empty name attribute")
	}

	elem, input, err := parseInner(rest)
	if err != nil {
		return call, err
	}
	call.Element = elem
	input = strings.TrimSpace(input)
	if input == "" {
		return call, fmt.Errorf("empty <%s>", elem)
	}
	if n := utf8.RuneCountInString(input); n > MaxInputRunes {
		return call, fmt.Errorf("<%s> is %d characters, the limit is %d", elem, n, MaxInputRunes)
	}
	call.Input = input
	return call, nil
}

// nestedTool reports whether s holds another tool start tag.
func nestedTool(s string) bool {
	for {
		i := strings.Index(s, "<tool")
		if i < 0 {
			return false
		}
		s = s[i+len("<tool"):]
		if s == "" {
			return true
		}
		switch s[0] {
		case ' ', '\t', '\r', '\n', '>', '/':
			return true
		}
	}
}

// parseOpenTag reads the attributes after "<tool" up to the closing '>'
// and returns them (entities decoded) with the rest of the text.
func parseOpenTag(s string) (map[string]string, string, error) {
	attrs := map[string]string{}
	for {
		t := trimLeftSpace(s)
		if t == "" {
			return nil, "", errors.New("start tag is not closed with >")
		}
		if t[0] == '>' {
			return attrs, t[1:], nil
		}
		if len(t) == len(s) {
			return nil, "", fmt.Errorf("expected a space before attribute at %q", clip(t))
		}
		n := 0
		for n < len(t) && isNameByte(t[n]) {
			n++
		}
		if n == 0 {
			return nil, "", fmt.Errorf("expected an attribute name at %q", clip(t))
		}
		key := t[:n]
		t = trimLeftSpace(t[n:])
		if t == "" || t[0] != '=' {
			return nil, "", fmt.Errorf("attribute %s has no =", key)
		}
		t = trimLeftSpace(t[1:])
		if t == "" || (t[0] != '"' && t[0] != '\'') {
			return nil, "", fmt.Errorf("attribute %s is not quoted", key)
		}
		q := t[0]
		end := strings.IndexByte(t[1:], q)
		if end < 0 {
			return nil, "", fmt.Errorf("attribute %s has no closing quote", key)
		}
		raw := t[1 : 1+end]
		if strings.IndexByte(raw, '<') >= 0 {
			return nil, "", fmt.Errorf("attribute %s contains <", key)
		}
		if _, dup := attrs[key]; dup {
			return nil, "", fmt.Errorf("attribute %s given twice", key)
		}
		val, err := decodeEntities(raw)
		if err != nil {
			return nil, "", fmt.Errorf("attribute %s: %w", key, err)
		}
		attrs[key] = val
		s = t[2+end:]
	}
}

// parseInner reads exactly one inner element, with only blanks around it.
func parseInner(s string) (elem, input string, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", errors.New("no inner element")
	}
	for _, e := range Elements {
		open := "<" + e + ">"
		if !strings.HasPrefix(s, open) {
			continue
		}
		closing := "</" + e + ">"
		end := strings.Index(s[len(open):], closing)
		if end < 0 {
			return "", "", fmt.Errorf("<%s> is not closed", e)
		}
		content := s[len(open) : len(open)+end]
		if extra := strings.TrimSpace(s[len(open)+end+len(closing):]); extra != "" {
			return "", "", fmt.Errorf("unexpected %q after </%s>: exactly one inner element is allowed", clip(extra), e)
		}
		if strings.HasPrefix(content, "<![CDATA[") && strings.HasSuffix(content, "]]>") && len(content) >= len("<![CDATA[]]>") {
			// CDATA lets code carry < and & verbatim.
			return e, content[len("<![CDATA[") : len(content)-len("]]>")], nil
		}
		// Go source legitimately holds "<"; in a query or URL a raw "<"
		// means markup the model should not have written there.
		if e != "source" && strings.IndexByte(content, '<') >= 0 {
			return "", "", fmt.Errorf("<%s> contains a raw < (write &lt;) or another element", e)
		}
		input, err := decodeEntities(content)
		if err != nil {
			return "", "", fmt.Errorf("<%s>: %w", e, err)
		}
		return e, input, nil
	}
	return "", "", fmt.Errorf("unknown inner element at %q: want <query>, <url> or <source>", clip(s))
}

// decodeEntities replaces the five XML entities and numeric references. An
// '&' that starts no entity stays as it is: models write "R&D" unescaped,
// and refusing that would lose real calls for no safety gain.
func decodeEntities(s string) (string, error) {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		semi := strings.IndexByte(s, ';')
		if semi < 0 || semi > 12 {
			b.WriteByte('&')
			s = s[1:]
		} else {
			ent := s[1:semi]
			switch ent {
			case "lt":
				b.WriteByte('<')
			case "gt":
				b.WriteByte('>')
			case "amp":
				b.WriteByte('&')
			case "quot":
				b.WriteByte('"')
			case "apos":
				b.WriteByte('\'')
			default:
				if len(ent) < 2 || ent[0] != '#' {
					b.WriteByte('&')
					s = s[1:]
					i = strings.IndexByte(s, '&')
					continue
				}
				var v uint64
				var err error
				if ent[1] == 'x' || ent[1] == 'X' {
					v, err = strconv.ParseUint(ent[2:], 16, 32)
				} else {
					v, err = strconv.ParseUint(ent[1:], 10, 32)
				}
				r := rune(v)
				if err != nil || v == 0 || v > utf8.MaxRune || !utf8.ValidRune(r) {
					return "", fmt.Errorf("invalid character reference &%s;", ent)
				}
				b.WriteRune(r)
			}
			s = s[semi+1:]
		}
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String(), nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == ':' || c == '.' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func trimLeftSpace(s string) string {
	return strings.TrimLeft(s, " \t\r\n")
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}
