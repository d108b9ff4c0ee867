package bundle

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/flatseg"
	"tinyrag/app/knowledge/rank"
)

// Options configures Write. Zero values mean the defaults.
type Options struct {
	// Title names the bundle in the knowledge panel.
	Title string
	// Language is the analyzer language (default "en").
	Language string
	// Now stamps the bundle's manifest (default time.Now). Its documents
	// carry no time: a build's would rename every fragment, and a
	// republished site's visitors would fetch them all again.
	Now func() time.Time
	// ShardBytes is the size at which a term shard is cut, in encoded
	// bytes before compression. A term whose postings are larger gets a
	// shard of its own. By default it is DefaultShardBytes, doubled
	// until the term map has at most preloadPages pages, the most the
	// app reads while it starts (Index.Preload in terms.go): a large site's queries then
	// need no round of map pages before their term shards.
	ShardBytes int
	// LexiconBytes is the same for lexicon and suffix shards (default
	// DefaultLexiconBytes).
	LexiconBytes int
	// MapPage is how many shards a shard map lists before it is paged
	// (default 256, pages.go).
	MapPage int
	// Previous are the sources of an earlier version of the bundle, by
	// ordinal (Sources): its pages keep their order, and new pages come
	// after them (Order).
	Previous []string
}

// The defaults, chosen from measurements (docs/site-knowledge.md).
const (
	DefaultShardBytes   = 4 << 10
	DefaultLexiconBytes = 8 << 10
)

// Output is a written bundle: every file by its name (relative to the
// bundle's folder), the manifest among them.
type Output struct {
	Manifest *Manifest
	// ManifestName is the manifest's file name, SHA256 its whole SHA-256
	// in hex (what a site config names the bundle by).
	ManifestName string
	SHA256       string
	Files        map[string][]byte
}

