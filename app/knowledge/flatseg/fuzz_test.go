package flatseg_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"testing"

	"tinyrag/app/knowledge/flatseg"
)

// FuzzDecode checks that Decode never panics, and that what it accepts is a
// segment: readable throughout, and saved again to bytes that decode to the
// same segment and the same bytes.
func FuzzDecode(f *testing.F) {
	// Small seeds only: the fuzzer mutates and minimizes large ones slowly.
	for _, tc := range roundTrips[:4] {
		f.Add(encode(f, tc.build(f)))
	}
	f.Add(encode(f, build(f, randomCorpus(8, 2), noIDs)))
	f.Add(seal(twoDocs(3).then(term(0, "x", 1, 1, 5), term(0, "y", 2, 1, 1, 1, 2), term(1, "z", 1, 2, 7))))
	f.Add([]byte(savedMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		// Mutated bytes almost never keep a matching checksum, so most
		// inputs stop there; sealed again they reach the body's checks.
		if len(data) >= len(savedMagic)+4 && bytes.HasPrefix(data, []byte(savedMagic)) {
			body := data[: len(data)-4 : len(data)-4]
			checkDecode(t, binary.BigEndian.AppendUint32(body, crc32.ChecksumIEEE(body)))
		}
	})
}

func checkDecode(t *testing.T, data []byte) {
	s, err := flatseg.Decode(data)
	if err != nil {
		if s != nil {
			t.Fatalf("Decode returned a segment with error %v", err)
		}
		return
	}
	first := dump(t, s)
	postingsAgree(t, s)
	saved := encode(t, s)
	again, err := flatseg.Decode(saved)
	if err != nil {
		t.Fatalf("Decode accepted %s but not its own saving of it, %s: %v", short(data), short(saved), err)
	}
	if !slices.Equal(dump(t, again), first) {
		t.Fatalf("saving and decoding changed the segment decoded from %s", short(data))
	}
	if resaved := encode(t, again); !bytes.Equal(resaved, saved) {
		t.Fatalf("saved twice, %s gives %s then %s", short(data), short(saved), short(resaved))
	}
}

// short quotes the start of data, for messages about large inputs.
func short(data []byte) string {
	if len(data) <= 80 {
		return fmt.Sprintf("%q", data)
	}
	return fmt.Sprintf("%q… (%d bytes)", data[:80], len(data))
}
