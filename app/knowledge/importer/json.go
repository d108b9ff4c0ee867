package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxNesting bounds JSON and XML depth; real documents stay far below it,
// and each level costs path bytes on every line beneath it.
const maxNesting = 1000

func jsonValid(data []byte) bool {
	return json.Valid(bytes.TrimPrefix(data, utf8BOM))
}

// jsonFrame is one open object or array.
type jsonFrame struct {
	array    bool
	index    int    // next array index
	key      string // pending object key
	wantKey  bool
	base     int // path length of the container itself
	children int
}

// convertJSON flattens JSON into "path.to.key: value" lines, arrays indexed
// as name[0]. It streams tokens, so memory is bounded by depth, not size.
// .jsonl and .ndjson files hold one value per line, prefixed [0], [1], …
// Invalid JSON is an error with byte offset, line and column.
func convertJSON(name, text string) (Document, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	ext := extOf(name)
	lines := ext == ".jsonl" || ext == ".ndjson"
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()

	var b strings.Builder
	path := make([]byte, 0, 256)
	var stack []jsonFrame
	fail := func(err error) (Document, error) {
		off := dec.InputOffset()
		var se *json.SyntaxError
		if !lines && errors.As(err, &se) {
			// The streaming decoder's offsets are relative to its buffer
			// and can be a few bytes early; a whole-input check is exact.
			var raw json.RawMessage
			if uerr := json.Unmarshal([]byte(text), &raw); uerr != nil {
				var exact *json.SyntaxError
				if errors.As(uerr, &exact) {
					se, err = exact, exact
				}
			}
		}
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read including the offending one.
			off = max(se.Offset-1, 0)
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			off = int64(len(text))
			err = errors.New("unexpected end of input")
		}
		line, col := lineCol(text, off)
		return Document{}, fmt.Errorf("%s: %w JSON at offset %d (line %d, column %d): %v", name, ErrMalformed, off, line, col, err)
	}

	for n := 0; ; n++ {
		if n > 0 && !lines {
			if _, err := dec.Token(); err != io.EOF {
				if err == nil {
					err = errors.New("unexpected data after the top-level value")
				}
				return fail(err)
			}
			break
		}
		if n > 0 && !dec.More() {
			if _, err := dec.Token(); err != io.EOF {
				return fail(err)
			}
			break
		}
		path = path[:0]
		if lines {
			path = append(path, '[')
			path = strconv.AppendInt(path, int64(n), 10)
			path = append(path, ']')
		}
		top := len(path)
		for {
			tok, err := dec.Token()
			if err != nil {
				if err == io.EOF && n == 0 && len(stack) == 0 {
					return Document{}, fmt.Errorf("%s: %w", name, ErrEmpty)
				}
				return fail(err)
			}
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				if !f.array && f.wantKey {
					if d, ok := tok.(json.Delim); ok && d == '}' {
						closeJSON(&b, &stack, &path, top)
						if len(stack) == 0 {
							break
						}
						continue
					}
					f.key, _ = tok.(string)
					f.wantKey = false
					continue
				}
				if d, ok := tok.(json.Delim); ok && d == ']' {
					closeJSON(&b, &stack, &path, top)
					if len(stack) == 0 {
						break
					}
					continue
				}
				path = path[:f.base]
				if f.array {
					path = append(path, '[')
					path = strconv.AppendInt(path, int64(f.index), 10)
					path = append(path, ']')
					f.index++
				} else {
					if len(path) > 0 {
						path = append(path, '.')
					}
					path = append(path, f.key...)
					f.wantKey = true
				}
				f.children++
			}
			if d, ok := tok.(json.Delim); ok {
				if len(stack) >= maxNesting {
					return fail(fmt.Errorf("nesting deeper than %d levels", maxNesting))
				}
				stack = append(stack, jsonFrame{array: d == '[', wantKey: d == '{', base: len(path)})
				continue
			}
			writeJSONScalar(&b, path, tok)
			if b.Len() > maxTextBytes {
				return Document{}, textTooLarge(name)
			}
			if len(stack) == 0 {
				break
			}
		}
	}
	return Document{Text: b.String()}, nil
}

// closeJSON pops the innermost container, writing "path: {}" or "path: []"
// for an empty one so its existence is not lost.
func closeJSON(b *strings.Builder, stack *[]jsonFrame, path *[]byte, top int) {
	f := (*stack)[len(*stack)-1]
	*stack = (*stack)[:len(*stack)-1]
	*path = (*path)[:f.base]
	if f.children == 0 {
		empty := "{}"
		if f.array {
			empty = "[]"
		}
		writeJSONScalar(b, *path, json.Delim(0))
		b.WriteString(empty)
		b.WriteByte('\n')
	}
	if len(*stack) == 0 {
		*path = (*path)[:top]
	}
}

// writeJSONScalar writes "path: value\n"; for the json.Delim(0) marker it
// writes only the prefix.
func writeJSONScalar(b *strings.Builder, path []byte, tok json.Token) {
	if len(path) > 0 {
		b.Write(path)
		b.WriteString(": ")
	}
	switch v := tok.(type) {
	case json.Delim:
		return
	case string:
		b.WriteString(v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprint(b, v)
	}
	b.WriteByte('\n')
}

// lineCol converts a byte offset into 1-based line and column.
func lineCol(text string, off int64) (line, col int) {
	if off > int64(len(text)) {
		off = int64(len(text))
	}
	if off < 0 {
		off = 0
	}
	head := text[:off]
	line = strings.Count(head, "\n") + 1
	col = int(off) - strings.LastIndexByte(head, '\n')
	return line, col
}
