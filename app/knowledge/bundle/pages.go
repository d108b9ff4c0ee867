package bundle

import "fmt"

// mapPage is how many shards one page of a paged ShardMap lists by
// default (Options.MapPage). The manifest lists a site's map directly up
// to this many shards, and pages of this many beyond: a query then reads
// the pages of its terms, a few kilobytes each, instead of a manifest
// that grows with the site.
const mapPage = 256

// A map page lists shards:
//
//	uvarint shards
//	per shard: its first term, front-coded; its file name, front-coded

func encodePage(first, files []string) []byte {
	b := appendUvarint(nil, uint64(len(first)))
	pt, pf := "", ""
	for i := range first {
		b = appendTerm(b, pt, first[i])
		b = appendTerm(b, pf, files[i])
		pt, pf = first[i], files[i]
	}
	return b
}

func decodePage(data []byte) (ShardMap, error) {
	d := &decoder{b: data}
	n := d.count(4)
	var m ShardMap
	pt, pf := "", ""
	for i := 0; i < n && d.err == nil; i++ {
		t, f := d.term(pt), d.term(pf)
		if i > 0 && t <= pt && d.err == nil {
			d.err = fmt.Errorf("%w: map page out of order", ErrDamaged)
		}
		if !IsContentNamed(f) && d.err == nil {
			d.err = fmt.Errorf("%w: map page names %q", ErrDamaged, f)
		}
		m.First, m.Files = append(m.First, t), append(m.Files, f)
		pt, pf = t, f
	}
	if d.err == nil && (len(d.b) != 0 || n == 0) {
		d.err = fmt.Errorf("%w: map page has %d shards and %d bytes after them", ErrDamaged, n, len(d.b))
	}
	return m, d.err
}

// paginate turns a map of more than per shards into a paged one, its
// pages added to out.
func paginate(m ShardMap, per int, out *Output) ShardMap {
	if len(m.Files) <= per {
		return m
	}
	var paged ShardMap
	paged.Paged = true
	for i := 0; i < len(m.Files); i += per {
		j := min(i+per, len(m.Files))
		data := encodePage(m.First[i:j], m.Files[i:j])
		name := contentName("p", data, ".bin")
		out.Files[name] = data
		paged.First = append(paged.First, m.First[i])
		paged.Files = append(paged.Files, name)
	}
	return paged
}
