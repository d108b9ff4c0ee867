package site

import (
	"reflect"
	"testing"
)

func TestFuse(t *testing.T) {
	id := func(_, _ int, s string) string { return s }
	cases := []struct {
		name  string
		lists [][]string
		k     int
		want  []string
	}{
		{"one list keeps its order", [][]string{{"a", "b", "c"}}, 5, []string{"a", "b", "c"}},
		{"two lists interleave by rank, the first list first on ties", [][]string{{"a", "b"}, {"x", "y"}}, 4, []string{"a", "x", "b", "y"}},
		{"an item in both lists rises", [][]string{{"a", "b", "c"}, {"c", "x"}}, 4, []string{"c", "a", "b", "x"}},
		{"k cuts the tail", [][]string{{"a", "b"}, {"x", "y"}}, 2, []string{"a", "x"}},
		{"an empty list changes nothing", [][]string{{}, {"x", "y"}}, 5, []string{"x", "y"}},
		{"nothing anywhere", [][]string{{}, {}}, 5, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fuse(c.lists, id, c.k); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("fuse = %v, want %v", got, c.want)
			}
		})
	}
}
