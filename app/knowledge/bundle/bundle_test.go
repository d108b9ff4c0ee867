package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle/publish"
)

var ctx = context.Background()

func fixed() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// site builds the test site's bundle.
func site(t *testing.T) []byte {
	t.Helper()
	ins, skipped, err := publish.Inputs(ctx, []string{"testdata/site"}, "")
	if err != nil || len(skipped) > 0 {
		t.Fatalf("Inputs: %v, skipped %v", err, skipped)
	}
	var buf bytes.Buffer
	info, err := Build(ctx, &buf, ins, Options{Title: "Orchard", Now: fixed})
	if err != nil {
		t.Fatal(err)
	}
	if info.Documents != 3 || info.Chunks < 3 || info.Title != "Orchard" || info.Language != "en" {
		t.Fatalf("info = %+v", info)
	}
	return buf.Bytes()
}

func TestOpen_AdoptsTheIndexWithoutIndexingAgainAndFindsPages(t *testing.T) {
	data := site(t)
	b, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	kb, info, err := Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if info.Documents != 3 || len(kb.Documents()) != 3 {
		t.Fatalf("documents: info %d, kb %d", info.Documents, len(kb.Documents()))
	}
	hits, err := kb.Search(ctx, "when to prune apple trees", knowledge.SearchOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Source != "guide/pruning.html" || hits[0].Title != "Winter pruning" {
		t.Fatalf("hits = %+v", hits)
	}
	if !strings.Contains(hits[0].Text, "late winter") {
		t.Errorf("hit text %q lacks the passage", hits[0].Text)
	}
	_, _, st, err := open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if st.rewrites != 0 {
		t.Error("the snapshot was rewritten: the bundle was indexed again instead of adopted")
	}
	_ = b
}

func TestOpen_IndexesTheRecordsWhenTheSnapshotIsFromAnotherVersion(t *testing.T) {
	b, err := Parse(site(t))
	if err != nil {
		t.Fatal(err)
	}
	old := append([]byte(nil), b.snapshot...)
	old[len("tinyrag-index\n")+3]++ // the snapshot's own version
	var buf bytes.Buffer
	if err := encode(&buf, b.Info, old, b.records); err != nil {
		t.Fatal(err)
	}
	kb, _, st, err := open(ctx, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if st.rewrites == 0 {
		t.Error("an unreadable snapshot was not replaced")
	}
	hits, err := kb.Search(ctx, "pears humidity", knowledge.SearchOptions{K: 1})
	if err != nil || len(hits) != 1 || hits[0].Source != "guide/notes.md" {
		t.Fatalf("hits = %+v, err %v", hits, err)
	}
}

func TestOpen_IsReadOnly(t *testing.T) {
	kb, _, err := Open(ctx, site(t))
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if _, err := kb.Add(ctx, knowledge.Input{Source: "x", Text: "visitor text"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Add: %v, want ErrReadOnly", err)
	}
	if err := kb.Delete(ctx, kb.Documents()[0].ID); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Delete: %v, want ErrReadOnly", err)
	}
	if len(kb.Documents()) != 3 {
		t.Errorf("documents changed: %d", len(kb.Documents()))
	}
}

func TestParse_RefusesBadFilesWithAClearError(t *testing.T) {
	good := site(t)
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x40
		return b
	}
	newer := append([]byte(nil), good...)
	newer[len(magic)+3] = 9
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty file", nil, ErrForeign},
		{"an HTML page", []byte("<!doctype html><title>404</title>"), ErrForeign},
		{"a knowledge export", []byte{0x1f, 0x8b, 8, 0}, ErrForeign},
		{"only the magic", []byte(magic), ErrTruncated},
		{"cut in the header", good[:len(magic)+20], ErrTruncated},
		{"cut in the middle", good[:len(good)/2], ErrTruncated},
		{"last byte missing", good[:len(good)-1], ErrTruncated},
		{"bytes appended", append(append([]byte(nil), good...), 0), ErrDamaged},
		{"a flipped bit in the index", flip(len(good) / 3), ErrDamaged},
		{"a flipped bit in the checksum", flip(len(good) - sumSize), ErrDamaged},
		{"a newer format", newer, ErrVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.data)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if _, _, err := Open(ctx, c.data); !errors.Is(err, c.want) {
				t.Fatalf("Open: err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestBuild_RefusesNothingToBundle(t *testing.T) {
	if _, err := Build(ctx, &bytes.Buffer{}, nil, Options{}); err == nil {
		t.Fatal("no error for an empty bundle")
	}
}

func TestDigest_IsTheSHA256TheFileEndsWithAndVerifyChecksIt(t *testing.T) {
	data := site(t)
	body := data[:len(data)-sumSize]
	sum := sha256.Sum256(body)
	if Digest(data) != hex.EncodeToString(sum[:]) {
		t.Fatalf("Digest %s, want the SHA-256 of the sections", Digest(data))
	}
	if _, err := Verify(data); err != nil {
		t.Fatal(err)
	}
	// A forged SHA-256 passes the CRC but not Verify.
	forged := append([]byte(nil), data...)
	forged[len(forged)-1] ^= 1
	if _, err := Parse(forged); err != nil {
		t.Fatalf("Parse checks only the CRC, but: %v", err)
	}
	if _, err := Verify(forged); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Verify: %v", err)
	}
}
