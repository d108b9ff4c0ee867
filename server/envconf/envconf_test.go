package envconf

import (
	"errors"
	"strings"
	"testing"
)

func env(m map[string]string) *Env { return New(func(k string) string { return m[k] }) }

func TestBool_AcceptsWhatPeopleWriteAndRefusesTheRest(t *testing.T) {
	for _, tc := range []struct {
		value   string
		def     bool
		want    bool
		wantErr bool
	}{
		{"", false, false, false},
		{"", true, true, false},
		{"1", false, true, false},
		{"true", false, true, false},
		{"TRUE", false, true, false},
		{"yes", false, true, false},
		{" Yes ", false, true, false},
		{"on", false, true, false},
		{"0", true, false, false},
		{"false", true, false, false},
		{"no", true, false, false},
		{"off", true, false, false},
		{"maybe", false, false, true},
		{"2", true, true, true},
		{"enabled", false, false, true},
	} {
		e := env(map[string]string{"TINYRAG_NO_WEB": tc.value})
		got := e.Bool("TINYRAG_NO_WEB", tc.def)
		if got != tc.want {
			t.Errorf("Bool(%q, %t) = %t, want %t", tc.value, tc.def, got, tc.want)
		}
		err := e.Err()
		if (err != nil) != tc.wantErr {
			t.Errorf("Bool(%q): Err() = %v, want error %t", tc.value, err, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "TINYRAG_NO_WEB") {
			t.Errorf("Bool(%q): the error does not name the variable: %v", tc.value, err)
		}
	}
}

func TestErr_NamesEveryBadVariable(t *testing.T) {
	e := env(map[string]string{
		"TINYRAG_NO_WEB":              "perhaps",
		"TINYRAG_FETCH_ALLOW_PRIVATE": "sure",
		"TINYRAG_TRUSTED_PROXIES":     "10.0.0.1,proxy.local",
	})
	e.Bool("TINYRAG_NO_WEB", false)
	e.Bool("TINYRAG_FETCH_ALLOW_PRIVATE", false)
	e.Prefixes("TINYRAG_TRUSTED_PROXIES")
	err := e.Err()
	for _, name := range []string{"TINYRAG_NO_WEB", "TINYRAG_FETCH_ALLOW_PRIVATE", "TINYRAG_TRUSTED_PROXIES"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("Err() = %v, want it to name %s", err, name)
		}
	}
}

func TestString_TrimsAndFallsBack(t *testing.T) {
	e := env(map[string]string{"A": "  x ", "B": "   "})
	if got := e.String("A", "d"); got != "x" {
		t.Errorf("String(A) = %q, want x", got)
	}
	if got := e.String("B", "d"); got != "d" {
		t.Errorf("String(blank) = %q, want the default", got)
	}
	if got := e.String("C", "d"); got != "d" {
		t.Errorf("String(unset) = %q, want the default", got)
	}
}

func TestParsePrefixes_AddressesBecomeHostPrefixes(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"127.0.0.1", "127.0.0.1/32", false},
		{"::ffff:127.0.0.1", "127.0.0.1/32", false},
		{"10.1.2.3/8", "10.0.0.0/8", false},
		{"::1, 192.168.0.0/16", "::1/128 192.168.0.0/16", false},
		{"proxy", "", true},
	} {
		ps, err := ParsePrefixes(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParsePrefixes(%q) error = %v, want error %t", tc.in, err, tc.wantErr)
			continue
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ParsePrefixes(%q) = %v, want %s", tc.in, got, tc.want)
		}
	}
}

func TestListFunc_ParsesEachItemAndNamesTheVariableOnError(t *testing.T) {
	upper := func(s string) (string, error) {
		if s == "bad" {
			return "", errors.New(`"bad" is not an item`)
		}
		return strings.ToUpper(s), nil
	}
	e := env(map[string]string{"TINYRAG_X": "a, b bad\tc"})
	if got := e.ListFunc("TINYRAG_X", upper); strings.Join(got, ",") != "A,B,C" {
		t.Errorf("ListFunc = %q", got)
	}
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "TINYRAG_X") || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("Err() = %v, want one naming the variable and the item", err)
	}
	if got := env(nil).ListFunc("TINYRAG_X", upper); got != nil {
		t.Errorf("unset: %q", got)
	}
}
