package backup

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

type rec struct {
	ID string `json:"id"`
}

func validRec(r rec) error {
	if r.ID == "" {
		return errors.New("record without id")
	}
	return nil
}

// export writes recs as an export in language "de" that announces n
// records.
func export(t *testing.T, n int, recs ...rec) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, "de", n)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipped compresses s, for files this package would not write.
func gzipped(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

// damagedCRC is gz with the CRC-32 of its content (gzip's trailer: CRC-32
// then length, four bytes each) changed.
func damagedCRC(gz []byte) []byte {
	b := bytes.Clone(gz)
	b[len(b)-8] ^= 0xff
	return b
}

func TestRead_GivesBackWhatWasWritten(t *testing.T) {
	lang, recs, err := Read(bytes.NewReader(export(t, 2, rec{"a"}, rec{"b"})), validRec)
	if err != nil || lang != "de" || len(recs) != 2 || recs[0].ID != "a" || recs[1].ID != "b" {
		t.Fatalf("got %q, %+v, %v", lang, recs, err)
	}
}

func TestRead_RefusesWhatIsNotAWholeValidExport(t *testing.T) {
	whole := export(t, 2, rec{"a"}, rec{"b"})
	tests := []struct {
		name, data, want string
	}{
		{"not gzip", "hello", "not a tinyRAG knowledge export"},
		{"empty", "", "not a tinyRAG knowledge export"},
		{"truncated", string(whole[:len(whole)/2]), "import"},
		{"without its last bytes (part of the length gzip ends with)", string(whole[:len(whole)-2]), "import"},
		{"with a wrong checksum", string(damagedCRC(whole)), "import"},
		{"another format", string(gzipped(`{"format":"other","version":1}`)), `format "other"`},
		{"a later version", string(gzipped(`{"format":"tinyrag-knowledge","version":2}`)), "version 2 is not supported"},
		{"fewer records than announced", string(export(t, 3, rec{"a"}, rec{"b"})), "holds 2 documents, header says 3"},
		{"an invalid record", string(export(t, 2, rec{"a"}, rec{})), "record 2: record without id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, recs, err := Read(strings.NewReader(tt.data), validRec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %+v, %v; want an error saying %q", recs, err, tt.want)
			}
		})
	}
}

// TestExport_IsTheGzipThatCompressGzipReadsAndWrites holds both gzip layers
// (the browser's streams in js/wasm, compress/gzip elsewhere) to one
// format: an export is read by compress/gzip, and a file compress/gzip
// wrote, as exports were before the browser's streams, is read back.
func TestExport_IsTheGzipThatCompressGzipReadsAndWrites(t *testing.T) {
	tests := []struct {
		name string
		recs int
		size int // bytes of each record's id
	}{
		{"no records", 0, 0},
		{"a few small records", 3, 10},
		{"records larger than one piece handed to the browser", 4, 100 << 10},
		{"many records that fill several pieces", 2000, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []rec
			var plain strings.Builder
			plain.WriteString(`{"format":"tinyrag-knowledge","version":1,"language":"de","documents":` + strconv.Itoa(tt.recs) + "}\n")
			for i := range tt.recs {
				r := rec{ID: strconv.Itoa(i) + strings.Repeat("x", tt.size)}
				recs = append(recs, r)
				plain.WriteString(`{"id":"` + r.ID + "\"}\n")
			}
			zr, err := gzip.NewReader(bytes.NewReader(export(t, tt.recs, recs...)))
			if err != nil {
				t.Fatalf("compress/gzip cannot read the export: %v", err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || string(got) != plain.String() {
				t.Fatalf("compress/gzip read %d bytes (%v), want the export's %d", len(got), err, plain.Len())
			}
			lang, back, err := Read(bytes.NewReader(gzipped(plain.String())), validRec)
			if err != nil || lang != "de" || len(back) != tt.recs {
				t.Fatalf("reading what compress/gzip wrote: %q, %d records, %v", lang, len(back), err)
			}
			for i := range back {
				if back[i] != recs[i] {
					t.Fatalf("record %d is %.20q, want %.20q", i, back[i].ID, recs[i].ID)
				}
			}
		})
	}
}
