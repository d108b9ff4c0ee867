package importer

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

var (
	utf8BOM    = []byte{0xEF, 0xBB, 0xBF}
	utf16LEBOM = []byte{0xFF, 0xFE}
	utf16BEBOM = []byte{0xFE, 0xFF}
)

// sniffLen is how much of the input the binary check looks at; like git,
// the start of a file is enough to tell text from binary.
const sniffLen = 8 << 10

// decodeText turns raw bytes into valid UTF-8 text.
//
// Order matters: a BOM is the strongest signal, then the binary check, then
// valid UTF-8 (legacy encodings with high bytes are almost never valid
// UTF-8, while mislabelled charsets are common), then a declared charset
// (Content-Type, or an HTML <meta> when isHTML), and finally Windows-1252,
// a superset of Latin-1 that decodes every byte.
func decodeText(name string, data []byte, declared string, isHTML bool) (string, error) {
	switch {
	case bytes.HasPrefix(data, utf8BOM):
		data = data[len(utf8BOM):]
	case bytes.HasPrefix(data, utf16LEBOM):
		return decodeWith(name, data, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "UTF-16LE")
	case bytes.HasPrefix(data, utf16BEBOM):
		return decodeWith(name, data, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "UTF-16BE")
	}
	if err := checkBinary(name, data); err != nil {
		return "", err
	}
	if utf8.Valid(data) {
		return string(data), nil
	}
	if enc := declaredEncoding(data, declared, isHTML); enc != nil {
		return decodeWith(name, data, enc, declared)
	}
	return decodeWith(name, data, charmap.Windows1252, "Windows-1252")
}

// declaredEncoding resolves a charset label, or for HTML a <meta charset>
// in the first kilobyte. It returns nil when nothing usable is declared.
func declaredEncoding(data []byte, declared string, isHTML bool) encoding.Encoding {
	if declared != "" {
		if enc, _ := charset.Lookup(declared); enc != nil && enc != encoding.Nop {
			return enc
		}
	}
	if isHTML {
		if enc, name, _ := charset.DetermineEncoding(data, ""); name != "utf-8" && name != "windows-1252" {
			return enc
		}
	}
	return nil
}

func decodeWith(name string, data []byte, enc encoding.Encoding, label string) (string, error) {
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", fmt.Errorf("%s: decode %s: %w", name, label, err)
	}
	// Decoders may pass through invalid sequences; the rest of the package
	// relies on valid UTF-8.
	return strings.ToValidUTF8(string(out), "\uFFFD"), nil
}

// checkBinary refuses data whose start holds a NUL byte or more than 10%
// control characters. Tab, newline, carriage return, form feed and ESC (ANSI
// colours in logs) count as text.
func checkBinary(name string, data []byte) error {
	head := data
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("%s: %w (NUL byte at offset %d)", name, ErrBinary, i)
	}
	controls := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b || c == 0x7f {
			controls++
		}
	}
	if len(head) > 0 && controls*10 > len(head) {
		return fmt.Errorf("%s: %w (%d of the first %d bytes are control characters)", name, ErrBinary, controls, len(head))
	}
	return nil
}

// normalizeNewlines turns CRLF and lone CR into LF and drops the control
// characters that survive the binary check (they carry no meaning in text
// and confuse tokenizers), keeping tabs and form feeds as whitespace.
func normalizeNewlines(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\f':
			b.WriteByte('\n')
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			// dropped
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
