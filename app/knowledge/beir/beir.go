// Package beir reads retrieval test collections in the BEIR format and
// measures a knowledge base on them: nDCG@10, Recall@100, indexing
// throughput and query latency. tinyrag eval (native) and wasm/bench
// (js/wasm) both use it, so both measure the same code.
package beir

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Doc is one corpus entry.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one test query.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels maps a query id to the relevance of corpus ids (> 0 is relevant).
type Qrels map[string]map[string]int

// Set is a whole collection.
type Set struct {
	Corpus  []Doc
	Queries []Query
	Qrels   Qrels
}

// ReadCorpus reads corpus.jsonl: one {"_id","title","text"} per line.
func ReadCorpus(r io.Reader) ([]Doc, error) {
	var out []Doc
	err := jsonLines(r, func(line int, b []byte) error {
		var d Doc
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		if d.ID == "" {
			return fmt.Errorf("no _id")
		}
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("beir: corpus: %w", err)
	}
	return out, nil
}

// ReadQueries reads queries.jsonl: one {"_id","text"} per line.
func ReadQueries(r io.Reader) ([]Query, error) {
	var out []Query
	err := jsonLines(r, func(line int, b []byte) error {
		var q Query
		if err := json.Unmarshal(b, &q); err != nil {
			return err
		}
		if q.ID == "" {
			return fmt.Errorf("no _id")
		}
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("beir: queries: %w", err)
	}
	return out, nil
}

func jsonLines(r io.Reader, fn func(line int, b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		if err := fn(n, b); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", n+1, err)
	}
	return nil
}

// ReadQrels reads qrels .tsv: query-id, corpus-id, score, tab-separated,
// with an optional header line.
func ReadQrels(r io.Reader) (Qrels, error) {
	out := Qrels{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("beir: qrels line %d: want 3 tab-separated fields, got %d", n, len(f))
		}
		score, err := strconv.Atoi(strings.TrimSpace(f[2]))
		if err != nil {
			if n == 1 {
				continue // header
			}
			return nil, fmt.Errorf("beir: qrels line %d: score %q is not an integer", n, f[2])
		}
		q := strings.TrimSpace(f[0])
		if out[q] == nil {
			out[q] = map[string]int{}
		}
		out[q][strings.TrimSpace(f[1])] = score
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("beir: qrels: %w", err)
	}
	return out, nil
}

// Load reads the three files of a collection.
func Load(corpus, queries, qrels string) (Set, error) {
	var s Set
	read := func(path string, fn func(io.Reader) error) error {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("beir: %w", err)
		}
		defer f.Close()
		return fn(f)
	}
	err := read(corpus, func(r io.Reader) (err error) { s.Corpus, err = ReadCorpus(r); return })
	if err == nil {
		err = read(queries, func(r io.Reader) (err error) { s.Queries, err = ReadQueries(r); return })
	}
	if err == nil {
		err = read(qrels, func(r io.Reader) (err error) { s.Qrels, err = ReadQrels(r); return })
	}
	return s, err
}

// LoadDir reads corpus.jsonl, queries-test.jsonl (or queries.jsonl) and
// qrels-test.tsv (or qrels/test.tsv) from dir.
func LoadDir(dir string) (Set, error) {
	f := DirFiles(dir)
	return Load(f[0], f[1], f[2])
}

// DirFiles names the corpus, queries and qrels files of the collection in
// dir, as LoadDir picks them.
func DirFiles(dir string) [3]string {
	pick := func(names ...string) string {
		for _, n := range names {
			if _, err := os.Stat(dir + "/" + n); err == nil {
				return dir + "/" + n
			}
		}
		return dir + "/" + names[0]
	}
	return [3]string{pick("corpus.jsonl"), pick("queries-test.jsonl", "queries.jsonl"), pick("qrels-test.tsv", "qrels/test.tsv")}
}
