package backup

import (
	"bytes"
	"compress/gzip"
	"errors"
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
		{"truncated", string(whole[:len(whole)/2]), "import"},
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
