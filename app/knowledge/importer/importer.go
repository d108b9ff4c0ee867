// Package importer turns files, folders and fetched web pages into clean,
// readable text for the knowledge base. It knows nothing about indexing or
// chunking: it hands back Documents and the caller decides where they go.
//
// Entry points: Import and ImportReader for one file's bytes (the browser's
// file picker and drag and drop), ImportPath for a file or folder on disk
// (the CLI's --kb), FromFetched for a body from the URL fetch proxy, and
// Skipped to apply the folder rules to a browser folder upload.
//
// Every entry point is bounded (input size, extracted text size, folder file
// count and total bytes) and linear in its input, because imports run in the
// browser on whatever a user drops in.
package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Document is one imported source, ready for chunking.
type Document struct {
	// Title comes from the content (HTML <title>, first Markdown heading,
	// PDF metadata) or, failing that, the file name.
	Title string
	// Source is the path, file name or URL the caller gave.
	Source string
	// Type is one of the Type* constants.
	Type string
	// Language is a BCP 47 tag when the content declares one (HTML lang), else "".
	Language string
	// Text is the readable text. Markdown stays Markdown because its headings
	// drive chunking.
	Text string
}

// The document types Import produces.
const (
	TypeText     = "text"
	TypeMarkdown = "markdown"
	TypeHTML     = "html"
	TypeCSV      = "csv"
	TypeJSON     = "json"
	TypeXML      = "xml"
	TypeLog      = "log"
	TypePDF      = "pdf"
)

// Sentinel errors. Returned errors wrap them and name the file, so test with
// errors.Is and show err.Error() to the user.
var (
	// ErrBinary means the content is not text (NUL bytes or mostly control characters).
	ErrBinary = errors.New("binary content, not text")
	// ErrTooLarge means the input or its extracted text exceeds a limit.
	ErrTooLarge = errors.New("too large")
	// ErrUnsupported means the format is recognised but cannot be imported
	// (office documents, archives, images, media).
	ErrUnsupported = errors.New("unsupported format")
	// ErrEmpty means there is no readable text after extraction.
	ErrEmpty = errors.New("no readable text")
	// ErrMalformed means the content does not parse as the format it claims
	// (bad CSV quoting, invalid JSON or XML, a broken PDF). The message
	// says where: line, column or byte offset.
	ErrMalformed = errors.New("malformed")
	// ErrEncrypted means a PDF needs a password.
	ErrEncrypted = errors.New("encrypted, password required")
)

// DefaultLimit bounds one input's size when the caller gives no limit.
const DefaultLimit int64 = 20 << 20

// maxTextBytes bounds the extracted text of one document. Formats that
// repeat structure per value (CSV headers, JSON paths) or decompress (PDF)
// can produce more text than input; this keeps that growth bounded.
// A variable only so tests can lower it instead of allocating 64 MiB.
var maxTextBytes = 64 << 20

// Import converts data to a Document. The format is chosen by the name's
// extension, then by sniffing the content. Inputs above DefaultLimit are
// refused with ErrTooLarge.
func Import(name string, data []byte) (Document, error) {
	if int64(len(data)) > DefaultLimit {
		return Document{}, tooLarge(name, DefaultLimit)
	}
	return importBytes(name, data)
}

// ImportReader reads at most limit bytes from r (DefaultLimit when limit <= 0)
// and imports them like Import. A longer input is refused with ErrTooLarge
// without reading more than limit+1 bytes.
func ImportReader(name string, r io.Reader, limit int64) (Document, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return Document{}, fmt.Errorf("%s: read: %w", name, err)
	}
	if int64(len(data)) > limit {
		return Document{}, tooLarge(name, limit)
	}
	return importBytes(name, data)
}

// textTooLarge reports extracted text beyond maxTextBytes; converters call
// it as soon as their output crosses the bound so they stop early.
func textTooLarge(name string) error {
	return fmt.Errorf("%s: %w: extracted text exceeds %s", name, ErrTooLarge, byteSize(int64(maxTextBytes)))
}

func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s: %w: more than %s", name, ErrTooLarge, byteSize(limit))
}

// byteSize says a limit the way a user set it: "20 MiB", "512 KiB", "100 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// importBytes converts data as the type its name and content suggest.
func importBytes(name string, data []byte) (Document, error) {
	typ, err := detectType(name, data)
	if err != nil {
		return Document{}, err
	}
	return convert(name, typ, data, "")
}

