package bundle

import "fmt"

// A name shard lists the fragment names of a run of documents,
// Names.Per documents from ordinal i·Per on: four bytes a document, the
// hash in its fragment's file name, f/<hash>.json (fragmentName).
//
// A query reads the name shards of the documents it shows or hands to
// feedback once it has ranked them, a round of requests before their
// fragments. A small bundle's names (at most smallNames shards) are read
// while the app starts, so its queries skip that round.

// encodeNames lays out fragment names by ordinal.
func encodeNames(names []fragName) []byte {
	b := make([]byte, 0, len(names)*len(fragName{}))
	for _, n := range names {
		b = append(b, n[:]...)
	}
	return b
}

// decodeNames reads a name shard of n documents.
func decodeNames(data []byte, n int) ([]fragName, error) {
	if len(data) != n*len(fragName{}) {
		return nil, fmt.Errorf("%w: %d bytes of names for %d documents", ErrDamaged, len(data), n)
	}
	out := make([]fragName, n)
	for i := range out {
		copy(out[i][:], data[i*len(fragName{}):])
	}
	return out, nil
}

// namesPer is how many documents a name shard covers when the writer
// chooses: a bundle whose names fit smallNames shards of 1,024 (some
// 8,000 documents, 32 KB) gets those, which the app reads whole while it
// starts; a larger one gets shards of 256 (1 KB), of which a query reads
// those of its hits.
func namesPer(docs int) int {
	if docs <= smallNames*1024 {
		return 1024
	}
	return 256
}
