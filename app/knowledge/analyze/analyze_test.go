package analyze

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestWordTokenizer_Words(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, world!", []string{"Hello", "world"}},
		{"don't stop", []string{"don't", "stop"}},
		{"pi is 3.14, not 3", []string{"pi", "is", "3.14", "not", "3"}},
		{"10,000 cells", []string{"10,000", "cells"}},
		{"end. Next", []string{"end", "Next"}},
		{"Grüße aus Köln", []string{"Grüße", "aus", "Köln"}},
		{"日本語", []string{"日", "本", "語"}},
		{"snake_case x-ray", []string{"snake_case", "x", "ray"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range (wordTokenizer{}).Tokenize([]byte(tt.in)) {
			got = append(got, string(tok.Term))
			if string(tok.Term) != tt.in[tok.Start:tok.End] {
				t.Errorf("%q: token %q has offsets %d..%d", tt.in, tok.Term, tok.Start, tok.End)
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEachTerm_GivesAnalyzesTermsAndPositions(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		an, err := New(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"The cats' toys, e.g. 3.5 balls and 10,000 mice!", "Die Häuser der Städte", "東京 and Zürich", ""} {
			var want, got []string
			for _, tok := range an.Analyze([]byte(text)) {
				want = append(want, fmt.Sprintf("%s@%d", tok.Term, tok.Position))
			}
			EachTerm(an, []byte(text), func(term string, pos int) {
				got = append(got, fmt.Sprintf("%s@%d", term, pos))
			})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: eachTerm %v, Analyze %v", lang, text, got, want)
			}
		}
	}
}
