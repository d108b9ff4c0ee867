package bundle

import (
	"slices"
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
			tps, err := decodeTermShard(data, chunks)
			if err == nil {
				for _, tp := range tps {
					for _, p := range []postingList{tp.body, tp.title} {
						for _, c := range p.docs {
							if c >= chunks {
								t.Fatalf("chunk %d of %d decoded without error", c, chunks)
							}
						}
					}
				}
			}
		case 1:
			fs, err := decodeFigures(data, docs, chunks)
			if err == nil {
				n := 0
				for _, d := range fs {
					n += len(d.lens)
				}
				if n > chunks {
					t.Fatalf("%d chunks of %d decoded without error", n, chunks)
				}
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

// A document's chunks are kept by their number as text, as the
// in-memory index orders its chunk ids ("id#10" before "id#2"); the
// two orders differ from the eleventh chunk on.
func TestSlotNumbers_OrderChunksByTheirNumberAsText(t *testing.T) {
	tests := []struct {
		k    int
		want []int32
	}{
		{1, []int32{0}},
		{10, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{11, []int32{0, 1, 10, 2, 3, 4, 5, 6, 7, 8, 9}},
		{12, []int32{0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9}},
		{21, []int32{0, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2, 20, 3, 4, 5, 6, 7, 8, 9}},
	}
	for _, tc := range tests {
		if got := slotNumbers(tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("slotNumbers(%d) = %v, want %v", tc.k, got, tc.want)
		}
	}
}
