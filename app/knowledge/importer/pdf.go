package importer

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Bounds on the page tree walk. Real page trees are a few levels deep; a
// cyclic or absurd tree in a hostile file hits these instead of looping.
const (
	maxPDFTreeDepth = 64
	maxPDFNodes     = 200_000
)

// errPDFTextLimit is panicked from inside the content interpreter to stop
// it once the text bound is reached; convertPDF recovers it.
var errPDFTextLimit = errors.New("pdf text limit")

// convertPDF extracts the text layer page by page, pages separated by a
// blank line. The title comes from the document information dictionary.
// The PDF library reports many parse failures by panicking; every panic is
// recovered and returned as an ErrMalformed error, per page where possible
// so one broken page does not discard the rest (it is marked in the text).
func convertPDF(name string, data []byte) (doc Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = Document{}, fmt.Errorf("%s: %w PDF: %v", name, ErrMalformed, r)
		}
	}()
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return Document{}, fmt.Errorf("%s: %w PDF: missing %%PDF- header", name, ErrMalformed)
	}
	if bytes.HasPrefix(data, []byte("%PDF-2.")) {
		// The reader only accepts 1.x headers; 2.0 files share the 1.7 syntax
		// for everything text extraction touches.
		data = bytes.Clone(data)
		copy(data[5:], "1.7")
	}
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) || bytes.Contains(data, []byte("/Encrypt")) && strings.Contains(err.Error(), "encrypt") {
			return Document{}, fmt.Errorf("%s: %w PDF: %v", name, ErrEncrypted, err)
		}
		return Document{}, fmt.Errorf("%s: %w PDF: %v", name, ErrMalformed, err)
	}
	title := collapseSpace(strings.ReplaceAll(r.Trailer().Key("Info").Key("Title").Text(), "\x00", ""))

	pages, err := pdfPages(r)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w PDF: %v", name, ErrMalformed, err)
	}
	var out strings.Builder
	failed := 0
	var firstErr error
	for i, p := range pages {
		text, err := pageText(p, out.Len())
		if errors.Is(err, errPDFTextLimit) {
			return Document{}, textTooLarge(name)
		}
		if err != nil {
			failed++
			if firstErr == nil {
				firstErr = fmt.Errorf("page %d: %w", i+1, err)
			}
			text = fmt.Sprintf("[page %d could not be read: %v]", i+1, err)
		}
		if text = tidyLines(text); text != "" {
			if out.Len() > 0 {
				out.WriteString("\n\n")
			}
			out.WriteString(text)
		}
	}
	if failed > 0 && failed == len(pages) {
		return Document{}, fmt.Errorf("%s: %w PDF: no page could be read (%d pages; %v)", name, ErrMalformed, failed, firstErr)
	}
	if strings.TrimSpace(out.String()) == "" {
		return Document{}, fmt.Errorf("%s: %w (the PDF has no text layer; scanned pages need OCR)", name, ErrEmpty)
	}
	return Document{Title: title, Text: out.String()}, nil
}

// pdfPage is a page with the resources it inherits from the page tree.
type pdfPage struct {
	v         pdf.Value
	resources pdf.Value
}

// pdfPages walks the page tree iteratively in document order, carrying
// inherited /Resources down. The library's own lookup re-parses every
// ancestor (and its whole /Kids array) for every page, which is quadratic
// in the page count and loops forever on a /Parent cycle; this walk parses
// each node once and never follows /Parent.
func pdfPages(r *pdf.Reader) ([]pdfPage, error) {
	type item struct {
		v, resources pdf.Value
		depth        int
	}
	root := r.Trailer().Key("Root").Key("Pages")
	if root.IsNull() {
		return nil, errors.New("no page tree")
	}
	stack := []item{{root, pdf.Value{}, 0}}
	var pages []pdfPage
	for nodes := 0; len(stack) > 0; nodes++ {
		if nodes > maxPDFNodes {
			return nil, fmt.Errorf("page tree has more than %d nodes or is cyclic", maxPDFNodes)
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if res := it.v.Key("Resources"); !res.IsNull() {
			it.resources = res
		}
		kids := it.v.Key("Kids")
		if it.v.Key("Type").Name() == "Page" || kids.IsNull() {
			pages = append(pages, pdfPage{it.v, it.resources})
			continue
		}
		if it.depth >= maxPDFTreeDepth {
			return nil, fmt.Errorf("page tree deeper than %d levels or cyclic", maxPDFTreeDepth)
		}
		for i := kids.Len() - 1; i >= 0; i-- {
			stack = append(stack, item{kids.Index(i), it.resources, it.depth + 1})
		}
	}
	return pages, nil
}

// pageText interprets one page's content stream. It adds line breaks for
// text positioning operators and word gaps for large TJ kerning, which the
// library's plain-text helper leaves out. already is the text size so far,
// used to stop at maxTextBytes.
func pageText(p pdfPage, already int) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if r == errPDFTextLimit {
				err = errPDFTextLimit
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	contents := p.v.Key("Contents")
	if contents.IsNull() {
		return "", nil
	}
	fonts := map[string]pdf.TextEncoding{}
	fontDict := p.resources.Key("Font")
	for _, fname := range fontDict.Keys() {
		f := pdf.Font{V: fontDict.Key(fname)}
		fonts[fname] = f.Encoder()
	}
	var b strings.Builder
	var enc pdf.TextEncoding
	lastY, haveY := 0.0, false
	show := func(s string) {
		switch {
		case enc != nil:
			s = enc.Decode(s)
		case !utf8.ValidString(s):
			// No font encoding known: PDFDocEncoding, close to Latin-1.
			s = latin1(s)
		}
		b.WriteString(s)
		if already+b.Len() > maxTextBytes {
			panic(errPDFTextLimit)
		}
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "BT", "T*":
			b.WriteByte('\n')
		case "Td", "TD":
			if len(args) == 2 && args[1].Float64() != 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case "Tm":
			if len(args) == 6 {
				y := args[5].Float64()
				if haveY && y != lastY {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
				lastY, haveY = y, true
			}
		case "Tf":
			enc = nil
			if len(args) == 2 {
				enc = fonts[args[0].Name()]
			}
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "'", "\"":
			b.WriteByte('\n')
			if len(args) > 0 {
				show(args[len(args)-1].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				switch x.Kind() {
				case pdf.String:
					show(x.RawString())
				case pdf.Integer, pdf.Real:
					if x.Float64() < -200 {
						b.WriteByte(' ')
					}
				}
			}
		}
	})
	// Fonts without a usable encoding can yield arbitrary bytes.
	return strings.ToValidUTF8(b.String(), ""), nil
}

func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// tidyLines trims each line, collapses runs of spaces and drops empty
// lines: positioning operators leave plenty of debris, and a PDF carries no
// paragraph structure to preserve (pages are separated by the caller).
func tidyLines(s string) string {
	s = normalizeNewlines(s)
	var b strings.Builder
	b.Grow(len(s))
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}
