package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/siteconfig"
)

func TestStarters_ServeAndStaticPublishThemWithinTheBounds(t *testing.T) {
	noEnv := func(string) string { return "" }
	o, err := parseServeFlags([]string{"--starter", "How do I prune?", "--starter", "  Where are  pears kept? "}, io.Discard, noEnv)
	if err != nil || !reflect.DeepEqual(o.App.Starters, []string{"How do I prune?", "Where are pears kept?"}) {
		t.Fatalf("serve --starter: %q, %v", o.App.Starters, err)
	}
	long := strings.Repeat("w", siteconfig.MaxStarterRunes+1)
	if _, err := parseServeFlags([]string{"--starter", long}, io.Discard, noEnv); err == nil || !strings.Contains(err.Error(), "--starter") {
		t.Errorf("serve with a starter over the limit: %v", err)
	}
	var many []string
	for i := 0; i <= siteconfig.MaxStarters; i++ {
		many = append(many, "--starter", "q")
	}
	if _, err := parseServeFlags(many, io.Discard, noEnv); err == nil {
		t.Error("serve took more starters than tinyrag.json holds")
	}
	err = runStatic(context.Background(), []string{"-o", t.TempDir(), "--starter", long}, io.Discard, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "--starter") {
		t.Errorf("static with a starter over the limit: %v", err)
	}

	srv := httptest.NewServer(serveHandler(t, "--starter", "How do I prune?", "--starter", "  Where are  pears kept? "))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/" + siteconfig.FileName)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	c, warns, err := siteconfig.Parse(body.Bytes())
	if err != nil || len(warns) > 0 || !reflect.DeepEqual(c.Starters, o.App.Starters) {
		t.Errorf("tinyrag.json %s: starters %q, %v %v", body.Bytes(), c.Starters, warns, err)
	}
}
