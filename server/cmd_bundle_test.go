package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
)

func TestBundleCommand_WritesABundleTheAppCanOpen(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site.tinyrag")
	var stdout, stderr bytes.Buffer
	err := bundleCommand(context.Background(), []string{"-o", out, "-prefix", "docs/", "../app/knowledge/bundle/testdata/site"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "3 documents") || !strings.Contains(stdout.String(), bundle.Digest(data)) {
		t.Errorf("stdout = %q", stdout.String())
	}
	kb, info, err := bundle.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if info.Title != "site.tinyrag" {
		t.Errorf("title %q", info.Title)
	}
	hits, err := kb.Search(context.Background(), "prune", knowledge.SearchOptions{K: 1})
	if err != nil || len(hits) == 0 || hits[0].Source != "docs/guide/pruning.html" {
		t.Fatalf("hits %+v, err %v", hits, err)
	}
}

func TestBundleCommand_NeedsAnOutputAndAPath(t *testing.T) {
	for _, args := range [][]string{{"../app"}, {"-o", "x.tinyrag"}} {
		if err := bundleCommand(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
