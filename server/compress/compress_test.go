package compress

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestBytes_RoundTripsAtEverySize(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"pruning ", "apple ", "tree ", "winter ", "bud ", "the ", "of "}
	for _, n := range []int{0, 1, 1000, 1 << 10, 1<<10 - 16, 1<<10 - 15, 4096, 70_000, 5 << 20} {
		var b bytes.Buffer
		for b.Len() < n {
			b.WriteString(words[rng.Intn(len(words))])
		}
		in := b.Bytes()[:n]
		gz, br, err := Bytes(in, DefaultBrotli)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%d bytes: gzip: %v", n, err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, in) {
			t.Errorf("%d bytes: gzip gives back %d bytes, %v", n, len(got), err)
		}
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err != nil || !bytes.Equal(got, in) {
			t.Errorf("%d bytes: brotli gives back %d bytes, %v", n, len(got), err)
		}
	}
}

func TestWindow_IsTheSmallestThatHoldsTheFile(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 10}, {1008, 10}, {1009, 11}, {4096, 13}, {65520, 16}, {65521, 17},
		{1<<22 - 16, 22}, {1 << 22, 22}, {100 << 20, 22},
	} {
		if got := window(c.n); got != c.want {
			t.Errorf("window(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// A writer kept from an earlier file writes the next one byte for byte as
// a new writer does, whatever sizes and contents came before.
func TestBytes_AReusedWriterWritesWhatANewOneWrites(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	words := strings.Fields("orchard apple pear cherry plum blossom frost pruning graft rootstock soil compost mulch")
	for i := range 300 {
		var sb strings.Builder
		n := rng.Intn(1 << uint(4+rng.Intn(14)))
		for sb.Len() < n {
			if rng.Intn(8) == 0 {
				sb.WriteByte(byte(rng.Intn(256))) // some bytes no text has
			}
			sb.WriteString(words[rng.Intn(len(words))] + " ")
		}
		b := []byte(sb.String())
		for _, q := range []int{BundleBrotli, DefaultBrotli} {
			_, got, err := Bytes(b, q)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			w := brotli.NewWriterOptions(&want, brotli.WriterOptions{Quality: q, LGWin: window(len(b))})
			w.Write(b)
			w.Close()
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("file %d (%d bytes, quality %d): the reused writer's %d bytes differ from a new writer's %d", i, len(b), q, len(got), want.Len())
			}
		}
	}
}

// A web asset that compression does not shrink gets no siblings; a bundle
// file gets them whatever they save, since the app may ask for any bundle
// file by its .gz sibling's name.
func TestWrite_SiblingsOfIncompressibleFilesOnlyWhereAskedFor(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	noise := make([]byte, 6000)
	rng.Read(noise)
	text := []byte(strings.Repeat("prune the apple trees in late winter ", 200))
	for _, c := range []struct {
		name     string
		write    func(dst string, b []byte, level int) error
		in       []byte
		siblings bool
	}{
		{"WriteNew, text", WriteNew, text, true},
		{"WriteNew, noise", WriteNew, noise, false},
		{"WriteNewWithSiblings, text", WriteNewWithSiblings, text, true},
		{"WriteNewWithSiblings, noise", WriteNewWithSiblings, noise, true},
	} {
		dst := filepath.Join(t.TempDir(), "f.bin")
		if err := c.write(dst, c.in, BundleBrotli); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, ext := range []string{".gz", ".br"} {
			_, err := os.Stat(dst + ext)
			if got := err == nil; got != c.siblings {
				t.Errorf("%s: %s sibling written: %v, want %v", c.name, ext, got, c.siblings)
			}
		}
		if !c.siblings {
			continue
		}
		gz, _ := os.ReadFile(dst + ".gz")
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, c.in) {
			t.Errorf("%s: the .gz sibling gives back %d bytes, %v", c.name, len(got), err)
		}
	}
}
