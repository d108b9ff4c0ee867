package importer

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// convertXML writes the text content of every element as "a/b/c: text",
// and attributes as "a/b/c@name: value". Mixed content yields one line per
// text run. Malformed XML is an error naming the line. HTML entities such
// as &nbsp; are accepted because XHTML-like files use them; custom DTD
// entities are never expanded, so entity bombs cannot grow the output.
func convertXML(name, text string) (Document, error) {
	dec := xml.NewDecoder(strings.NewReader(text))
	dec.Strict = true
	dec.Entity = xml.HTMLEntity
	// Declared encodings other than UTF-8 were already decoded by
	// decodeText; the text is UTF-8 now whatever the prolog says.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }

	var b strings.Builder
	var title string
	path := make([]byte, 0, 256)
	var bases []int // path length before each open element's name
	var pending strings.Builder
	titleDepth := -1

	flush := func() {
		t := collapseSpace(pending.String())
		pending.Reset()
		if t == "" {
			return
		}
		b.Write(path)
		b.WriteString(": ")
		b.WriteString(t)
		b.WriteByte('\n')
	}
	seenRoot := false
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Document{}, xmlError(name, dec, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(bases) == 0 && seenRoot {
				return Document{}, xmlError(name, dec, errors.New("more than one root element"))
			}
			seenRoot = true
			flush()
			if len(bases) >= maxNesting {
				return Document{}, xmlError(name, dec, fmt.Errorf("nesting deeper than %d levels", maxNesting))
			}
			bases = append(bases, len(path))
			if len(path) > 0 {
				path = append(path, '/')
			}
			path = append(path, xmlName(t.Name)...)
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				if v := collapseSpace(a.Value); v != "" {
					b.Write(path)
					b.WriteByte('@')
					b.WriteString(xmlName(a.Name))
					b.WriteString(": ")
					b.WriteString(v)
					b.WriteByte('\n')
				}
			}
			if title == "" && titleDepth < 0 && strings.EqualFold(t.Name.Local, "title") {
				titleDepth = len(bases)
			}
		case xml.EndElement:
			if len(bases) == 0 {
				return Document{}, xmlError(name, dec, fmt.Errorf("unexpected end element </%s>", xmlName(t.Name)))
			}
			open := string(path[bases[len(bases)-1]:])
			open = strings.TrimPrefix(open, "/")
			if got := xmlName(t.Name); got != open {
				return Document{}, xmlError(name, dec, fmt.Errorf("element <%s> closed by </%s>", open, got))
			}
			if titleDepth == len(bases) {
				title = collapseSpace(pending.String())
				titleDepth = -1
			}
			flush()
			path = path[:bases[len(bases)-1]]
			bases = bases[:len(bases)-1]
		case xml.CharData:
			if len(bases) == 0 {
				if strings.TrimSpace(string(t)) != "" {
					return Document{}, xmlError(name, dec, errors.New("text outside the root element"))
				}
				continue
			}
			pending.Write(t)
		}
		if b.Len() > maxTextBytes {
			return Document{}, textTooLarge(name)
		}
	}
	if len(bases) > 0 {
		return Document{}, xmlError(name, dec, fmt.Errorf("unexpected end of input: <%s> is not closed", path))
	}
	if !seenRoot {
		return Document{}, xmlError(name, dec, errors.New("no root element"))
	}
	return Document{Title: title, Text: b.String()}, nil
}

func xmlName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// xmlError names the line of a syntax error; the decoder's own SyntaxError
// carries it, other errors get the decoder's current position.
func xmlError(name string, dec *xml.Decoder, err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %w XML at line %d: %s", name, ErrMalformed, se.Line, se.Msg)
	}
	line, _ := dec.InputPos()
	return fmt.Errorf("%s: %w XML at line %d: %v", name, ErrMalformed, line, err)
}
