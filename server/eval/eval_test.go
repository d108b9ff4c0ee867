package eval

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/server/exitcode"
)

// writeBEIR writes a tiny BEIR collection and returns the eval flags for it.
func writeBEIR(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"corpus.jsonl": `{"_id":"d1","title":"Penguins","text":"Penguins live in the southern hemisphere and cannot fly."}
{"_id":"d2","title":"Camels","text":"Camels store fat in their humps and cross deserts."}
{"_id":"d3","title":"Owls","text":"Owls hunt at night with silent flight."}
`,
		"queries.jsonl": `{"_id":"q1","text":"southern penguins"}
{"_id":"q2","text":"camels crossing the desert"}
`,
		"qrels.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return []string{
		"--corpus", filepath.Join(dir, "corpus.jsonl"),
		"--queries", filepath.Join(dir, "queries.jsonl"),
		"--qrels", filepath.Join(dir, "qrels.tsv"),
	}
}

func TestEval_PrintsQualityAndSpeed(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Command(context.Background(), writeBEIR(t), &out, &errOut); err != nil {
		t.Fatalf("eval: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{
		"documents indexed:  3 in ",
		"queries evaluated:  2\n",
		"nDCG@10:            1.0000\n",
		"Recall@100:         1.0000\n",
		"query latency:      p50 ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEval_BadInvocationsFailClearly(t *testing.T) {
	good := writeBEIR(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantMsg  string
	}{
		{"missing flags", []string{"--corpus", good[1]}, 2, "required"},
		{"no collection", nil, 2, "no collection"},
		{"directory without corpus", []string{t.TempDir()}, 1, "corpus.jsonl"},
		{"missing file", append(append([]string{}, good[:4]...), "--qrels", "/nonexistent/qrels.tsv"), 1, "nonexistent"},
		{"unknown language", append(append([]string{}, good...), "--lang", "tlh"), 1, "unsupported language"},
		{"negative BM25+ delta", append(append([]string{}, good...), "--bm25plus-delta", "-1"), 2, "bm25plus-delta"},
		{"unknown BM25 formula", append(append([]string{}, good...), "--bm25", "okapi"), 2, "okapi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := Command(context.Background(), tt.args, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("got %v, want an error mentioning %q", err, tt.wantMsg)
			}
			code := 1
			var ee *exitcode.Error
			if errors.As(err, &ee) {
				code = ee.Code
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
		})
	}
}

func TestEval_SeveralCollectionsWriteOneTRECRunEach(t *testing.T) {
	flags := writeBEIR(t)
	dir := filepath.Dir(flags[1])
	// The same collection once by files and once as a directory.
	if err := os.Rename(filepath.Join(dir, "qrels.tsv"), filepath.Join(dir, "qrels-test.tsv")); err != nil {
		t.Fatal(err)
	}
	flags[5] = filepath.Join(dir, "qrels-test.tsv")
	runs := filepath.Join(t.TempDir(), "run.txt")
	var out, errOut bytes.Buffer
	args := append(append([]string{"--runs", runs}, flags...), dir)
	if err := Command(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("eval: %v\n%s", err, errOut.String())
	}
	name := filepath.Base(dir)
	for _, want := range []string{"collection:         " + name + "\n", "collection:         " + name + "-2\n",
		"mean over 2 collections: nDCG@10 1.0000, Recall@100 1.0000\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, file := range []string{"run." + name + ".txt", "run." + name + "-2.txt"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(runs), file))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		// Every query's ranking, best first, in "qid Q0 doc rank score tag".
		first := map[string]string{}
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) != 6 || f[1] != "Q0" || f[5] != "tinyrag" {
				t.Fatalf("%s: line %q is not a TREC run line", file, l)
			}
			if f[3] == "1" {
				first[f[0]] = f[2]
			}
		}
		if first["q1"] != "d1" || first["q2"] != "d2" {
			t.Errorf("%s: top documents %v, want q1→d1, q2→d2", file, first)
		}
	}
}

func TestEval_ScoringFlagsReachTheRanking(t *testing.T) {
	// The top document's score in the run file, for each setting: the
	// whole-document score adds to the best chunk's, δ adds to every
	// matched term, and the idf switch changes the weights once a
	// document is several chunks.
	flags := writeBEIR(t)
	long := `{"_id":"d1","title":"Penguins","text":"` + strings.Repeat("Penguins live in the southern hemisphere and cannot fly. ", 8) + `"}
{"_id":"d2","title":"Camels","text":"Camels store fat in their humps and cross deserts."}
{"_id":"d3","title":"Owls","text":"Owls hunt at night with silent flight."}
`
	if err := os.WriteFile(flags[1], []byte(long), 0o600); err != nil {
		t.Fatal(err)
	}
	flags = append(flags, "--chunk-size", "150")
	topScore := func(extra ...string) string {
		t.Helper()
		runs := filepath.Join(t.TempDir(), "run.txt")
		var out, errOut bytes.Buffer
		if err := Command(context.Background(), append(append([]string{"--runs", runs}, flags...), extra...), &out, &errOut); err != nil {
			t.Fatalf("eval %v: %v\n%s", extra, err, errOut.String())
		}
		b, err := os.ReadFile(runs)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) == 6 && f[0] == "q1" && f[3] == "1" {
				return f[4]
			}
		}
		t.Fatalf("eval %v: no top document for q1 in\n%s", extra, b)
		return ""
	}
	def := topScore()
	for _, extra := range [][]string{
		{"--doc-score=false"},
		{"--doc-idf=false"},
		{"--bm25plus-delta", "1"},
		{"--bm25", "anserini"},
		{"--bm25", "bleve"},
		{"--rrf"},
		{"--title-boost", "1"},
	} {
		if got := topScore(extra...); got == def {
			t.Errorf("%v: top score %s, the same as with the defaults", extra, got)
		}
	}
	if got := topScore("--doc-score=true", "--doc-idf=true", "--bm25plus-delta", "0", "--bm25", "lucene", "--rrf=false", "--title-boost", "0"); got != def {
		t.Errorf("the defaults spelled out: top score %s, want %s", got, def)
	}
}

func TestEval_CheckBundleComparesTheBundlesRankingQueryByQuery(t *testing.T) {
	for _, flags := range [][]string{
		nil,
		{"--rm3-max-terms", "-1"},               // feedback's dependent round on every query
		{"--rm3=false", "--proximity", "--rrf"}, // the bundle ranks with the flags given
	} {
		t.Run(strings.Join(append([]string{"defaults"}, flags...), " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append(append(writeBEIR(t), "--check-bundle"), flags...)
			if err := Command(context.Background(), args, &out, &errOut); err != nil {
				t.Fatalf("eval: %v\n%s", err, errOut.String())
			}
			for _, want := range []string{"bundle ranking:     identical top 10 for 2 of 2 queries\n", "first query:        p50 ", "a visit:            2 queries"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}
