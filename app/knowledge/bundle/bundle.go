// Package bundle writes and reads knowledge bundles: a site's documents,
// chunked and indexed ahead of time, in one versioned, checksummed file.
// The browser adopts a bundle's index as it is (the knowledge base's own
// index snapshot) instead of indexing the text again, so a visitor can
// search a site's documents as soon as the app has started.
//
// Layout (big-endian integers):
//
//	"tinyrag-bundle\n"           magic
//	uint32 version               formatVersion
//	uint32 n, n bytes            header (JSON, see Info)
//	Info.SnapshotBytes bytes     the index snapshot (KB.SaveIndex's bytes)
//	Info.RecordsBytes bytes      the documents and chunks (records.go)
//	4 bytes                      CRC-32C of everything before it
//	32 bytes                     SHA-256 of everything before the CRC
//
// The browser checks the CRC: it finds any damage a transfer or a disk
// does, at a small part of SHA-256's cost in WebAssembly (hashing SciFact's
// 16 MB bundle with SHA-256 took longer than opening it). The SHA-256 names
// the bundle's content in the site config (Digest); the tools that publish
// a bundle verify it too (Verify).
//
// The snapshot carries its own version: a bundle whose snapshot the app no
// longer understands still loads, by indexing its records again.
package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"runtime/debug"
	"time"

	"tinyrag/app/knowledge"
)

const (
	magic         = "tinyrag-bundle\n"
	formatVersion = 1
	crcSize       = 4
	shaSize       = sha256.Size
	sumSize       = crcSize + shaSize
	// maxHeader bounds the JSON header, so a foreign file whose bytes
	// happen to read as a huge length is refused before it is trusted.
	maxHeader = 1 << 20
)

// Info is a bundle's header.
type Info struct {
	// Title names the bundle in the knowledge panel.
	Title     string    `json:"title"`
	Language  string    `json:"language"`
	Documents int       `json:"documents"`
	Chunks    int       `json:"chunks"`
	Created   time.Time `json:"created"`
	// SnapshotBytes and RecordsBytes are the sizes of the two sections.
	SnapshotBytes int `json:"snapshot_bytes"`
	RecordsBytes  int `json:"records_bytes"`
}

// Options configures Build.
type Options struct {
	Title string
	// Language is the analyzer language (default "en").
	Language string
	// Now stamps the documents and the bundle (default time.Now).
	Now func() time.Time
}

// Build indexes the inputs and writes them to w as one bundle. It refuses
// an empty set: a bundle that answers nothing is a mistake.
func Build(ctx context.Context, w io.Writer, ins []knowledge.Input, opt Options) (Info, error) {
	if len(ins) == 0 {
		return Info{}, errors.New("bundle: no documents to bundle")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	store := knowledge.NewMemStore()
	kb, err := knowledge.New(knowledge.Config{Language: opt.Language, Store: store, Now: opt.Now, Yield: func() {}})
	if err != nil {
		return Info{}, fmt.Errorf("bundle: %w", err)
	}
	defer kb.Close()
	if _, err := kb.AddBatch(ctx, ins, nil); err != nil {
		return Info{}, fmt.Errorf("bundle: index documents: %w", err)
	}
	snap, err := store.Index(ctx)
	if err != nil || snap == nil {
		return Info{}, fmt.Errorf("bundle: no index snapshot was saved: %v", err)
	}
	recs, err := encodeRecords(ctx, kb.Language(), kb.Documents(), store)
	if err != nil {
		return Info{}, err
	}
	info := Info{Title: opt.Title, Language: kb.Language(), Created: opt.Now().UTC(),
		SnapshotBytes: len(snap), RecordsBytes: len(recs)}
	for _, d := range kb.Documents() {
		info.Documents++
		info.Chunks += d.Chunks
	}
	if err := encode(w, info, snap, recs); err != nil {
		return Info{}, err
	}
	return info, nil
}

// encode writes the sections in the bundle layout, with the checksum.
func encode(w io.Writer, info Info, snap, recs []byte) error {
	info.SnapshotBytes, info.RecordsBytes = len(snap), len(recs)
	hdr, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("bundle: encode header: %w", err)
	}
	h := sha256.New()
	c := crc32.New(castagnoli)
	out := io.MultiWriter(w, h, c)
	var fixed [8]byte
	binary.BigEndian.PutUint32(fixed[:4], formatVersion)
	binary.BigEndian.PutUint32(fixed[4:], uint32(len(hdr)))
	for _, part := range [][]byte{[]byte(magic), fixed[:], hdr, snap, recs} {
		if _, err := out.Write(part); err != nil {
			return fmt.Errorf("bundle: write: %w", err)
		}
	}
	if _, err := w.Write(append(c.Sum(nil), h.Sum(nil)...)); err != nil {
		return fmt.Errorf("bundle: write: %w", err)
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Digest is the content hash a site config names a bundle by: the
// SHA-256 of the bundle's sections, in hex, as the file ends with it.
// It changes whenever any byte of the content does. It is read, not
// computed: Parse (which checks the CRC) or Verify (which also recomputes
// the SHA-256) must have accepted data.
func Digest(data []byte) string {
	if len(data) < sumSize {
		return ""
	}
	return hex.EncodeToString(data[len(data)-shaSize:])
}

// Verify parses data and also recomputes its SHA-256: for the tools that
// publish a bundle, where the extra time does not matter.
func Verify(data []byte) (*Bundle, error) {
	b, err := Parse(data)
	if err != nil {
		return nil, err
	}
	body := data[:len(data)-sumSize]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(data)-shaSize:]) {
		return nil, fmt.Errorf("%w: SHA-256 mismatch", ErrDamaged)
	}
	return b, nil
}

