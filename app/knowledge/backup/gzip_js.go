//go:build js && wasm

package backup

import (
	"errors"
	"io"
	"syscall/js"

	"tinyrag/app/internal/jspromise"
)

// partSize is how much is gathered in Go before it is handed to the page
// as one piece: json.Encoder writes a record at a time, and a call into
// JavaScript per small record would cost more than the copy.
const partSize = 64 << 10

// gzipWriter keeps what is written in the page's memory, not Go's heap,
// and on Close compresses it with the browser's CompressionStream into w.
// The bytes differ from compress/gzip's; the format, and so what Read
// accepts anywhere, does not.
func gzipWriter(w io.Writer) io.WriteCloser {
	return &jsGzipWriter{w: w, parts: js.Global().Get("Array").New()}
}

type jsGzipWriter struct {
	w      io.Writer
	buf    []byte
	parts  js.Value // Uint8Arrays, the pieces of a Blob
	closed bool
	err    error
}

func (z *jsGzipWriter) Write(p []byte) (int, error) {
	if z.closed {
		return 0, errors.New("gzip: write after close")
	}
	z.buf = append(z.buf, p...)
	if len(z.buf) >= partSize {
		pushPart(z.parts, z.buf)
		z.buf = z.buf[:0]
	}
	return len(p), nil
}

func (z *jsGzipWriter) Close() error {
	if z.closed {
		return z.err
	}
	z.closed = true
	pushPart(z.parts, z.buf)
	z.buf = nil
	out := pipe(z.parts, "CompressionStream")
	z.parts = js.Undefined()
	_, z.err = io.Copy(z.w, out)
	return z.err
}

// gzipReader hands r's bytes to the page piece by piece and reads them back
// through the browser's DecompressionStream. Like gzip.NewReader it checks
// the start of the stream before it returns, so a file that is not gzip
// fails here rather than at its first record; a damaged one fails where
// the browser finds the damage.
func gzipReader(r io.Reader) (io.Reader, error) {
	parts := js.Global().Get("Array").New()
	buf := make([]byte, partSize)
	var head []byte // the first bytes, for the check below
	total := 0
	for {
		n, err := io.ReadFull(r, buf)
		pushPart(parts, buf[:n])
		if total == 0 {
			head = append(head, buf[:min(n, 3)]...)
		}
		total += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case total == 0:
		return nil, io.EOF // as gzip.NewReader says of an empty file
	case len(head) < 3 || head[0] != 0x1f || head[1] != 0x8b || head[2] != 8:
		// gzip's magic number and deflate, its only method (RFC 1952).
		return nil, errors.New("gzip: invalid header")
	}
	return pipe(parts, "DecompressionStream"), nil
}

// pushPart appends a copy of b to parts.
func pushPart(parts js.Value, b []byte) {
	if len(b) == 0 {
		return
	}
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	parts.Call("push", u)
}

// pipe streams the Blob made of parts through a new stream of the
// constructor named, in gzip's format.
func pipe(parts js.Value, constructor string) *streamReader {
	s := js.Global().Get("Blob").New(parts).Call("stream").
		Call("pipeThrough", js.Global().Get(constructor).New("gzip"))
	return &streamReader{reader: s.Call("getReader")}
}

// streamReader reads a ReadableStream of Uint8Arrays.
type streamReader struct {
	reader  js.Value
	pending []byte
	err     error // sticky
}

// fill waits for the next piece unless one is pending; it returns the
// stream's error, io.EOF at its end.
func (s *streamReader) fill() error {
	for len(s.pending) == 0 && s.err == nil {
		chunk, err := jspromise.ReadChunk(s.reader)
		switch {
		case err == io.EOF:
			s.err = io.EOF
		case err != nil:
			s.err = errors.New("gzip: " + err.Error())
		default:
			s.pending = chunk
		}
	}
	if len(s.pending) > 0 {
		return nil
	}
	return s.err
}

func (s *streamReader) Read(p []byte) (int, error) {
	if err := s.fill(); err != nil {
		return 0, err
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}
