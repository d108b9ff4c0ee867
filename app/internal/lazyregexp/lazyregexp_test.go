package lazyregexp

import (
	"regexp"
	"slices"
	"testing"
)

func TestRegexp_MatchesAsTheCompiledExpressionDoes(t *testing.T) {
	const pattern = `(\d+)-(\d+)`
	lazy, eager := New(pattern), regexp.MustCompile(pattern)
	for _, s := range []string{"", "1-2", "a 10-20 b 3-4", "none"} {
		if got, want := lazy.MatchString(s), eager.MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
		if got, want := lazy.Match([]byte(s)), eager.Match([]byte(s)); got != want {
			t.Errorf("Match(%q) = %v, want %v", s, got, want)
		}
		if got, want := lazy.FindString(s), eager.FindString(s); got != want {
			t.Errorf("FindString(%q) = %q, want %q", s, got, want)
		}
		if got, want := lazy.FindStringSubmatch(s), eager.FindStringSubmatch(s); !slices.Equal(got, want) {
			t.Errorf("FindStringSubmatch(%q) = %q, want %q", s, got, want)
		}
		if got, want := lazy.FindAllString(s, -1), eager.FindAllString(s, -1); !slices.Equal(got, want) {
			t.Errorf("FindAllString(%q) = %q, want %q", s, got, want)
		}
		if got, want := lazy.ReplaceAllString(s, "$2-$1"), eager.ReplaceAllString(s, "$2-$1"); got != want {
			t.Errorf("ReplaceAllString(%q) = %q, want %q", s, got, want)
		}
		swap := func(m string) string { return "<" + m + ">" }
		if got, want := lazy.ReplaceAllStringFunc(s, swap), eager.ReplaceAllStringFunc(s, swap); got != want {
			t.Errorf("ReplaceAllStringFunc(%q) = %q, want %q", s, got, want)
		}
	}
	if lazy.String() != pattern || lazy.Regexp().String() != pattern {
		t.Errorf("String() = %q, Regexp().String() = %q, want %q", lazy.String(), lazy.Regexp().String(), pattern)
	}
}

func TestNew_CompilesNothingUntilFirstUse(t *testing.T) {
	r := New(`(unclosed`) // a bad pattern: compiling it would panic
	if r.String() != `(unclosed` {
		t.Fatalf("String() = %q", r.String())
	}
	defer func() {
		if recover() == nil {
			t.Error("first use of a bad pattern did not panic")
		}
	}()
	r.MatchString("x")
}

func TestRegexp_CompilesOnceForConcurrentUse(t *testing.T) {
	r := New(`a+`)
	done := make(chan *regexp.Regexp)
	for range 8 {
		go func() { done <- r.Regexp() }()
	}
	first := <-done
	for range 7 {
		if got := <-done; got != first {
			t.Fatal("two goroutines got different compiled expressions")
		}
	}
}