// Order returns the inputs in the order a bundle numbers its documents,
// each with an id that sorts in that order (knowledge.Input.ID): the
// pages of previous (an earlier version's sources by ordinal) that are
// still there, in their order, then the others by source. The index
// orders documents by id, and the order numbers documents and chunks
// and decides ties between equal scores; a republished site whose pages
// keep their numbers keeps the bytes of the files that do not list a
// changed page (docs/site-knowledge.md, "Republishing"). An in-memory
// index that must rank exactly as a bundle does, ties included, is built
// from the inputs as Order returns them.
func Order(ins []knowledge.Input, previous []string) []knowledge.Input {
	place := make(map[string]int, len(previous))
	for i, src := range previous {
		if _, ok := place[src]; !ok {
			place[src] = i
		}
	}
	out := slices.Clone(ins)
	slices.SortStableFunc(out, func(a, b knowledge.Input) int {
		pa, oka := place[a.Source]
		pb, okb := place[b.Source]
		switch {
		case oka && okb:
			return cmp.Compare(pa, pb)
		case oka != okb:
			if oka {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Source, b.Source)
	})
	for i := range out {
		sum := sha256.Sum256([]byte(out[i].Source))
		out[i].ID = fmt.Sprintf("%08x-%s", i, hex.EncodeToString(sum[:6]))
	}
	return out
}

// Write indexes the inputs and lays the index out as a bundle. It refuses
// an empty set: a bundle that answers nothing is a mistake. Two inputs
// with one Source are refused too: the later would replace the earlier.
func Write(ctx context.Context, ins []knowledge.Input, opt Options) (*Output, error) {
	if len(ins) == 0 {
		return nil, errors.New("bundle: no documents to bundle")
	}
	seen := map[string]bool{}
	for _, in := range ins {
		if in.Source != "" && seen[in.Source] {
			return nil, fmt.Errorf("bundle: two documents have the source %q", in.Source)
		}
		seen[in.Source] = true
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	opt.LexiconBytes = positive(opt.LexiconBytes, DefaultLexiconBytes)
	opt.MapPage = positive(opt.MapPage, mapPage)

	store := knowledge.NewMemStore()
	kb, err := knowledge.New(knowledge.Config{Language: opt.Language, Store: store, Yield: func() {}})
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	defer kb.Close()
	if _, err := kb.AddBatch(ctx, Order(ins, opt.Previous), nil); err != nil {
		return nil, fmt.Errorf("bundle: index documents: %w", err)
	}
	r, ix := kb.Ranker()
	desc, err := r.Describe(ix)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	ords, err := r.DocOrder(ix)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	out := &Output{Files: map[string][]byte{}}
	m := &Manifest{Format: Format, Version: Version, Title: opt.Title, Language: kb.Language(),
		Created: opt.Now().UTC(), Docs: len(ords), Chunks: len(desc.Ord), Common: []string{}}
	if err := writeDocuments(ctx, kb, store, ords, m, out); err != nil {
		return nil, err
	}
	if err := writeTerms(ix, desc, m, out, opt); err != nil {
		return nil, err
	}
	m.Stats.DocTokens = desc.Tokens
	for _, f := range []struct {
		name string
		into *FieldStats
	}{{rank.FieldBody, &m.Stats.Body}, {rank.FieldTitle, &m.Stats.Title}} {
		t := desc.Totals[f.name]
		f.into.Tokens, f.into.Chunks = t.Tokens, t.Chunks
	}
	if err := cardinality(ix, m); err != nil {
		return nil, err
	}
	// The list of files, for a background download.
	names := make([]string, 0, len(out.Files))
	var total int64
	for n, b := range out.Files {
		names = append(names, n)
		total += int64(len(b))
	}
	sort.Strings(names)
	list := []byte(strings.Join(names, "\n") + "\n")
	m.Files = FileList{File: contentName("l", list, ".txt"), Count: len(names), Bytes: total}
	out.Files[m.Files.File] = list

	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, fmt.Errorf("bundle: encode manifest: %w", err)
	}
	sum := sha256.Sum256(data)
	out.Manifest, out.ManifestName, out.SHA256 = m, manifestName(data), hex.EncodeToString(sum[:])
	out.Files[out.ManifestName] = data
	return out, nil
}

func positive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// cardinality fills the fields' distinct terms summed over the segments,
// as the in-memory index counts them.
func cardinality(ix rank.Index, m *Manifest) error {
	view, err := ix.View()
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer view.Release()
	for _, f := range []struct {
		name string
		into *FieldStats
	}{{rank.FieldBody, &m.Stats.Body}, {rank.FieldTitle, &m.Stats.Title}} {
		if f.into.Cardinality, err = view.Cardinality(f.name); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	return nil
}

// writeTerms writes the term, lexicon and suffix shards.
func writeTerms(ix rank.Index, desc *rank.Description, m *Manifest, out *Output, opt Options) error {
	view, err := ix.View()
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer view.Release()
	var segs []flatSegment
	var offset uint32
	for _, vs := range view.Segments {
		fs, ok := vs.Segment.(*flatseg.Segment)
		if !ok {
			return fmt.Errorf("bundle: segment is %T, not a flat segment", vs.Segment)
		}
		segs = append(segs, flatSegment{fs, offset})
		offset += uint32(fs.Count())
	}
	body, title, err := chunkLengths(segs, desc)
	if err != nil {
		return err
	}
	// Every body term, in byte order (a title's terms are in its
	// chunks' bodies too).
	var terms []string
	for _, s := range segs {
		terms = append(terms, s.s.Terms(rank.FieldBody)...)
	}
	sort.Strings(terms)
	terms = compact(terms)

	// Cut the term shards; a default cut doubles until the map fits
	// what the app reads while it starts. The first cut's entry sizes
	// tell how many shards a larger cut makes, so the shards are written
	// at most twice.
	cut := positive(opt.ShardBytes, DefaultShardBytes)
	shards := &Output{Files: map[string][]byte{}}
	ts, err := writeTermShards(segs, terms, body, title, desc, cut, shards)
	if err != nil {
		return err
	}
	fits := func(n int) bool { return n <= opt.MapPage || (n+opt.MapPage-1)/opt.MapPage <= preloadPages }
	sm := ts.shards
	if opt.ShardBytes == 0 && !fits(len(sm.Files)) {
		for !fits(countShards(ts.sizes, cut)) {
			cut *= 2
		}
		shards = &Output{Files: map[string][]byte{}}
		again, err := writeTermShards(segs, terms, body, title, desc, cut, shards)
		if err != nil {
			return err
		}
		sm = again.shards
	}
	maps.Copy(out.Files, shards.Files)
	m.Common = ts.common
	m.Terms = paginate(sm, opt.MapPage, out)
	m.Lexicon = paginate(writeLexicon("x", ts.lex, opt.LexiconBytes, out), opt.MapPage, out)
	rev := make([]lexEntry, len(ts.lex))
	for i, e := range ts.lex {
		rev[i] = lexEntry{reverse(e.term), e.df}
	}
	sort.Slice(rev, func(i, j int) bool { return rev[i].term < rev[j].term })
	m.Suffixes = paginate(writeLexicon("s", rev, opt.LexiconBytes, out), opt.MapPage, out)
	return nil
}

// termShards is what writeTermShards wrote and learnt: all but the
// shards' map is the same whatever the cut.
type termShards struct {
	shards ShardMap
	lex    []lexEntry // each term and its document frequency
	common []string   // the terms too common for feedback
	sizes  []int      // each term's entry size in a shard
}

// writeTermShards writes the term shards of terms, cut at about cut
// bytes, into out.
func writeTermShards(segs []flatSegment, terms []string, body, title []uint32, desc *rank.Description, cut int, out *Output) (termShards, error) {
	var shard shardColumns
	shards := shardWriter{dir: "t", c: shardCut{cut: cut}, out: out, encode: func() []byte {
		b := shard.bytes()
		shard = shardColumns{}
		return b
	}}
	ts := termShards{sizes: make([]int, 0, len(terms))}
	for _, term := range terms {
		tp := termPostings{term: term}
		for _, s := range segs {
			docs, freqs, _ := s.s.Postings(rank.FieldBody, term)
			for j, local := range docs {
				c := s.offset + local
				p := &tp.body
				p.docs, p.freqs, p.lens = append(p.docs, c), append(p.freqs, freqs[j]), append(p.lens, body[c])
				p.ord, p.n = append(p.ord, desc.Ord[c]), append(p.n, desc.N[c])
				p.docLen, p.repeats = append(p.docLen, desc.DocLength[c]), append(p.repeats, desc.Repeats[c])
			}
			docs, freqs, _ = s.s.Postings(rank.FieldTitle, term)
			for j, local := range docs {
				c := s.offset + local
				p := &tp.title
				p.docs, p.freqs, p.lens = append(p.docs, c), append(p.freqs, freqs[j]), append(p.lens, title[c])
			}
		}
		// A reader takes a title chunk's figures from the body postings.
		if c, ok := missing(tp.title.docs, tp.body.docs); ok {
			return termShards{}, fmt.Errorf("bundle: the term %q is in chunk %d's title but not in its body", tp.term, c)
		}
		df := len(tp.body.docs)
		if rank.CommonTerm(df, len(desc.Ord)) {
			ts.common = append(ts.common, term)
		}
		ts.lex = append(ts.lex, lexEntry{term, uint32(df)})
		size := termSize(&tp)
		ts.sizes = append(ts.sizes, size)
		shards.add(term, size)
		shard.add(&tp)
	}
	ts.shards = shards.done()
	return ts, nil
}

// countShards is how many shards entries of sizes make, cut at cut.
func countShards(sizes []int, cut int) int {
	c, n := shardCut{cut: cut}, 0
	for _, s := range sizes {
		if c.add(s) {
			n++
		}
	}
	return n
}

// flatSegment is one segment of the in-memory index and the number of its
// first chunk.
type flatSegment struct {
	s      *flatseg.Segment
	offset uint32
}

// chunkLengths returns every chunk's body and title length, by the
// chunk's number across segments, and checks that the index keeps its
// documents in the order of their ordinals, each document's chunks
// together: a term shard codes a posting's document as the difference
// from the previous posting's.
func chunkLengths(segs []flatSegment, desc *rank.Description) (body, title []uint32, err error) {
	for _, s := range segs {
		body = append(body, s.s.Lengths(rank.FieldBody)...)
		n := int(s.s.Count())
		t := s.s.Lengths(rank.FieldTitle)
		if t == nil {
			t = make([]uint32, n)
		}
		title = append(title, t[:n]...)
	}
	if len(body) != len(desc.Ord) || len(title) != len(desc.Ord) {
		return nil, nil, fmt.Errorf("bundle: %d chunk lengths for %d chunks", len(body), len(desc.Ord))
	}
	next := int32(0)
	for c, o := range desc.Ord {
		if o == next {
			next++
		} else if c == 0 || o != desc.Ord[c-1] {
			return nil, nil, fmt.Errorf("bundle: chunk %d belongs to document %d, expected %d: the index does not keep documents in ordinal order", c, o, next)
		}
	}
	if int(next) != desc.Docs {
		return nil, nil, fmt.Errorf("bundle: %d documents have chunks, %d have ordinals", next, desc.Docs)
	}
	return body, title, nil
}

// compact drops repeats from a sorted slice.
func compact(s []string) []string {
	out := s[:0]
	for i, t := range s {
		if i == 0 || t != s[i-1] {
			out = append(out, t)
		}
	}
	return out
}

// shardCut is the rule shards are cut by: greedily, an entry that would
// take the current shard past cut bytes starts the next one (an entry
// larger than cut gets a shard of its own).
type shardCut struct {
	cut  int
	size int // the current shard's entries' bytes
	n    int // its entries
}

// add counts an entry of size bytes and reports whether it starts a new
// shard (the first entry does).
func (c *shardCut) add(size int) bool {
	starts := c.n == 0 || c.size+size > c.cut
	if starts {
		c.size, c.n = 0, 0
	}
	c.size += size
	c.n++
	return starts
}

// shardWriter cuts a sorted run of entries into shards (shardCut); encode
// returns the entries given since the last shard as a shard, and forgets
// them.
type shardWriter struct {
	dir     string
	c       shardCut
	out     *Output
	encode  func() []byte
	m       ShardMap
	first   string // the current shard's first entry
	pending bool   // the current shard has entries not yet written
}

// add counts an entry of size bytes that the caller gives encode next;
// an entry that starts a new shard writes the one before.
func (w *shardWriter) add(term string, size int) {
	if w.c.add(size) {
		w.flush()
		w.first, w.pending = term, true
	}
}

func (w *shardWriter) flush() {
	if !w.pending {
		return
	}
	data := w.encode()
	name := contentName(w.dir, data, ".bin")
	w.out.Files[name] = data
	w.m.First = append(w.m.First, w.first)
	w.m.Files = append(w.m.Files, name)
	w.pending = false
}

func (w *shardWriter) done() ShardMap {
	w.flush()
	if len(w.m.First) > 0 {
		w.m.First[0] = "" // the first shard holds everything before the second
	}
	return w.m
}

// writeLexicon writes entries, sorted, as shards in dir.
func writeLexicon(dir string, entries []lexEntry, cut int, out *Output) ShardMap {
	var shard []lexEntry
	w := shardWriter{dir: dir, c: shardCut{cut: cut}, out: out, encode: func() []byte {
		b := encodeLexicon(nil, shard)
		shard = shard[:0]
		return b
	}}
	prev := ""
	for _, e := range entries {
		w.add(e.term, len(appendUvarint(appendTerm(nil, prev, e.term), uint64(e.df))))
		shard = append(shard, e)
		prev = e.term
	}
	return w.done()
}

// writeDocuments writes each document's fragment, in groups of
// fragmentGroup by ordinal, and the group table (fragments.go).
func writeDocuments(ctx context.Context, kb *knowledge.KB, store knowledge.Store, ords []string, m *Manifest, out *Output) error {
	var groups []string
	for start := 0; start < len(ords); start += fragmentGroup {
		var files [][]byte
		for _, id := range ords[start:min(start+fragmentGroup, len(ords))] {
			d, ok := kb.Document(id)
			if !ok {
				return fmt.Errorf("bundle: document %s has an ordinal but no record", id)
			}
			cs, err := store.Chunks(ctx, id)
			if err != nil {
				return fmt.Errorf("bundle: chunks of %s: %w", d.Source, err)
			}
			d.Added = time.Time{}
			data, err := encodeFragment(fragment{Document: d, Chunks: cs})
			if err != nil {
				return fmt.Errorf("bundle: encode %s: %w", d.Source, err)
			}
			files = append(files, data)
		}
		group := groupName(files)
		for k, data := range files {
			out.Files[fragmentFile(group, k)] = data
		}
		groups = append(groups, group)
	}
	table, err := encodeGroups(groups)
	if err != nil {
		return err
	}
	m.Fragments = FragmentTable{Group: fragmentGroup, Table: contentName("g", table, ".bin")}
	out.Files[m.Fragments.Table] = table
	return nil
}

// WriteDir writes the bundle's files into dir, which must be empty, not
// exist, or hold an earlier bundle (then it is replaced).
func (o *Output) WriteDir(dir string) error {
	if err := clearDir(dir); err != nil {
		return err
	}
	for name, data := range o.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	return nil
}

// clearDir empties dir if it holds an earlier bundle and refuses a folder
// that holds anything else.
func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := FindManifest(dir); err != nil {
		return fmt.Errorf("bundle: %s is not empty and holds no earlier bundle; choose an empty or new folder", dir)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	return nil
}

// FindManifest returns the name of the one manifest in a bundle folder.
func FindManifest(dir string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "manifest-*.json"))
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	switch len(matches) {
	case 0:
		return "", fmt.Errorf("bundle: %s holds no manifest-*.json: not a bundle folder (write one with 'tinyrag bundle -o %s …')", dir, dir)
	case 1:
		return filepath.Base(matches[0]), nil
	}
	return "", fmt.Errorf("bundle: %s holds %d manifests; a bundle folder holds one", dir, len(matches))
}

