package importer

import (
	"errors"
	"strings"
	"testing"
)

func TestImport_XMLTextWithElementPaths(t *testing.T) {
	tests := []struct {
		name, in, wantTitle, want string
	}{
		{
			name:      "elements, attributes and title",
			in:        `<?xml version="1.0" encoding="UTF-8"?><catalog><book id="b1" lang="en"><title>Go in Practice</title><price currency="EUR">39.90</price></book></catalog>`,
			wantTitle: "Go in Practice",
			want:      "catalog/book@id: b1\ncatalog/book@lang: en\ncatalog/book/title: Go in Practice\ncatalog/book/price@currency: EUR\ncatalog/book/price: 39.90\n",
		},
		{
			name: "mixed content, whitespace collapsed, entities",
			in:   "<doc><p>Hello\n   <b>big</b> world &amp; &nbsp;more</p><!-- comment --></doc>",
			want: "doc/p: Hello\ndoc/p/b: big\ndoc/p: world & more\n",
		},
		{
			name: "namespace prefixes kept, xmlns declarations dropped",
			in:   `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Ann</dc:creator></feed>`,
			want: "feed/dc:creator: Ann\n",
		},
		{
			name: "CDATA is text",
			in:   `<a><![CDATA[x < y]]></a>`,
			want: "a: x < y\n",
		},
		{
			name:      "prolog declares latin-1; bytes are decoded once",
			in:        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>Gr\xfc\xdfe</t>",
			wantTitle: "",
			want:      "t: Grüße\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("data.xml", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("Text = %q, want %q", doc.Text, tt.want)
			}
			wantTitle := tt.wantTitle
			if wantTitle == "" {
				wantTitle = "data.xml"
			}
			if doc.Title != wantTitle {
				t.Errorf("Title = %q, want %q", doc.Title, wantTitle)
			}
		})
	}
}

func TestImport_MalformedXMLNamesTheLine(t *testing.T) {
	tests := []struct {
		name, in, wantMsg string
	}{
		{"mismatched end tag", "<a>\n<b>\n</c>\n</a>", "line 3"},
		{"unclosed root", "<a>\n<b>x</b>\n", "<a> is not closed"},
		{"bad attribute", "<a>\n\n<b x=1/></a>", "line 3"},
		{"unknown entity", "<a>&bogus;</a>", "line 1"},
		{"two roots", "<a/>\n<b/>", "more than one root"},
		{"text outside root", "<a/>\ntrailing", "text outside the root"},
		{"stray end tag", "</a>", "line 1"},
		{"too deep", strings.Repeat("<a>", 1001) + strings.Repeat("</a>", 1001), "nesting deeper than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import("bad.xml", []byte(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), "bad.xml") || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to name bad.xml and say %q", err, tt.wantMsg)
			}
		})
	}
}

func TestImport_XMLEntityExpansionIsNotPerformed(t *testing.T) {
	bomb := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`
	_, err := Import("bomb.xml", []byte(bomb))
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed (custom entities are not expanded)", err)
	}
}
