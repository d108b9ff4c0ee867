package importer

import (
	"errors"
	"strings"
	"testing"
)

func TestImport_CSVRowsBecomeLabelledLines(t *testing.T) {
	tests := []struct {
		name, file, in, want string
	}{
		{
			name: "comma with header",
			file: "people.csv",
			in:   "name,age,city\nAlice,30,Berlin\nBob,25,Graz\n",
			want: "name: Alice; age: 30; city: Berlin\nname: Bob; age: 25; city: Graz\n",
		},
		{
			name: "semicolon delimiter (European Excel)",
			file: "preise.csv",
			in:   "Artikel;Preis\nKaffee;3,50\nTee;2,80\n",
			want: "Artikel: Kaffee; Preis: 3,50\nArtikel: Tee; Preis: 2,80\n",
		},
		{
			name: "tab delimiter sniffed in .csv",
			file: "t.csv",
			in:   "k\tv\na\t1\n",
			want: "k: a; v: 1\n",
		},
		{
			name: "tsv extension forces tab even with commas in cells",
			file: "t.tsv",
			in:   "title\tauthors\nGo\tPike, Thompson, Griesemer\n",
			want: "title: Go; authors: Pike, Thompson, Griesemer\n",
		},
		{
			name: "quoted fields with delimiters, quotes and newlines",
			file: "q.csv",
			in:   "id,note\n1,\"says \"\"hi\"\", then, leaves\"\n2,\"two\nlines\"\n",
			want: "id: 1; note: says \"hi\", then, leaves\nid: 2; note: two lines\n",
		},
		{
			name: "empty cells skipped, ragged rows kept",
			file: "r.csv",
			in:   "a,b\n1,\n,2,extra\n",
			want: "a: 1\nb: 2; column 3: extra\n",
		},
		{
			name: "numeric first row is data, not a header",
			file: "n.csv",
			in:   "1,2\n3,4\n",
			want: "1; 2\n3; 4\n",
		},
		{
			name: "header only is kept",
			file: "h.csv",
			in:   "name,email\n",
			want: "name; email",
		},
		{
			name: "CRLF line endings",
			file: "w.csv",
			in:   "x,y\r\n1,2\r\n",
			want: "x: 1; y: 2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import(tt.file, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Type != TypeCSV || doc.Text != tt.want {
				t.Errorf("Type %q Text = %q, want csv %q", doc.Type, doc.Text, tt.want)
			}
		})
	}
}

func TestImport_MalformedCSVNamesLineAndColumn(t *testing.T) {
	tests := []struct {
		name, in, wantMsg string
	}{
		{"bare quote in unquoted field", "a,b\n1,2\n3,x\"y\n", "line 3, column 4"},
		{"unterminated quoted field", "a,b\n1,\"open\n", "line 2"},
		{"text after closing quote", "a,b\n\"q\"x,1\n", "line 2, column 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import("bad.csv", []byte(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), "bad.csv") || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to name bad.csv and %q", err, tt.wantMsg)
			}
		})
	}
}

func TestImport_CSVOutputIsBounded(t *testing.T) {
	// Long header names repeated on every row multiply the text; the bound
	// must stop that instead of building gigabytes.
	withTextLimit(t, 1<<20)
	header := strings.Repeat("h", 10_000)
	var b strings.Builder
	b.WriteString(header + "\n")
	for b.Len() < 200<<10 {
		b.WriteString("v\n")
	}
	_, err := Import("wide.csv", []byte(b.String()))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// withTextLimit lowers the extracted-text bound for one test.
func withTextLimit(t *testing.T, n int) {
	old := maxTextBytes
	maxTextBytes = n
	t.Cleanup(func() { maxTextBytes = old })
}
