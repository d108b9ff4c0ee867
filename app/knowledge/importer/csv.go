package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// convertCSV renders each row as one line of "column: value" pairs joined by
// "; " when the first row looks like a header, else as the values joined by
// "; ". Empty cells are left out; ragged rows are kept (extra cells are
// labelled "column N"). Bad quoting is an error naming line and column.
func convertCSV(name, text string) (Document, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = csvDelimiter(name, text)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true

	var b strings.Builder
	var header []string
	first := true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Document{}, fmt.Errorf("%s: %w CSV at line %d, column %d: %v", name, ErrMalformed, pe.Line, pe.Column, pe.Err)
			}
			return Document{}, fmt.Errorf("%s: %w CSV: %v", name, ErrMalformed, err)
		}
		if first {
			first = false
			if looksLikeHeader(rec) {
				header = make([]string, len(rec))
				for i, h := range rec {
					header[i] = oneLine(h)
				}
				continue
			}
		}
		writeCSVRow(&b, header, rec)
		if b.Len() > maxTextBytes {
			return Document{}, textTooLarge(name)
		}
	}
	if b.Len() == 0 && len(header) > 0 {
		// A header with no rows still says something; keep it.
		b.WriteString(strings.Join(header, "; "))
	}
	return Document{Text: b.String()}, nil
}

func writeCSVRow(b *strings.Builder, header, rec []string) {
	wrote := false
	for i, v := range rec {
		v = oneLine(v)
		if v == "" {
			continue
		}
		if wrote {
			b.WriteString("; ")
		}
		wrote = true
		if header != nil {
			if i < len(header) {
				b.WriteString(header[i])
			} else {
				b.WriteString("column " + strconv.Itoa(i+1))
			}
			b.WriteString(": ")
		}
		b.WriteString(v)
	}
	if wrote {
		b.WriteByte('\n')
	}
}

// oneLine trims a cell and folds its line breaks so a row stays one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// looksLikeHeader: every cell non-empty, none a number, no duplicates.
func looksLikeHeader(rec []string) bool {
	seen := make(map[string]bool, len(rec))
	for _, c := range rec {
		c = strings.TrimSpace(c)
		if c == "" || seen[c] {
			return false
		}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(c, ",", "."), 64); err == nil {
			return false
		}
		seen[c] = true
	}
	return len(rec) > 0
}

// csvDelimiter is tab for .tsv/.tab, else whichever of , ; or tab occurs
// most often in the first record (outside quotes), comma on a tie.
func csvDelimiter(name, text string) rune {
	if ext := extOf(name); ext == ".tsv" || ext == ".tab" {
		return '\t'
	}
	counts := map[byte]int{}
	inQuote := false
	for i := 0; i < len(text) && i < 64<<10; i++ {
		c := text[i]
		if c == '"' {
			inQuote = !inQuote
		}
		if inQuote {
			continue
		}
		if c == '\n' {
			break
		}
		if c == ',' || c == ';' || c == '\t' {
			counts[c]++
		}
	}
	best := byte(',')
	for _, c := range []byte{';', '\t'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return rune(best)
}
