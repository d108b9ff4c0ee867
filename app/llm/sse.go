package llm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLineBytes bounds one SSE line. A chat chunk is a few hundred bytes; a
// server (or something pretending to be one) that sends megabytes without a
// newline is broken, and buffering it all would let it exhaust our memory.
const MaxLineBytes = 1 << 20

// ErrLineTooLong is returned when one SSE line exceeds MaxLineBytes.
var ErrLineTooLong = fmt.Errorf("llm: server-sent event line longer than %d bytes", MaxLineBytes)

// event is one dispatched server-sent event.
type event struct {
	// Name is the "event:" field; empty means the default "message".
	Name string
	// Data is the "data:" lines joined with "\n".
	Data string
	// Error is the non-standard "error:" field llama.cpp's server uses to
	// report a failure mid-stream.
	Error string
	// Unterminated is true when EOF arrived before the blank line that ends
	// an event, so Data may have been cut.
	Unterminated bool
}

// sseDecoder reads server-sent events (the WHATWG EventSource format)
// incrementally from r, so each event is available as soon as its bytes have
// arrived — important under js/wasm, where the body is a fetch stream.
type sseDecoder struct {
	sc *bufio.Scanner
}

func newSSEDecoder(r io.Reader) *sseDecoder {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes)
	sc.Split(scanSSELines)
	return &sseDecoder{sc: sc}
}

// scanSSELines splits on CRLF, LF or a lone CR, as the SSE grammar demands.
// A CR at the very end of the buffered data is held back until the next byte
// shows whether it is half of a CRLF split across two reads; otherwise that
// split would produce a phantom empty line and dispatch an event early.
func scanSSELines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	}
	if data[i] == '\n' {
		return i + 1, data[:i], nil
	}
	if i+1 < len(data) {
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	}
	if atEOF {
		return i + 1, data[:i], nil
	}
	return 0, nil, nil
}

// Next returns the next event that carries data or an error field. It
// returns io.EOF when the input ends with no pending event.
func (d *sseDecoder) Next() (event, error) {
	var ev event
	var data strings.Builder
	hasData := false
	for d.sc.Scan() {
		line := d.sc.Text()
		if line == "" {
			if hasData || ev.Error != "" {
				ev.Data = data.String()
				return ev, nil
			}
			// An event with no data is not dispatched (SSE spec), but its
			// name must not leak into the next one.
			ev = event{}
			continue
		}
		if line[0] == ':' {
			continue // comment, e.g. ": keep-alive" or OpenRouter's ": PROCESSING"
		}
		field, value, found := strings.Cut(line, ":")
		if found && strings.HasPrefix(value, " ") {
			value = value[1:] // "data: x" and "data:x" are the same field
		}
		switch field {
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		case "event":
			ev.Name = value
		case "error":
			ev.Error = value
		}
		// id and retry only matter for EventSource reconnection, which a
		// POST chat stream never does; unknown fields are ignored by spec.
	}
	if err := d.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return event{}, ErrLineTooLong
		}
		return event{}, err
	}
	// EOF. Servers that omit the final blank line (some end with
	// "data: [DONE]\n") still deserve their last event; Unterminated lets
	// the caller treat a cut JSON payload as a truncated stream.
	if hasData || ev.Error != "" {
		ev.Data = data.String()
		ev.Unterminated = true
		return ev, nil
	}
	return event{}, io.EOF
}
