package main

import (
	"bytes"
	"errors"
	"fmt"
)

// Module is what pkgsize reads from a wasm binary: each defined function's
// body size and name, and the sections' sizes.
type Module struct {
	Size       int            // the whole file
	Code, Data int            // the code and data sections' payloads
	Bodies     []int          // body size of each defined function, in order
	Imports    int            // imported functions, which come first in the function index space
	Names      map[int]string // function index → name, from the name section
}

// CodeBy sums function body sizes by group(name). A function without a
// name is counted as "(unnamed)".
func (m *Module) CodeBy(group func(string) string) map[string]int {
	out := map[string]int{}
	for i, n := range m.Bodies {
		name, ok := m.Names[m.Imports+i]
		g := "(unnamed)"
		if ok {
			g = group(name)
		}
		out[g] += n
	}
	return out
}

// Parse reads a wasm binary's sections (the core spec's binary format,
// https://webassembly.github.io/spec/core/binary/modules.html, and the
// name section of its appendix).
func Parse(b []byte) (*Module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a wasm binary")
	}
	m := &Module{Size: len(b), Names: map[int]string{}}
	r := &reader{b: b, off: 8}
	for r.off < len(b) {
		id := r.byte()
		size := r.u32()
		if r.err != nil {
			return nil, r.err
		}
		if r.off+size > len(b) {
			return nil, fmt.Errorf("section %d at %d runs past the end", id, r.off)
		}
		sec := &reader{b: b[:r.off+size], off: r.off}
		r.off += size
		var err error
		switch id {
		case 0:
			if sec.name() == "name" {
				err = m.readNames(sec)
			}
		case 2:
			err = m.readImports(sec)
		case 10:
			m.Code = size
			n := sec.u32()
			for i := 0; i < n && sec.err == nil; i++ {
				body := sec.u32()
				m.Bodies = append(m.Bodies, body)
				sec.off += body
			}
			err = sec.err
		case 11:
			m.Data = size
		}
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
	}
	return m, nil
}

// readImports counts the imported functions (kind 0): they take the first
// function indices.
func (m *Module) readImports(r *reader) error {
	n := r.u32()
	for i := 0; i < n && r.err == nil; i++ {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.u32()
			m.Imports++
		case 1: // table: reftype, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		default:
			return fmt.Errorf("import of unknown kind %d", kind)
		}
	}
	return r.err
}

// readNames reads the function names (subsection 1) of the name section.
func (m *Module) readNames(r *reader) error {
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		size := r.u32()
		end := r.off + size
		if r.err != nil || end > len(r.b) {
			return errors.New("name subsection runs past the end")
		}
		if id == 1 {
			n := r.u32()
			for i := 0; i < n && r.err == nil; i++ {
				idx := r.u32()
				m.Names[idx] = r.name()
			}
		}
		r.off = end
	}
	return r.err
}

// reader decodes the binary format's integers and names; the first error
// sticks and every later read returns zero.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errors.New("unexpected end of section")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// u32 reads an unsigned LEB128 number of at most 32 bits.
func (r *reader) u32() int {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return int(v)
		}
	}
	if r.err == nil {
		r.err = errors.New("LEB128 number longer than 32 bits")
	}
	return 0
}

func (r *reader) name() string {
	n := r.u32()
	if r.err != nil {
		return ""
	}
	if r.off+n > len(r.b) {
		r.err = errors.New("name runs past the end")
		return ""
	}
	r.off += n
	return string(r.b[r.off-n : r.off])
}

func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.u32()
	}
	r.u32()
}
