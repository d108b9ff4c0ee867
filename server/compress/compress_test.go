package compress

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand"
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
