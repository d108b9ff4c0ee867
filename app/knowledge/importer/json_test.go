package importer

import (
	"errors"
	"strings"
	"testing"
)

func TestImport_JSONFlattensToPathLines(t *testing.T) {
	tests := []struct {
		name, file, in, want string
	}{
		{
			name: "nested objects and arrays",
			file: "cfg.json",
			in:   `{"server": {"port": 8080, "hosts": ["a", "b"]}, "debug": false, "ratio": 0.25, "owner": null}`,
			want: "server.port: 8080\nserver.hosts[0]: a\nserver.hosts[1]: b\ndebug: false\nratio: 0.25\nowner: null\n",
		},
		{
			name: "array of objects at the top",
			file: "list.json",
			in:   `[{"id": 1, "tags": []}, {"id": 2, "meta": {}}]`,
			want: "[0].id: 1\n[0].tags: []\n[1].id: 2\n[1].meta: {}\n",
		},
		{
			name: "big numbers keep their digits",
			file: "n.json",
			in:   `{"id": 12345678901234567890, "e": 1e400}`,
			want: "id: 12345678901234567890\ne: 1e400\n",
		},
		{
			name: "scalar at the top",
			file: "s.json",
			in:   `"just a string"`,
			want: "just a string\n",
		},
		{
			name: "unicode escapes decoded",
			file: "u.json",
			in:   `{"greeting": "Gr\u00fc\u00dfe"}`,
			want: "greeting: Grüße\n",
		},
		{
			name: "json lines, one value per line",
			file: "events.jsonl",
			in:   "{\"e\":\"start\"}\n{\"e\":\"stop\",\"n\":[1]}\n",
			want: "[0].e: start\n[1].e: stop\n[1].n[0]: 1\n",
		},
		{
			name: "BOM before JSON",
			file: "b.json",
			in:   "\uFEFF{\"a\": 1}",
			want: "a: 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import(tt.file, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Type != TypeJSON || doc.Text != tt.want {
				t.Errorf("Type %q Text = %q, want json %q", doc.Type, doc.Text, tt.want)
			}
		})
	}
}

func TestImport_InvalidJSONNamesOffsetAndLine(t *testing.T) {
	tests := []struct {
		name, file, in, wantMsg string
	}{
		{"missing comma", "a.json", "{\n  \"a\": 1\n  \"b\": 2\n}", "line 3"},
		{"bad literal", "b.json", `{"a": tru}`, "offset 9"},
		{"truncated", "c.json", `{"a": [1, 2`, "unexpected end of input"},
		{"trailing garbage", "d.json", `{"a": 1} {"b": 2}`, "after the top-level value"},
		{"bad line in json lines", "e.jsonl", "{\"a\":1}\n{oops}\n", "line 2"},
		{"too deep", "f.json", strings.Repeat("[", 2000) + strings.Repeat("]", 2000), "nesting deeper than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import(tt.file, []byte(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tt.file) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to name %s and say %q", err, tt.file, tt.wantMsg)
			}
		})
	}
}
