// Package e2e drives a real `tinyrag serve` in headless Chromium. It runs
// only when TINYRAG_E2E=1 (make test-e2e sets it after building the binary
// and installing Chromium); plain `go test ./...` skips it with a message.
package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var (
	binPath    string // the tinyrag binary under test
	chromePath string
	shotDir    string // where screenshots go (git-ignored)
)

func TestMain(m *testing.M) {
	if os.Getenv("TINYRAG_E2E") != "1" {
		fmt.Println("e2e: skipped (set TINYRAG_E2E=1, or run 'make test-e2e', which builds the app and installs Chromium)")
		os.Exit(0)
	}
	binPath = os.Getenv("TINYRAG_BIN")
	if binPath == "" {
		binPath, _ = filepath.Abs("../../bin/tinyrag")
	}
	if _, err := os.Stat(binPath); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: the tinyrag binary is missing at %s (run 'make build'): %v\n", binPath, err)
		os.Exit(1)
	}
	chromePath = os.Getenv("CHROME")
	if chromePath == "" {
		for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
			if _, err := os.Stat(p); err == nil {
				chromePath = p
				break
			}
		}
	}
	if chromePath == "" {
		fmt.Fprintln(os.Stderr, "e2e: Chromium is not installed and could not be found; install it with 'apt-get install -y chromium' (make test-e2e does this as root)")
		os.Exit(1)
	}
	shotDir = os.Getenv("TINYRAG_SCREENSHOTS")
	if shotDir == "" {
		shotDir, _ = filepath.Abs("../../screenshots")
	}
	os.Exit(m.Run())
}

// server is one running `tinyrag serve`.
type server struct {
	URL string
	cmd *exec.Cmd
	log *strings.Builder
}

// freeAddr finds a loopback port that is free right now.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer runs the binary with extra flags and waits for /healthz.
func startServer(t testing.TB, extraArgs ...string) *server {
	t.Helper()
	addr := freeAddr(t)
	args := append([]string{"serve", "--addr", addr}, extraArgs...)
	cmd := exec.Command(binPath, args...)
	var logs strings.Builder
	cmd.Stdout = &syncWriter{w: &logs}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", binPath, err)
	}
	s := &server{URL: "http://" + addr, cmd: cmd, log: &logs}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("server did not shut down within 10s after SIGINT")
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.URL + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s did not become healthy; log:\n%s", s.URL, logs.String())
	return nil
}

type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// browser is one headless Chromium tab with its console collected.
type browser struct {
	ctx   context.Context
	close func() // stops Chromium; safe to call more than once

	mu       sync.Mutex
	problems []string // console errors, uncaught exceptions, failed loads
}

// newBrowser starts Chromium with the flags this machine needs: no sandbox
// as root, and no background networking (the network is closed).
func newBrowser(t testing.TB, width, height int) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromePath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	var once sync.Once
	b := &browser{ctx: ctx, close: func() { once.Do(func() { cancelCtx(); cancelAlloc() }) }}
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancelCtx()
		cancelAlloc()
		t.Fatalf("starting Chromium (%s): %v", chromePath, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.report(m.String() + " " + m.URL)
			}
		}
	}()
	t.Cleanup(b.close)
	return b
}

func (b *browser) report(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, s)
}

// Problems returns what went wrong in the page so far.
func (b *browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// do runs steps with a deadline, failing the test with context.
func (b *browser) do(t testing.TB, timeout time.Duration, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v (page problems: %v)", what, timeoutErr(err, timeout), b.Problems())
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %q: %v (page problems: %v)", expr, err, b.Problems())
	}
	return v
}

func timeoutErr(err error, timeout time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("not done within %s", timeout)
	}
	return err
}

// screenshot saves a full-page PNG into the screenshot folder.
func (b *browser) screenshot(t testing.TB, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(shotDir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
