//go:build !(js && wasm)

package backup

import (
	"compress/gzip"
	"io"
)

// gzipWriter compresses what is written to it into w; Close ends the gzip
// stream.
func gzipWriter(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) }

// gzipReader reads the gzip stream r; an error means r does not start
// with one.
func gzipReader(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }
