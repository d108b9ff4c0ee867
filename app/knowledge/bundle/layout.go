// Package bundle writes and reads knowledge bundles: a site's documents,
// chunked and indexed ahead of time, laid out for the web so that a
// visitor's query fetches only what it needs.
//
// A bundle is a folder of files, each named by its content (the first 64
// bits of its SHA-256, in hex; a fragment by its group's, fragments.go), so
// a host and a browser may cache every one for good, and a republished
// site changes only the names of what changed:
//
//	manifest-<hash>.json  what ranking needs globally: counts, field lengths,
//	                      the terms too common for feedback, and the maps
//	                      of the shard files below (Manifest)
//	t/<hash>.bin          term shards: a range of terms with their postings
//	                      and what ranking reads of the chunks they name
//	                      (postings.go)
//	g/<hash>.bin          the group table: the names of the fragments'
//	                      groups (fragments.go)
//	x/<hash>.bin          lexicon shards: the terms alone with the number of
//	                      chunks holding each, for prefix lookups (lexicon.go)
//	s/<hash>.bin          suffix shards: the terms spelt backwards, for
//	                      near-miss lookups (lexicon.go)
//	f/<group>/<k>.json    fragments: one document and its chunks
//	l/<hash>.txt          the list of every file, for a background download
//
// A visit reads the manifest and the group table once, while the app
// starts; a query then reads the term shards of its words (and, on a large
// site, the map pages that name them) and the fragments of the documents
// it shows: two rounds of requests. What a query downloads grows with its
// words' postings, not with the site.
//
// The index stays bleve's: a bundle is written from the same in-memory
// index the app builds when a visitor imports the same pages (scorch with
// flat segments, package knowledge), and read back as one segment whose
// postings arrive term by term (segment.go). Ranking runs the same code
// over the same numbers, so a bundle ranks exactly as that in-memory index
// does.
//
// Write (write.go) makes a bundle; an Index reads one: index.go opens and
// searches it, terms.go reads the term map and shards a query needs,
// texts.go the fragments of its hits, dictionary.go the lexicon and
// suffix shards of search as you type, all through fetch.go.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"
)

// Format and Version name the layout; a reader refuses any other.
const (
	Format  = "tinyrag-bundle"
	Version = 6
)

// Manifest is a bundle's manifest-<hash>.json.
type Manifest struct {
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	Title    string    `json:"title"`
	Language string    `json:"language"`
	Created  time.Time `json:"created"`
	// Docs and Chunks count the bundle's documents and chunks.
	Docs   int   `json:"docs"`
	Chunks int   `json:"chunks"`
	Stats  Stats `json:"stats"`
	// Common are the terms in more than a tenth of the chunks, which
	// pseudo-relevance feedback never adds to a query (rank.CommonTerm):
	// the one document frequency feedback asks for of many terms.
	Common []string `json:"common"`
	// Terms, Lexicon and Suffixes map term ranges to shard files.
	Terms    ShardMap `json:"terms"`
	Lexicon  ShardMap `json:"lexicon"`
	Suffixes ShardMap `json:"suffixes"`
	// Fragments says where the documents' text is.
	Fragments FragmentTable `json:"fragments"`
	// Files is the list of every file of the bundle but the manifest.
	Files FileList `json:"files"`
}

// Stats are the index-wide figures ranking reads.
type Stats struct {
	Body  FieldStats `json:"body"`
	Title FieldStats `json:"title"`
	// DocTokens is the documents' lengths added up (rank.Description).
	DocTokens int64 `json:"doc_tokens"`
}

// FieldStats are one field's figures: its length summed over the chunks,
// how many chunks have it, and its distinct terms summed over the index's
// segments (bleve's formula reads the last).
type FieldStats struct {
	Tokens      int64  `json:"tokens"`
	Chunks      int    `json:"chunks"`
	Cardinality uint64 `json:"cardinality"`
}

// ShardMap maps terms to shards: shard i holds the terms from First[i]
// (inclusive) to First[i+1] (exclusive), in byte order. A large site's
// maps are paged: then Files are map pages (p/<hash>.bin, each a ShardMap
// of up to mapPage shards, pages.go) and the manifest stays small.
type ShardMap struct {
	First []string `json:"first"`
	Files []string `json:"files"`
	Paged bool     `json:"paged,omitempty"`
}

