package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/embed"
	"tinyrag/app/siteconfig"
)

func TestStarters_ServeAndStaticPublishThemWithinTheBounds(t *testing.T) {
	noEnv := func(string) string { return "" }
	o, err := parseServeFlags([]string{"--starter", "How do I prune?", "--starter", "  Where are  pears kept? "}, noEnv)
	if err != nil || !reflect.DeepEqual(o.starters, []string{"How do I prune?", "Where are pears kept?"}) {
		t.Fatalf("serve --starter: %q, %v", o.starters, err)
	}
	long := strings.Repeat("w", siteconfig.MaxStarterRunes+1)
	if _, err := parseServeFlags([]string{"--starter", long}, noEnv); err == nil || !strings.Contains(err.Error(), "--starter") {
		t.Errorf("serve with a starter over the limit: %v", err)
	}
	var many []string
	for i := 0; i <= siteconfig.MaxStarters; i++ {
		many = append(many, "--starter", "q")
	}
	if _, err := parseServeFlags(many, noEnv); err == nil {
		t.Error("serve took more starters than tinyrag.json holds")
	}
	err = staticCommand(context.Background(), []string{"-o", t.TempDir(), "--starter", long}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--starter") {
		t.Errorf("static with a starter over the limit: %v", err)
	}

	mux := http.NewServeMux()
	if err := mountSiteConfig(mux, nil, embed.Policy{}, o.starters, serveEnv{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/" + siteconfig.FileName)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	c, warns, err := siteconfig.Parse(body.Bytes())
	if err != nil || len(warns) > 0 || !reflect.DeepEqual(c.Starters, o.starters) {
		t.Errorf("tinyrag.json %s: starters %q, %v %v", body.Bytes(), c.Starters, warns, err)
	}
}
