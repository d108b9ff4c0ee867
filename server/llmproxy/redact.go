package llmproxy

import "bytes"

// minKeyLen is the shortest key that is scrubbed from replies: shorter
// "keys" (tests, placeholders like "x") would mangle ordinary text.
const minKeyLen = 8

const redacted = "[redacted]"

// redactor removes every occurrence of the key from a byte stream that
// arrives in arbitrary pieces. It holds back only a tail that could be the
// start of the key, so ordinary SSE chunks (which end in "\n\n") pass at
// once and per-chunk streaming is kept.
type redactor struct {
	key     []byte
	pending []byte
}

func newRedactor(key string) *redactor {
	if len(key) < minKeyLen {
		return &redactor{}
	}
	return &redactor{key: []byte(key)}
}

// feed takes the next piece and returns what can be sent now.
func (r *redactor) feed(p []byte) []byte {
	if r.key == nil {
		return p
	}
	buf := append(r.pending, p...)
	buf = bytes.ReplaceAll(buf, r.key, []byte(redacted))
	hold := 0
	for k := min(len(r.key)-1, len(buf)); k > 0; k-- {
		if bytes.HasSuffix(buf, r.key[:k]) {
			hold = k
			break
		}
	}
	out := buf[:len(buf)-hold]
	r.pending = append([]byte(nil), buf[len(buf)-hold:]...)
	return out
}

// flush returns what was held back at the end of the stream: it can no
// longer become the key.
func (r *redactor) flush() []byte {
	p := r.pending
	r.pending = nil
	return p
}