// Sources reads the sources of the bundle in dir by ordinal (for
// Options.Previous): its manifest, group table and fragments, each checked.
func Sources(dir string) ([]string, error) {
	read := func(name string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", err)
		}
		return data, verify(name, data)
	}
	name, err := FindManifest(dir)
	if err != nil {
		return nil, err
	}
	data, err := read(name)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, err
	}
	_, frags, err := readFragments(m, read)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(frags))
	for o, f := range frags {
		out[o] = f.Document.Source
	}
	return out, nil
}

// ReadDir reads a bundle folder written by WriteDir and checks every file
// against its name.
func ReadDir(dir string) (*Output, error) {
	name, err := FindManifest(dir)
	if err != nil {
		return nil, err
	}
	out := &Output{ManifestName: name, Files: map[string][]byte{}}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(rel, ".br") || strings.HasSuffix(rel, ".gz") {
			return nil // compressed siblings, written by a server or static build
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := verify(rel, data); err != nil {
			return err
		}
		out.Files[rel] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bundle: %s: %w", dir, err)
	}
	data := out.Files[name]
	if out.Manifest, err = ParseManifest(data); err != nil {
		return nil, fmt.Errorf("bundle: %s: %w", dir, err)
	}
	sum := sha256.Sum256(data)
	out.SHA256 = hex.EncodeToString(sum[:])
	list := out.Files[out.Manifest.Files.File]
	if list == nil {
		return nil, fmt.Errorf("bundle: %s: %w: the file list %s is missing", dir, ErrDamaged, out.Manifest.Files.File)
	}
	for _, f := range strings.Fields(string(bytes.TrimSpace(list))) {
		if _, ok := out.Files[f]; !ok {
			return nil, fmt.Errorf("bundle: %s: %w: %s is missing", dir, ErrDamaged, f)
		}
	}
	return out, nil
}