// find returns the shard that would hold term, or -1 if there is none.
func (m ShardMap) find(term string) int {
	lo, hi := 0, len(m.First)
	for lo < hi {
		mid := (lo + hi) / 2
		if m.First[mid] <= term {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// span returns the shards that may hold terms from lo up to, but not
// including, hi ("" is no upper bound).
func (m ShardMap) span(lo, hi string) []int {
	first := max(m.find(lo), 0)
	var out []int
	for i := first; i < len(m.First); i++ {
		if hi != "" && m.First[i] >= hi && i > first {
			break
		}
		out = append(out, i)
	}
	return out
}

// FragmentTable says where the documents' fragments are (fragments.go):
// each Group documents, by ordinal, share a group name, and Table is the
// group table, which lists them.
type FragmentTable struct {
	Group int    `json:"group"`
	Table string `json:"table"`
}

// FileList names the list of a bundle's files and says how many there are
// and how many bytes they hold (uncompressed), for a download's progress.
type FileList struct {
	File  string `json:"file"`
	Count int    `json:"count"`
	Bytes int64  `json:"bytes"`
}

// Errors a reader wraps, so callers can tell what went wrong.
var (
	// ErrVersion is a manifest of another format or version.
	ErrVersion = errors.New("bundle format not supported")
	// ErrDamaged is a file whose content is not what its name or the
	// site config says, or that does not decode.
	ErrDamaged = errors.New("bundle file is damaged")
)

// maxChunks bounds the chunks a bundle may have: a reader allocates
// tables for every chunk (a few bytes each), so a manifest must not make
// it allocate without limit. 2^24 chunks is some five million pages.
const maxChunks = 1 << 24

// nameLen is how many hex digits of a file's SHA-256 name it.
const nameLen = 16

// contentName names data: dir/<hash>.ext.
func contentName(dir string, data []byte, ext string) string {
	sum := sha256.Sum256(data)
	return dir + "/" + hex.EncodeToString(sum[:])[:nameLen] + ext
}

// manifestName is the manifest's file name for its bytes.
func manifestName(data []byte) string {
	sum := sha256.Sum256(data)
	return "manifest-" + hex.EncodeToString(sum[:])[:nameLen] + ".json"
}

// IsContentNamed reports whether a bundle file's name carries its content
// hash: every file a bundle holds does, so a server may send them with
// immutable caching.
func IsContentNamed(name string) bool {
	base := path.Base(name)
	if strings.HasPrefix(base, "manifest-") {
		base = strings.TrimPrefix(base, "manifest-")
	}
	if isFragmentFile(name) {
		return true
	}
	hash, _, _ := strings.Cut(base, ".")
	if len(hash) != nameLen {
		return false
	}
	_, err := hex.DecodeString(hash)
	return err == nil
}

// verify checks that data is the file name says it is (a fragment: the
// file its own hash says, checkFragment).
func verify(name string, data []byte) error {
	if isFragmentFile(name) {
		return checkFragment(name, data)
	}
	base := path.Base(name)
	want := strings.TrimPrefix(base, "manifest-")
	want, _, _ = strings.Cut(want, ".")
	if len(want) != nameLen {
		return fmt.Errorf("%w: %s is not named by its content", ErrDamaged, name)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:])[:len(want)]; got != want {
		return fmt.Errorf("%w: %s is not the file its name says (content %s)", ErrDamaged, name, got)
	}
	return nil
}

// ParseManifest decodes a manifest and checks its format and version.
func ParseManifest(data []byte) (*Manifest, error) {
	var probe struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("%w: the manifest is not JSON: %v", ErrDamaged, err)
	}
	if probe.Format != Format {
		return nil, fmt.Errorf("%w: the manifest is not a tinyRAG bundle's (format %q)", ErrVersion, probe.Format)
	}
	if probe.Version != Version {
		return nil, fmt.Errorf("%w: the bundle has format version %d, this app reads version %d (rebuild it with this tinyRAG's 'tinyrag bundle', or update the app)", ErrVersion, probe.Version, Version)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%w: manifest: %v", ErrDamaged, err)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// check refuses a manifest whose maps cannot be right, so a reader never
// indexes past them.
func (m *Manifest) check() error {
	bad := func(what string) error { return fmt.Errorf("%w: manifest: %s", ErrDamaged, what) }
	if m.Docs <= 0 || m.Chunks < m.Docs {
		return bad("no documents")
	}
	if m.Chunks > maxChunks {
		return bad(fmt.Sprintf("%d chunks, more than a browser holds (%d)", m.Chunks, maxChunks))
	}
	for name, sm := range map[string]ShardMap{"terms": m.Terms, "lexicon": m.Lexicon, "suffixes": m.Suffixes} {
		if len(sm.First) != len(sm.Files) || len(sm.Files) == 0 {
			return bad(name + " map is inconsistent")
		}
		for i := 1; i < len(sm.First); i++ {
			if sm.First[i] <= sm.First[i-1] {
				return bad(name + " map is not sorted")
			}
		}
		for _, f := range sm.Files {
			if !IsContentNamed(f) {
				return bad(name + " names a file " + f + " that is not named by its content")
			}
		}
	}
	if f := m.Fragments; f.Group <= 0 || !strings.HasPrefix(f.Table, "g/") || !IsContentNamed(f.Table) {
		return bad("the fragments' group table is missing")
	}
	return nil
}