// Errors Parse wraps, so callers can tell a damaged bundle from a foreign
// file or one from a newer tinyRAG.
var (
	ErrForeign   = errors.New("not a tinyRAG knowledge bundle")
	ErrVersion   = errors.New("bundle format version not supported")
	ErrDamaged   = errors.New("bundle is damaged")
	ErrTruncated = errors.New("bundle is truncated")
)

// Bundle is a parsed, verified bundle.
type Bundle struct {
	Info     Info
	snapshot []byte
	records  []byte
}

// Parse checks a bundle's magic, version, lengths and checksum and splits
// it into its sections. Nothing in it is trusted before the checksum holds.
func Parse(data []byte) (*Bundle, error) {
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, ErrForeign
	}
	rest := data[len(magic):]
	if len(rest) < 8 {
		return nil, fmt.Errorf("%w: it ends after %d bytes", ErrTruncated, len(data))
	}
	if v := binary.BigEndian.Uint32(rest); v != formatVersion {
		return nil, fmt.Errorf("%w: the file has version %d, this app reads version %d (rebuild it with this tinyRAG's 'tinyrag bundle')", ErrVersion, v, formatVersion)
	}
	n := int(binary.BigEndian.Uint32(rest[4:]))
	rest = rest[8:]
	if n > maxHeader {
		return nil, fmt.Errorf("%w: header length %d is impossible", ErrDamaged, n)
	}
	if n+sumSize > len(rest) {
		return nil, fmt.Errorf("%w: it ends after %d bytes", ErrTruncated, len(data))
	}
	var info Info
	if err := json.Unmarshal(rest[:n], &info); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, err)
	}
	body := rest[n:]
	if info.SnapshotBytes < 0 || info.RecordsBytes < 0 {
		return nil, fmt.Errorf("%w: negative section size", ErrDamaged)
	}
	want := info.SnapshotBytes + info.RecordsBytes + sumSize
	switch {
	case len(body) < want:
		return nil, fmt.Errorf("%w: %d of %d bytes present", ErrTruncated, len(data), len(data)-len(body)+want)
	case len(body) > want:
		return nil, fmt.Errorf("%w: %d bytes more than its header announces", ErrDamaged, len(body)-want)
	}
	end := len(data) - sumSize
	if crc32.Checksum(data[:end], castagnoli) != binary.BigEndian.Uint32(data[end:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrDamaged)
	}
	return &Bundle{Info: info, snapshot: body[:info.SnapshotBytes], records: body[info.SnapshotBytes : info.SnapshotBytes+info.RecordsBytes]}, nil
}

// Open parses a bundle and opens it as a read-only knowledge base: the
// index is adopted from the snapshot; chunk text stays in the bundle's
// memory until a search needs it.
func Open(ctx context.Context, data []byte) (*knowledge.KB, Info, error) {
	// Opening allocates the document list and the index in one burst;
	// collecting less often meanwhile saves time on a first visit, most
	// of all in the browser's single thread.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	// In the browser, growing the memory in small steps costs a garbage
	// collection of the JS heap each time, as for imports; the decoded
	// index and document list are of the order of the file's size.
	knowledge.ReserveHeap(len(data))
	kb, info, _, err := open(ctx, data)
	return kb, info, err
}

func open(ctx context.Context, data []byte) (*knowledge.KB, Info, *store, error) {
	b, err := Parse(data)
	if err != nil {
		return nil, Info{}, nil, err
	}
	lang, docs, blob, err := decodeRecords(b.records)
	if err != nil {
		return nil, b.Info, nil, err
	}
	st := newStore(docs, blob, b.snapshot)
	kb, err := knowledge.Open(ctx, knowledge.Config{Language: lang, Store: st})
	if err != nil {
		return nil, b.Info, nil, fmt.Errorf("bundle: open: %w", err)
	}
	return kb, b.Info, st, nil
}