// convert runs the converter for typ and applies the checks shared by all
// formats: a title fallback, the text size bound and the empty check.
// declared is a charset label from a Content-Type header, "" when unknown.
func convert(name, typ string, data []byte, declared string) (Document, error) {
	var doc Document
	var err error
	if typ == TypePDF {
		doc, err = convertPDF(name, data)
	} else {
		var text string
		text, err = decodeText(name, data, declared, typ == TypeHTML)
		if err == nil {
			doc, err = convertText(name, typ, text)
		}
	}
	if err != nil {
		return Document{}, err
	}
	if !utf8.ValidString(doc.Text) {
		// Every converter should produce UTF-8; this keeps a converter bug
		// from handing the index bytes it cannot tokenize.
		doc.Text = strings.ToValidUTF8(doc.Text, "\uFFFD")
	}
	doc.Source = name
	doc.Type = typ
	if doc.Title == "" {
		doc.Title = baseName(name)
	}
	if len(doc.Text) > maxTextBytes {
		return Document{}, textTooLarge(name)
	}
	if strings.TrimSpace(doc.Text) == "" {
		return Document{}, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	return doc, nil
}

func convertText(name, typ, text string) (Document, error) {
	switch typ {
	case TypeMarkdown:
		return convertMarkdown(text), nil
	case TypeHTML:
		return convertHTML(name, text)
	case TypeCSV:
		return convertCSV(name, text)
	case TypeJSON:
		return convertJSON(name, text)
	case TypeXML:
		return convertXML(name, text)
	case TypeLog:
		return Document{Text: cleanLog(text)}, nil
	default:
		return Document{Text: normalizeNewlines(text)}, nil
	}
}

// baseName is the last element of a slash- or OS-separated path or URL path.
func baseName(name string) string {
	name = strings.TrimRight(name, `/\`)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// extTypes maps lower-case extensions to document types.
var extTypes = map[string]string{
	".txt": TypeText, ".text": TypeText, ".rst": TypeText, ".adoc": TypeText, ".org": TypeText,
	".md": TypeMarkdown, ".markdown": TypeMarkdown, ".mdown": TypeMarkdown, ".mkd": TypeMarkdown, ".mdx": TypeMarkdown,
	".html": TypeHTML, ".htm": TypeHTML, ".xhtml": TypeHTML,
	".csv": TypeCSV, ".tsv": TypeCSV, ".tab": TypeCSV,
	".json": TypeJSON, ".jsonl": TypeJSON, ".ndjson": TypeJSON, ".geojson": TypeJSON,
	".xml": TypeXML, ".rss": TypeXML, ".atom": TypeXML, ".opml": TypeXML, ".xsd": TypeXML,
	".log": TypeLog,
	".pdf": TypePDF,
}

// unsupportedExts are formats people try to import that are not text and
// that this package cannot read; naming them beats a generic "binary".
var unsupportedExts = map[string]string{
	".doc": "Word document", ".docx": "Word document", ".odt": "OpenDocument text",
	".xls": "Excel workbook", ".xlsx": "Excel workbook", ".ods": "OpenDocument spreadsheet",
	".ppt": "PowerPoint deck", ".pptx": "PowerPoint deck", ".odp": "OpenDocument presentation",
	".epub": "EPUB book", ".rtf": "RTF document",
	".zip": "archive", ".gz": "archive", ".tgz": "archive", ".tar": "archive", ".7z": "archive", ".rar": "archive", ".bz2": "archive", ".xz": "archive", ".zst": "archive",
	".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".webp": "image", ".bmp": "image", ".ico": "image", ".tif": "image", ".tiff": "image", ".heic": "image",
	".mp3": "audio", ".wav": "audio", ".ogg": "audio", ".flac": "audio", ".m4a": "audio",
	".mp4": "video", ".mkv": "video", ".webm": "video", ".mov": "video", ".avi": "video",
	".wasm": "WebAssembly module", ".exe": "executable", ".dll": "library", ".so": "library", ".dylib": "library", ".o": "object file", ".a": "archive",
	".woff": "font", ".woff2": "font", ".ttf": "font", ".otf": "font",
	".sqlite": "database", ".db": "database",
}

// extOf returns the lower-case extension of name, ignoring a query string
// or fragment so URLs work too.
func extOf(name string) string {
	if i := strings.IndexAny(name, "?#"); i >= 0 && strings.Contains(name, "://") {
		name = name[:i]
	}
	return strings.ToLower(path.Ext(filepath.ToSlash(baseName(name))))
}

// detectType picks a type by extension, then by content.
func detectType(name string, data []byte) (string, error) {
	ext := extOf(name)
	if typ, ok := extTypes[ext]; ok {
		return typ, nil
	}
	if what, ok := unsupportedExts[ext]; ok {
		return "", fmt.Errorf("%s: %w: %s (%s)", name, ErrUnsupported, what, ext)
	}
	if isRotatedLog(baseName(name)) {
		return TypeLog, nil
	}
	return sniffType(data), nil
}

// isRotatedLog recognises names like app.log.1 that logrotate produces.
func isRotatedLog(base string) bool {
	i := strings.LastIndex(strings.ToLower(base), ".log.")
	if i < 0 {
		return false
	}
	for _, c := range base[i+5:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(base) > i+5
}

// sniffType guesses a type from the first bytes. Unknown text is TypeText;
// binary content is caught later by decodeText.
func sniffType(data []byte) string {
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		return TypePDF
	}
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	head = bytes.TrimLeft(head, " \t\r\n")
	lower := bytes.ToLower(head)
	switch {
	case bytes.HasPrefix(lower, []byte("<!doctype html")), bytes.HasPrefix(lower, []byte("<html")):
		return TypeHTML
	case bytes.HasPrefix(lower, []byte("<?xml")):
		if bytes.Contains(lower, []byte("<html")) {
			return TypeHTML
		}
		return TypeXML
	case (bytes.HasPrefix(head, []byte("{")) || bytes.HasPrefix(head, []byte("["))) && jsonValid(data):
		return TypeJSON
	case bytes.HasPrefix(head, []byte("---\n")), bytes.HasPrefix(head, []byte("---\r\n")), bytes.HasPrefix(head, []byte("# ")):
		return TypeMarkdown
	}
	return TypeText
}
