package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Options bounds a folder import. Zero fields take the defaults.
type Options struct {
	// MaxFileBytes skips (and reports) files larger than this. Default DefaultLimit.
	MaxFileBytes int64
	// MaxTotalBytes stops the import before a file that would take the bytes
	// read past this. Default 256 MiB.
	MaxTotalBytes int64
	// MaxFiles stops the import after this many files. Default 10,000.
	MaxFiles int
}

// Defaults for Options.
const (
	DefaultMaxTotalBytes int64 = 256 << 20
	DefaultMaxFiles            = 10_000
)

// maxDirDepth guards against absurdly deep trees; symlink loops are caught
// separately by remembering every directory's real path.
const maxDirDepth = 128

// ErrSymlinkLoop reports a symlink that leads back into a folder already imported.
var ErrSymlinkLoop = errors.New("symlink loop: folder already imported")

// FileError is a per-file failure from ImportPath. The import goes on.
type FileError struct {
	// Path is the file or folder as reached from the root (root joined with
	// the relative path), the same form Document.Source takes.
	Path string
	// Err says why; it wraps the package's sentinel errors.
	Err error
}

// Error names the path once, even when Err already starts with it.
func (e *FileError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, e.Path) {
		return msg
	}
	return e.Path + ": " + msg
}

// Unwrap lets errors.Is see ErrBinary, ErrTooLarge and the rest.
func (e *FileError) Unwrap() error { return e.Err }

// skippedDirs hold generated or vendored files nobody wants in a knowledge base.
var skippedDirs = map[string]bool{"node_modules": true, "__pycache__": true}

// Skipped reports whether ImportPath would skip the slash-separated
// relative path silently: a hidden file or folder anywhere on the path, or
// a node_modules or __pycache__ folder. The browser's folder upload hands
// over a flat list of relative paths; this applies the same rules to it.
func Skipped(rel string) bool {
	parts := strings.Split(strings.Trim(filepath.ToSlash(rel), "/"), "/")
	for i, p := range parts {
		if p == "." || p == ".." {
			continue
		}
		if strings.HasPrefix(p, ".") || i < len(parts)-1 && skippedDirs[p] {
			return true
		}
	}
	return false
}

// ImportPath imports a file, or a folder recursively in name order. Hidden
// files and folders (.git, .env) and node_modules are skipped silently;
// binaries, unsupported formats, oversized files, unreadable files and
// symlink loops are skipped and reported in the per-file error list, each
// a *FileError naming its path. Symlinks are followed.
//
// The final error is non-nil only when the import as a whole stopped: the
// root is missing, ctx was cancelled, or a MaxFiles/MaxTotalBytes bound was
// hit (wrapping ErrTooLarge). The documents imported until then are still
// returned, so nothing already read is lost.
func ImportPath(ctx context.Context, root string, opts Options) ([]Document, []error, error) {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultLimit
	}
	if opts.MaxTotalBytes <= 0 {
		opts.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, nil, fmt.Errorf("import %s: %w", root, err)
	}
	w := &walker{ctx: ctx, opts: opts, visited: map[string]bool{}}
	if info.IsDir() {
		err = w.dir(root, 0)
	} else {
		err = w.file(root, info)
	}
	return w.docs, w.errs, err
}

type walker struct {
	ctx     context.Context
	opts    Options
	docs    []Document
	errs    []error
	files   int
	total   int64
	visited map[string]bool // real paths of folders entered
}

func (w *walker) report(path string, err error) {
	w.errs = append(w.errs, &FileError{Path: path, Err: err})
}

func (w *walker) dir(dir string, depth int) error {
	real, err := realPath(dir)
	if err != nil {
		w.report(dir, err)
		return nil
	}
	if w.visited[real] {
		w.report(dir, ErrSymlinkLoop)
		return nil
	}
	w.visited[real] = true
	if depth > maxDirDepth {
		w.report(dir, fmt.Errorf("folder nested deeper than %d levels, skipped", maxDirDepth))
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.report(dir, err)
		return nil
	}
	for _, e := range entries {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("import %s: %w", dir, err)
		}
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		mode := e.Type()
		var info fs.FileInfo
		if mode&fs.ModeSymlink != 0 {
			if info, err = os.Stat(path); err != nil {
				w.report(path, fmt.Errorf("broken symlink: %w", err))
				continue
			}
			mode = info.Mode().Type()
		}
		if mode.IsDir() {
			if skippedDirs[name] {
				continue
			}
			if err := w.dir(path, depth+1); err != nil {
				return err
			}
			continue
		}
		if !mode.IsRegular() {
			// Devices, pipes and sockets can block forever or never end.
			w.report(path, fmt.Errorf("%w: not a regular file (%s)", ErrUnsupported, mode))
			continue
		}
		if info == nil {
			if info, err = e.Info(); err != nil {
				w.report(path, err)
				continue
			}
		}
		if err := w.file(path, info); err != nil {
			return err
		}
	}
	return nil
}

// realPath resolves symlinks to an absolute path that identifies a folder
// however it was reached.
func realPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// file imports one regular file, reporting per-file failures and returning
// an error only when a whole-import bound is hit.
func (w *walker) file(path string, info fs.FileInfo) error {
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	if w.files >= w.opts.MaxFiles {
		return fmt.Errorf("import stopped at %s: %w: more than %d files", path, ErrTooLarge, w.opts.MaxFiles)
	}
	w.files++
	if info.Size() > w.opts.MaxFileBytes {
		w.report(path, tooLarge(path, w.opts.MaxFileBytes))
		return nil
	}
	if w.total+info.Size() > w.opts.MaxTotalBytes {
		return fmt.Errorf("import stopped at %s: %w: more than %s in total", path, ErrTooLarge, byteSize(w.opts.MaxTotalBytes))
	}
	if _, err := detectType(path, nil); err != nil {
		w.report(path, err) // unsupported by extension: no need to read it
		return nil
	}
	data, err := w.read(path)
	w.total += int64(len(data))
	if err != nil {
		w.report(path, err)
		return nil
	}
	doc, err := importBytes(path, data)
	if err != nil {
		w.report(path, err)
		return nil
	}
	w.docs = append(w.docs, doc)
	return nil
}

// read returns the file's bytes, refusing binaries after the first few
// kilobytes instead of reading them whole. The size is re-checked while
// reading because a file can grow after Stat.
func (w *walker) read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("%s: read: %w", path, err)
	}
	head = head[:n]
	if extOf(path) != ".pdf" && !bytes.HasPrefix(head, []byte("%PDF-")) &&
		!bytes.HasPrefix(head, utf16LEBOM) && !bytes.HasPrefix(head, utf16BEBOM) {
		if err := checkBinary(path, head); err != nil {
			return head, err
		}
	}
	rest, err := io.ReadAll(io.LimitReader(f, w.opts.MaxFileBytes+1-int64(n)))
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", path, err)
	}
	data := append(head, rest...)
	if int64(len(data)) > w.opts.MaxFileBytes {
		return data, tooLarge(path, w.opts.MaxFileBytes)
	}
	return data, nil
}
