package highlight

import (
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/knowledge/analyze"
)

func TestFragments_MarkTheQuerysWordsAsTheIndexAnalysesThem(t *testing.T) {
	an, err := analyze.New("en")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query, text string
		want              []string
	}{
		{"stemmed words match", "running cats", "The cat runs.", []string{"The <mark>cat</mark> <mark>runs</mark>."}},
		{"the text is escaped", "cat", "<b>cat</b> & dog", []string{"&lt;b&gt;<mark>cat</mark>&lt;/b&gt; &amp; dog"}},
		{"no match, no fragment", "walrus", "The cat runs.", nil},
		{"stop words alone mark nothing", "the", "The cat runs.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fragments(an, tt.text, QueryTerms(an, tt.query))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFragments_AFarMatchGetsAnExcerptOfItsOwnCutAtWords(t *testing.T) {
	an, err := analyze.New("en")
	if err != nil {
		t.Fatal(err)
	}
	text := "walrus " + strings.Repeat("filler words here ", 30) + "walrus"
	got := Fragments(an, text, QueryTerms(an, "walrus"))
	if len(got) != 2 {
		t.Fatalf("got %d fragments, want 2: %q", len(got), got)
	}
	if !strings.HasPrefix(got[0], "<mark>walrus</mark> filler") || !strings.HasSuffix(got[0], "here…") {
		t.Errorf("first fragment %q: want the first match, cut after a whole word", got[0])
	}
	if !strings.HasPrefix(got[1], "…filler") || !strings.HasSuffix(got[1], "<mark>walrus</mark>") {
		t.Errorf("second fragment %q: want the last match, cut before a whole word", got[1])
	}
	for _, f := range got {
		if len(f) > fragmentLen+len("<mark></mark>……")+len("filler") {
			t.Errorf("fragment of %d bytes, want about %d: %q", len(f), fragmentLen, f)
		}
	}
}
