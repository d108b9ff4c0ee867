package importer

import "testing"

func TestImport_MarkdownKeepsTextDropsFrontMatter(t *testing.T) {
	tests := []struct {
		name, in, wantTitle, wantText string
	}{
		{
			name:      "yaml front matter dropped, its title used",
			in:        "---\ntitle: \"Release notes\"\ntags: [a, b]\n---\n\n# v1.2\n\nFixed things.\n",
			wantTitle: "Release notes",
			wantText:  "# v1.2\n\nFixed things.\n",
		},
		{
			name:      "toml front matter dropped",
			in:        "+++\ntitle = 'Setup'\n+++\n## Install\nrun it\n",
			wantTitle: "Setup",
			wantText:  "## Install\nrun it\n",
		},
		{
			name:      "front matter without title: first heading",
			in:        "---\ndate: 2024-01-01\n---\nintro\n\n## Usage\n",
			wantTitle: "Usage",
			wantText:  "intro\n\n## Usage\n",
		},
		{
			name:      "unterminated front matter is kept as text",
			in:        "---\nnot front matter after all\n\n# Title\n",
			wantTitle: "Title",
			wantText:  "---\nnot front matter after all\n\n# Title\n",
		},
		{
			name:      "closing hashes and extra spaces trimmed from heading",
			in:        "#   Guide ##\ntext",
			wantTitle: "Guide",
			wantText:  "#   Guide ##\ntext",
		},
		{
			name:      "setext heading",
			in:        "Handbook\n========\n\nbody",
			wantTitle: "Handbook",
			wantText:  "Handbook\n========\n\nbody",
		},
		{
			name:      "heading inside a code fence is not the title",
			in:        "```sh\n# comment\n```\n\n# Real\n",
			wantTitle: "Real",
			wantText:  "```sh\n# comment\n```\n\n# Real\n",
		},
		{
			name:      "hashtag is not a heading",
			in:        "#hashtag\nplain",
			wantTitle: "doc.md",
			wantText:  "#hashtag\nplain",
		},
		{
			name:      "CRLF front matter",
			in:        "---\r\ntitle: Win\r\n---\r\nbody\r\n",
			wantTitle: "Win",
			wantText:  "body\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("doc.md", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Title != tt.wantTitle {
				t.Errorf("Title = %q, want %q", doc.Title, tt.wantTitle)
			}
			if doc.Text != tt.wantText {
				t.Errorf("Text = %q, want %q", doc.Text, tt.wantText)
			}
		})
	}
}

func TestImport_MarkdownFrontMatterOnlyIsEmpty(t *testing.T) {
	_, err := Import("meta.md", []byte("---\ntitle: only metadata\n---\n"))
	if err == nil {
		t.Fatal("want ErrEmpty for a file with front matter and no body")
	}
}
