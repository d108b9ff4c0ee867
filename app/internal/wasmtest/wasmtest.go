//go:build !js

// Package wasmtest runs tinyRAG's browser code in a real headless Chromium
// from native Go tests: it builds wasm binaries (programs or a package's
// test binary), serves them on loopback and drives the browser.
//
// A package whose behaviour depends on what only a browser has (IndexedDB,
// Web Workers) is tested with it rather than in Node, where such tests could
// only skip. Chromium is a test dependency: `make test` installs it; a
// missing Chromium fails the test with the command that installs it.
package wasmtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// Chromium returns the path of the Chromium binary ($CHROMIUM first), or
// fails the test saying how to install one.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: these tests run in a real browser (`make e2e-deps` installs it as root, or apt-get install chromium; CHROMIUM=path picks another)")
	return ""
}

// Browser starts a headless Chromium with a fresh profile and returns a
// context for chromedp; it is closed when the test ends.
func Browser(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// GoEnv returns `go env key`.
func GoEnv(t testing.TB, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("the go tool is needed to build the wasm binaries: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// ModuleRoot returns the directory of tinyrag's go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	mod := GoEnv(t, "GOMOD")
	if mod == "" || mod == os.DevNull {
		t.Fatal("not inside the tinyrag module")
	}
	return filepath.Dir(mod)
}

// Build compiles pkg (a path relative to the module root) for js/wasm into
// out.
func Build(t testing.TB, out, pkg string) {
	t.Helper()
	goBuild(t, "build", out, pkg)
}

// BuildTest compiles pkg's tests for js/wasm into the test binary out.
func BuildTest(t testing.TB, out, pkg string) {
	t.Helper()
	goBuild(t, "test", out, pkg)
}

func goBuild(t testing.TB, verb, out, pkg string) {
	args := []string{verb, "-o", out, pkg}
	if verb == "test" {
		args = []string{"test", "-c", "-o", out, pkg}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = ModuleRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s %s for js/wasm: %v\n%s", verb, pkg, err, b)
	}
}

// WasmExec is the path of Go's wasm_exec.js, which runs a Go wasm binary
// in a page.
func WasmExec(t testing.TB) string {
	return filepath.Join(GoEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec.js")
}

// testPage runs /test.wasm with the arguments in the page's query and
// keeps what it prints; window.testExit is set when it exits.
const testPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>wasm test</title>
<script src="/wasm_exec.js"></script>
<script src="/run.js"></script></head><body></body></html>`

const runJS = `window.testOutput = [];
const log = console.log.bind(console);
console.log = (...a) => { window.testOutput.push(a.join(" ")); log(...a); };
const go = new Go();
go.argv = ["test.wasm"].concat(new URLSearchParams(location.search).getAll("arg"));
go.exit = (code) => { window.testExit = code; };
WebAssembly.instantiateStreaming(fetch("/test.wasm"), go.importObject)
  .then(r => go.run(r.instance))
  .catch(e => { window.testOutput.push("failed to start: " + e); window.testExit = 2; });`

// Tests says which wasm tests RunTests runs, and how.
type Tests struct {
	Pkg     string        // package path relative to the module root
	Run     string        // -test.run pattern; "" runs all
	Timeout time.Duration // for building nothing, running everything
	// QuotaBytes, if set, is the storage quota of the page's origin, so
	// tests can see what the app does when the browser's storage is full.
	QuotaBytes float64
	// Handler, if set, serves /x/ on the page's origin: endpoints and
	// files the wasm tests fetch (loopback only, like the page).
	Handler http.Handler
}

// RunTests builds the package's tests for js/wasm and runs them in a fresh
// Chromium page, verbosely. The test fails if the wasm tests fail, or if
// any of them skipped: in a browser there is no reason to.
func RunTests(t *testing.T, tc Tests) {
	t.Helper()
	pkg, run, timeout := tc.Pkg, tc.Run, tc.Timeout
	bin := filepath.Join(t.TempDir(), "test.wasm")
	BuildTest(t, bin, pkg)
	wasmExec := WasmExec(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, testPage)
	})
	mux.HandleFunc("/run.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, runJS)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, wasmExec)
	})
	mux.HandleFunc("/test.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, bin)
	})
	if tc.Handler != nil {
		mux.Handle("/x/", tc.Handler)
	}
	srv := httptest.NewServer(mux) // 127.0.0.1 only
	defer srv.Close()

	ctx := Browser(t, timeout)
	q := url.Values{"arg": {"-test.v", "-test.timeout=" + timeout.String()}}
	if run != "" {
		q.Add("arg", "-test.run="+run)
	}
	query := "?" + q.Encode()
	if tc.QuotaBytes > 0 {
		if _, err := chromedp.Call(ctx, storage.OverrideQuotaForOrigin, storage.OverrideQuotaForOriginParams{
			Origin: srv.URL, QuotaSize: &tc.QuotaBytes,
		}); err != nil {
			t.Fatalf("setting the storage quota: %v", err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"+query),
		chromedp.Poll[chromedp.Void](`window.testExit !== undefined`, chromedp.WithPollingTimeout(timeout)),
	); err != nil {
		out, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.testOutput || []`))
		t.Fatalf("%s in Chromium did not finish: %v\n%s", pkg, err, strings.Join(out, "\n"))
	}
	code, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.testExit`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.testOutput`))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(out, "\n")
	if code != 0 {
		t.Fatalf("%s in Chromium: exit code %d\n%s", pkg, code, text)
	}
	if strings.Contains(text, "--- SKIP") {
		t.Fatalf("%s in Chromium: a test skipped, but everything it needs is in a browser\n%s", pkg, text)
	}
	if !strings.Contains(text, "--- PASS") {
		t.Fatalf("%s in Chromium: no test ran\n%s", pkg, text)
	}
	t.Logf("%s in Chromium:\n%s", pkg, text)
}
