package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files (path → content) under a fresh temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks not available here: %v", err)
	}
}

func sources(root string, docs []Document) []string {
	var out []string
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d.Source)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func TestImportPath_FolderRecursesAndSkipsWhatItShould(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.md":                      "# A\ntext",
		"docs/b.txt":                "bee",
		"docs/deep/c.csv":           "k,v\nx,1\n",
		"docs/deep/d.json":          `{"d": true}`,
		".git/config":               "[core]",
		".hidden.txt":               "secret",
		"docs/.cache/e.txt":         "cached",
		"node_modules/pkg/index.md": "# vendored",
		"bin/tool":                  "\x7fELF\x00\x00\x00binary",
		"photo.png":                 "\x89PNG",
		"empty.txt":                 "",
		"bad.json":                  "{oops",
	})
	docs, errs, err := ImportPath(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := []string{"a.md", "docs/b.txt", "docs/deep/c.csv", "docs/deep/d.json"}
	if got := sources(root, docs); !slices.Equal(got, wantDocs) {
		t.Errorf("documents = %v, want %v", got, wantDocs)
	}
	wantErrs := map[string]error{
		"bin/tool":  ErrBinary,
		"photo.png": ErrUnsupported,
		"empty.txt": ErrEmpty,
		"bad.json":  ErrMalformed,
	}
	if len(errs) != len(wantErrs) {
		t.Errorf("got %d per-file errors, want %d: %v", len(errs), len(wantErrs), errs)
	}
	for _, e := range errs {
		var fe *FileError
		if !errors.As(e, &fe) {
			t.Errorf("error %v is not a *FileError", e)
			continue
		}
		rel, _ := filepath.Rel(root, fe.Path)
		want, ok := wantErrs[filepath.ToSlash(rel)]
		if !ok || !errors.Is(e, want) {
			t.Errorf("error for %s = %v, want %v", rel, e, want)
		}
		if !strings.Contains(e.Error(), fe.Path) {
			t.Errorf("error %q does not name its path", e)
		}
	}
}

func TestImportPath_SingleFile(t *testing.T) {
	root := writeTree(t, map[string]string{"one.md": "# One\nbody"})
	path := filepath.Join(root, "one.md")
	docs, errs, err := ImportPath(context.Background(), path, Options{})
	if err != nil || len(errs) != 0 || len(docs) != 1 {
		t.Fatalf("docs %v errs %v err %v; want one document", docs, errs, err)
	}
	if docs[0].Source != path || docs[0].Title != "One" {
		t.Errorf("Source %q Title %q, want %q and One", docs[0].Source, docs[0].Title, path)
	}
}

func TestImportPath_MissingRootIsAnError(t *testing.T) {
	_, _, err := ImportPath(context.Background(), filepath.Join(t.TempDir(), "nope"), Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not-exist", err)
	}
}

func TestImportPath_FollowsSymlinksButNotLoops(t *testing.T) {
	root := writeTree(t, map[string]string{
		"real/file.txt":  "real file",
		"other/note.txt": "linked folder",
	})
	symlinkOrSkip(t, filepath.Join(root, "real", "file.txt"), filepath.Join(root, "link.txt"))
	symlinkOrSkip(t, root, filepath.Join(root, "real", "loop"))                      // back to the root
	symlinkOrSkip(t, filepath.Join(root, "other"), filepath.Join(root, "real", "o")) // a second way into other/
	symlinkOrSkip(t, filepath.Join(root, "missing"), filepath.Join(root, "dangling"))

	docs, errs, err := ImportPath(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"link.txt", "other/note.txt", "real/file.txt"}
	if got := sources(root, docs); !slices.Equal(got, want) {
		t.Errorf("documents = %v, want %v", got, want)
	}
	var loops, broken int
	for _, e := range errs {
		switch {
		case errors.Is(e, ErrSymlinkLoop):
			loops++
		case strings.Contains(e.Error(), "broken symlink"):
			broken++
		default:
			t.Errorf("unexpected error %v", e)
		}
	}
	if loops != 2 || broken != 1 {
		t.Errorf("got %d loop and %d broken-link reports, want 2 and 1: %v", loops, broken, errs)
	}
}

func TestImportPath_BoundsStopTheImport(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		files[n+".txt"] = strings.Repeat(n, 100)
	}
	files["f-big.txt"] = strings.Repeat("f", 5000)
	root := writeTree(t, files)
	tests := []struct {
		name     string
		opts     Options
		wantDocs int
		wantErr  error
		perFile  int
	}{
		{"no bounds hit", Options{}, 6, nil, 0},
		{"max files", Options{MaxFiles: 3}, 3, ErrTooLarge, 0},
		{"max total bytes", Options{MaxTotalBytes: 250}, 2, ErrTooLarge, 0},
		{"max file bytes skips only the big file", Options{MaxFileBytes: 1000}, 5, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, errs, err := ImportPath(context.Background(), root, tt.opts)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(docs) != tt.wantDocs {
				t.Errorf("got %d documents, want %d (imported ones are kept when a bound stops the walk)", len(docs), tt.wantDocs)
			}
			if len(errs) != tt.perFile {
				t.Errorf("got per-file errors %v, want %d", errs, tt.perFile)
			}
			for _, e := range errs {
				if !errors.Is(e, ErrTooLarge) || !strings.Contains(e.Error(), "f-big.txt") {
					t.Errorf("per-file error %v, want ErrTooLarge naming f-big.txt", e)
				}
			}
		})
	}
}

func TestImportPath_CancelledContextStops(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "a", "b.txt": "b"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	docs, _, err := ImportPath(ctx, root, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(docs) != 0 {
		t.Errorf("imported %d documents after cancellation", len(docs))
	}
}

func TestImportPath_LargeBinaryIsReportedWithItsOffset(t *testing.T) {
	big := "\x00" + strings.Repeat("x", 1<<20)
	root := writeTree(t, map[string]string{"data.bin": big})
	_, errs, err := ImportPath(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrBinary) || !strings.Contains(errs[0].Error(), "offset 0") {
		t.Fatalf("errs = %v, want one ErrBinary at offset 0", errs)
	}
}

func TestSkipped_MatchesTheFolderWalkRules(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{"docs/a.md", false},
		{"a.md", false},
		{"./docs/a.md", false},
		{".git/config", true},
		{"docs/.cache/x.txt", true},
		{".env", true},
		{"src/node_modules/pkg/readme.md", true},
		{"app/__pycache__/m.txt", true},
		{"node_modules", false}, // a file of that name is not a folder
		{"notes/node_modules.md", false},
	}
	for _, tt := range tests {
		if got := Skipped(tt.rel); got != tt.want {
			t.Errorf("Skipped(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}
