package bundle

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to every decoder of a bundle's binary
// files: a damaged or hostile file must come back as an error, never a
// panic or an out-of-range number that ranking would index with.
func FuzzDecode(f *testing.F) {
	out, err := Write(ctx, corpus(12, 7), Options{ShardBytes: 200, LexiconBytes: 100, MapPage: 2})
	if err != nil {
		f.Fatal(err)
	}
	for name, b := range out.Files {
		if len(name) > 2 && name[1] == '/' {
			f.Add(name[0], b)
		}
	}
	const chunks, docs = 40, 12
	f.Fuzz(func(t *testing.T, kind byte, data []byte) {
		switch kind % 5 {
		case 0:
			tps, err := decodeTermShard(data, chunks, docs)
			if err == nil {
				for _, tp := range tps {
					for _, p := range []postingList{tp.body, tp.title} {
						for _, c := range p.docs {
							if c >= chunks {
								t.Fatalf("chunk %d of %d decoded without error", c, chunks)
							}
						}
					}
					for _, o := range tp.body.ord {
						if o < 0 || o >= docs {
							t.Fatalf("document %d of %d decoded without error", o, docs)
						}
					}
				}
			}
		case 1:
			if groups, err := decodeGroups(data, 2); err == nil && len(groups) != 2 {
				t.Fatalf("%d group names of 2 decoded without error", len(groups))
			}
			if f, err := decodeFragment("f/x/0.json", data); err == nil && (len(f.Chunks) == 0 || len(f.Chunks) != f.Document.Chunks) {
				t.Fatalf("a fragment of %d chunks, its document says %d, decoded without error", len(f.Chunks), f.Document.Chunks)
			}
		case 2:
			decodeLexicon(data, chunks)
		case 3:
			decodePage(data)
		case 4:
			ParseManifest(data)
		}
	})
}

// A bundle's document ids are its ordinals as text, as DocID writes them.
func TestOrdinalIDs_AreTheOrdinalsAsText(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 11, 99, 100, 101, 1000, 12345} {
		ids := ordinalIDs(n)
		if len(ids) != n {
			t.Fatalf("ordinalIDs(%d) has %d ids", n, len(ids))
		}
		for o, id := range ids {
			if id != strconv.Itoa(o) {
				t.Fatalf("ordinalIDs(%d)[%d] = %q", n, o, id)
			}
		}
	}
}

// A title chunk must be among its term's body chunks, which hold its
// figures: missing names the first that is not.
func TestMissing_NamesTheFirstChunkTheOtherListLacks(t *testing.T) {
	for _, tc := range []struct {
		sub, all []uint32
		want     uint32
		missing  bool
	}{
		{nil, []uint32{1, 2}, 0, false},
		{[]uint32{1, 5}, []uint32{1, 3, 5}, 0, false},
		{[]uint32{1, 4, 5}, []uint32{1, 3, 5}, 4, true},
		{[]uint32{7}, []uint32{1, 3, 5}, 7, true},
		{[]uint32{0}, nil, 0, true},
	} {
		if got, ok := missing(tc.sub, tc.all); got != tc.want || ok != tc.missing {
			t.Errorf("missing(%v, %v) = %d, %v; want %d, %v", tc.sub, tc.all, got, ok, tc.want, tc.missing)
		}
	}
}

// A term shard gives back every posting and figure it was written with,
// including a document's chunks in the index's order (its ids sort its
// chunk 10 before its chunk 2), and refuses one cut short or with a
// posting's document beyond the bundle's.
func TestTermShard_DecodesWhatWasWritten(t *testing.T) {
	const chunks, docs = 40, 6
	tps := []termPostings{
		{term: "alpha",
			body: postingList{docs: []uint32{0, 1, 2, 3, 4, 9}, freqs: []uint32{1, 2, 1, 1, 3, 1}, lens: []uint32{80, 200, 199, 150, 7, 300},
				ord: []int32{0, 0, 0, 0, 0, 2}, n: []int32{0, 1, 10, 11, 2, 0}, docLen: []uint32{900, 900, 900, 900, 900, 300}, repeats: []int32{4, 4, 4, 4, 4, 0}},
			title: postingList{docs: []uint32{0, 9}, freqs: []uint32{1, 1}, lens: []uint32{3, 5}}},
		{term: "alphabet",
			body: postingList{docs: []uint32{39}, freqs: []uint32{5}, lens: []uint32{1 << 20},
				ord: []int32{5}, n: []int32{7}, docLen: []uint32{1 << 30}, repeats: []int32{0}}},
		{term: "beta",
			body: postingList{docs: []uint32{5, 12}, freqs: []uint32{1, 1}, lens: []uint32{10, 10},
				ord: []int32{1, 3}, n: []int32{0, 0}, docLen: []uint32{10, 10}, repeats: []int32{0, 0}}},
	}
	data := encodeTermShard(tps)
	got, err := decodeTermShard(data, chunks, docs)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(p postingList) postingList {
		for _, s := range []*[]uint32{&p.docs, &p.freqs, &p.lens, &p.docLen} {
			if len(*s) == 0 {
				*s = nil
			}
		}
		for _, s := range []*[]int32{&p.ord, &p.n, &p.repeats} {
			if len(*s) == 0 {
				*s = nil
			}
		}
		return p
	}
	for i := range tps {
		if got[i].term != tps[i].term || !reflect.DeepEqual(norm(got[i].body), norm(tps[i].body)) || !reflect.DeepEqual(norm(got[i].title), norm(tps[i].title)) {
			t.Errorf("term %d: got %+v, want %+v", i, got[i], tps[i])
		}
	}
	for _, tc := range []struct {
		name         string
		data         []byte
		chunks, docs int
	}{
		{"cut short", data[:len(data)-1], chunks, docs},
		{"a byte too many", append(slices.Clone(data), 0), chunks, docs},
		{"a document beyond the bundle's", data, chunks, 5},
		{"a chunk beyond the bundle's", data, 39, docs},
	} {
		if _, err := decodeTermShard(tc.data, tc.chunks, tc.docs); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged", tc.name, err)
		}
	}
}

// countShards counts the shards shardWriter cuts (both by shardCut):
// greedily, an entry that would take a shard past the cut starting the
// next, one larger than the cut alone in its own.
func TestCountShards_CountsAsTheWriterCuts(t *testing.T) {
	for _, tc := range []struct {
		sizes []int
		cut   int
		want  int
	}{
		{nil, 4, 0},
		{[]int{5}, 4, 1},
		{[]int{3, 3, 3}, 6, 2},
		{[]int{10, 1}, 4, 2},
		{[]int{1, 10, 1}, 4, 3},
		{[]int{2, 2, 2, 2}, 4, 2},
	} {
		if got := countShards(tc.sizes, tc.cut); got != tc.want {
			t.Errorf("countShards(%v, %d) = %d, want %d", tc.sizes, tc.cut, got, tc.want)
		}
		w := shardWriter{dir: "t", c: shardCut{cut: tc.cut}, out: &Output{Files: map[string][]byte{}}}
		n := 0
		w.encode = func() []byte { n++; return []byte{byte(n)} }
		for i, s := range tc.sizes {
			w.add(strconv.Itoa(i), s)
		}
		if got := len(w.done().Files); got != tc.want {
			t.Errorf("shardWriter cut %v at %d into %d shards, countShards says %d", tc.sizes, tc.cut, got, tc.want)
		}
	}
}
