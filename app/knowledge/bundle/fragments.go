package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tinyrag/app/knowledge"
)

// Fragments are the documents' text, one file a document, named by the
// group of documents it belongs to: the documents with ordinals i·G to
// (i+1)·G−1 form group i (G is Manifest.Fragments.Group), and document o's
// fragment is f/<group name>/<o mod G>.json. A group's name is a hash of
// its fragments, so a fragment's URL changes whenever it or one of its
// group changes. The group table (g/<hash>.bin) lists the groups' names,
// eight bytes a group.
//
// Why groups: a query can ask for its hits' fragments as soon as it has
// ranked, if it knows their names. Names by document (four bytes each,
// format version 4's name shards) were too many to read before a large
// site's first query — 200 KB for the 50k-page bench site — so its query
// read its hits' name shards first, a round of requests before the
// fragments. A group table is an eighth of a byte a document (6.5 KB for
// 51,830 pages): the app reads it whole while it starts. The price is in
// republishing: an edited page renames its group's fragments, up to G of
// them, which returning visitors fetch again.
//
// A fragment's name no longer carries its own hash, so the file carries
// it: {"sha256": first 16 hex digits of the SHA-256 of the record's bytes,
// "record": the document and its chunks} (fragmentHead).

// fragmentGroup is how many documents' fragments share a group name: an
// edited page renames this many fragments (some 100 KB of brotli for
// SciFact's abstracts), and the group table costs 8/fragmentGroup bytes a
// document.
const fragmentGroup = 64

// groupNameLen is a group name's length in bytes (16 hex digits).
const groupNameLen = nameLen / 2

// fragment is one document and its chunks.
type fragment = knowledge.Record

// fragmentFile is the file of the fragment that is number k of the group
// named group.
func fragmentFile(group string, k int) string {
	return "f/" + group + "/" + strconv.Itoa(k) + ".json"
}

// isFragmentFile reports whether name is a fragment's file,
// f/<16 hex digits>/<number>.json.
func isFragmentFile(name string) bool {
	rest, ok := strings.CutPrefix(name, "f/")
	if !ok {
		return false
	}
	group, file, ok := strings.Cut(rest, "/")
	num, ok2 := strings.CutSuffix(file, ".json")
	if !ok || !ok2 || len(group) != nameLen || num == "" || len(num) > 9 {
		return false
	}
	if _, err := hex.DecodeString(group); err != nil {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	return num == "0" || num[0] != '0'
}

// A fragment file frames its record between fragmentHead with the
// record's hash and fragmentTail, closed by '}': JSON, and the same bytes
// json.Marshal would give such an object. Readers split it by these bytes
// (splitFragment; the service worker likewise, server/pwa/worker.js), so
// the hash is of exactly the record's bytes.
const (
	fragmentHead = `{"sha256":"`
	fragmentTail = `","record":`
)

// encodeFragment lays out a fragment as its file.
func encodeFragment(f fragment) ([]byte, error) {
	rec, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(rec)
	b := make([]byte, 0, len(fragmentHead)+nameLen+len(fragmentTail)+len(rec)+1)
	b = append(b, fragmentHead...)
	b = append(b, hex.EncodeToString(sum[:])[:nameLen]...)
	b = append(b, fragmentTail...)
	b = append(b, rec...)
	return append(b, '}'), nil
}

// splitFragment returns the hash a fragment file carries and its record's
// bytes.
func splitFragment(name string, data []byte) (sum string, rec []byte, err error) {
	n := len(fragmentHead) + nameLen
	if len(data) < n+len(fragmentTail)+1 || string(data[:len(fragmentHead)]) != fragmentHead ||
		string(data[n:n+len(fragmentTail)]) != fragmentTail || data[len(data)-1] != '}' {
		return "", nil, fmt.Errorf("%w: %s is not a fragment file", ErrDamaged, name)
	}
	return string(data[len(fragmentHead):n]), data[n+len(fragmentTail) : len(data)-1], nil
}

// checkFragment checks a fragment file's record against the hash the file
// carries (verify).
func checkFragment(name string, data []byte) error {
	want, rec, err := splitFragment(name, data)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(rec)
	if got := hex.EncodeToString(sum[:])[:nameLen]; got != want {
		return fmt.Errorf("%w: %s is not the file it says it is (content %s, it says %s)", ErrDamaged, name, got, want)
	}
	return nil
}

// decodeFragment reads a fragment file that verify has checked, and
// checks its chunks against its document.
func decodeFragment(name string, data []byte) (*fragment, error) {
	_, rec, err := splitFragment(name, data)
	if err != nil {
		return nil, err
	}
	f := &fragment{}
	if err := json.Unmarshal(rec, f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrDamaged, name, err)
	}
	if len(f.Chunks) == 0 || len(f.Chunks) != f.Document.Chunks {
		return nil, fmt.Errorf("%w: %s has %d chunks, its document says %d", ErrDamaged, name, len(f.Chunks), f.Document.Chunks)
	}
	return f, nil
}

// readFragments reads a bundle's fragments by ordinal, with their files,
// through read, which returns a file's checked bytes.
func readFragments(m *Manifest, read func(name string) ([]byte, error)) (files []string, frags []*fragment, err error) {
	data, err := read(m.Fragments.Table)
	if err != nil {
		return nil, nil, err
	}
	groups, err := decodeGroupTable(m, data)
	if err != nil {
		return nil, nil, err
	}
	per := m.Fragments.Group
	for o := range m.Docs {
		file := fragmentFile(groups[o/per], o%per)
		data, err := read(file)
		if err != nil {
			return nil, nil, err
		}
		f, err := decodeFragment(file, data)
		if err != nil {
			return nil, nil, err
		}
		files, frags = append(files, file), append(frags, f)
	}
	return files, frags, nil
}

// groupName names a group by its fragment files: the first 64 bits of a
// SHA-256 over each file's length and bytes.
func groupName(files [][]byte) string {
	h := sha256.New()
	for _, f := range files {
		h.Write(strconv.AppendInt(nil, int64(len(f)), 10))
		h.Write([]byte{'\n'})
		h.Write(f)
	}
	return hex.EncodeToString(h.Sum(nil))[:nameLen]
}

// encodeGroups lays out the group table: each group's name as 8 bytes.
func encodeGroups(names []string) ([]byte, error) {
	var b bytes.Buffer
	for _, n := range names {
		raw, err := hex.DecodeString(n)
		if err != nil || len(raw) != groupNameLen {
			return nil, fmt.Errorf("bundle: group name %q", n)
		}
		b.Write(raw)
	}
	return b.Bytes(), nil
}

// decodeGroupTable reads the group table of the bundle m describes.
func decodeGroupTable(m *Manifest, data []byte) ([]string, error) {
	per := m.Fragments.Group
	groups, err := decodeGroups(data, (m.Docs+per-1)/per)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Fragments.Table, err)
	}
	return groups, nil
}

// decodeGroups reads a group table of n groups.
func decodeGroups(data []byte, n int) ([]string, error) {
	if len(data) != n*groupNameLen {
		return nil, fmt.Errorf("%w: %d bytes of group names for %d groups", ErrDamaged, len(data), n)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = hex.EncodeToString(data[i*groupNameLen : (i+1)*groupNameLen])
	}
	return out, nil
}
