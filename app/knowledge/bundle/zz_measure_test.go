package bundle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"tinyrag/app/knowledge"
)

func brl(b []byte) int {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, 11)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func TestZZSizes(t *testing.T) {
	dir := os.Getenv("SCI")
	if dir == "" {
		t.Skip()
	}
	mult := 1
	fmt.Sscan(os.Getenv("MULT"), &mult)
	type doc struct {
		ID          string `json:"_id"`
		Title, Text string
	}
	rd := func(f string) (out []doc) {
		fh, _ := os.Open(dir + "/" + f)
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var d doc
			json.Unmarshal(sc.Bytes(), &d)
			out = append(out, d)
		}
		return
	}
	corpus := rd("corpus.jsonl")
	queries := rd("queries-test.jsonl")
	rng := rand.New(rand.NewSource(1))
	var ins []knowledge.Input
	for i := 0; i < len(corpus)*mult; i++ {
		d := corpus[i%len(corpus)]
		text := d.Text
		if i >= len(corpus) {
			a := corpus[rng.Intn(len(corpus))]
			b := corpus[rng.Intn(len(corpus))]
			sa := strings.Split(a.Text, ". ")
			sb := strings.Split(b.Text, ". ")
			text = strings.Join(append(sa[:len(sa)/2+1], sb[len(sb)/2:]...), ". ")
			d.Title = a.Title
		}
		ins = append(ins, knowledge.Input{Title: d.Title, Text: text, Source: fmt.Sprintf("%s-%d", d.ID, i)})
	}
	brc := map[string]int{}
	for _, sb := range []int{2 << 10, 4 << 10, 8 << 10} {
		out, err := Write(ctx, ins, Options{ShardBytes: sb})
		if err != nil {
			t.Fatal(err)
		}
		var tot, totBr int
		for n, b := range out.Files {
			tot += len(b)
			if _, ok := brc[n]; !ok {
				brc[n] = brl(b)
			}
			totBr += brc[n]
		}
		fmt.Printf("shard %d: files %d, term shards %d, total raw %d br %d, manifest br %d\n", sb, len(out.Files), len(out.Manifest.Terms.Files), tot, totBr, brc[out.ManifestName])
		var per, reqs []int
		for _, q := range queries[:20] {
			ix, fs := open(t, out)
			if _, err := ix.Search(ctx, q.Text, knowledge.SearchOptions{K: 10}); err != nil {
				t.Fatal(err)
			}
			n := 0
			kinds := map[byte]int{}
			for _, f := range fs.fetched[1:] {
				n += brc[f]
				kinds[f[0]] += brc[f]
			}
			if len(per) == 0 { fmt.Printf("   first query by kind: t %d g %d d %d f %d\n", kinds['t'], kinds['g'], kinds['d'], kinds['f']) }
			per = append(per, n)
			reqs = append(reqs, len(fs.fetched)-1)
		}
		sort.Ints(per)
		sort.Ints(reqs)
		fmt.Printf("   per first query (br, excl manifest): p50 %d p90 %d; requests p50 %d p90 %d\n", per[10], per[18], reqs[10], reqs[18])
		// a visit: 20 queries in one Index
		ix, fs := open(t, out)
		for _, q := range queries[:20] {
			ix.Search(ctx, q.Text, knowledge.SearchOptions{K: 10})
		}
		n := 0
		for _, f := range fs.fetched {
			n += brc[f]
		}
		fmt.Printf("   visit of 20 queries: %d br bytes, %d requests, %d per query\n", n, len(fs.fetched), n/20)
	}
}
