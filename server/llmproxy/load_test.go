package llmproxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tinyrag/server/limit"
)

// scriptedUpstream streams chunks SSE events, pausing between them like a
// model producing tokens.
func scriptedUpstream(chunks int, pause time.Duration) (*httptest.Server, string) {
	var want strings.Builder
	for i := 0; i < chunks; i++ {
		fmt.Fprintf(&want, "data: {\"choices\":[{\"delta\":{\"content\":\"token %03d \"}}]}\n\n", i)
	}
	want.WriteString("data: [DONE]\n\n")
	body := want.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		rest := body
		for rest != "" {
			i := strings.Index(rest, "\n\n") + 2
			io.WriteString(w, rest[:i])
			f.Flush()
			rest = rest[i:]
			if pause > 0 {
				select {
				case <-time.After(pause):
				case <-r.Context().Done():
					return
				}
			}
		}
	}))
	return srv, body
}

// TestLoad_200ConcurrentStreams drives 200 simultaneous streaming chat
// requests through the proxy (behind the same limiter the server uses)
// against a loopback upstream, and checks: no errors, every stream byte-
// exact, bounded memory, and no goroutines left once it is over. It logs
// the figures quoted in docs/measurements.md. Skipped with -short.
func TestLoad_200ConcurrentStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: run without -short")
	}
	const clients = 200
	runtime.GC()
	before := runtime.NumGoroutine()

	upstream, want := scriptedUpstream(40, 10*time.Millisecond)
	p, err := New(Config{Upstream: upstream.URL, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	lim := limit.New(limit.Config{Name: "/api/llm", Concurrent: clients, Global: clients})
	mux := http.NewServeMux()
	mux.Handle("/api/llm/", lim.Wrap(p))
	proxy := httptest.NewServer(mux)

	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: 0}
	client := &http.Client{Transport: tr}

	var peakHeap, peakGoroutines atomic.Uint64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peakHeap.Load() {
				peakHeap.Store(ms.HeapInuse)
			}
			if g := uint64(runtime.NumGoroutine()); g > peakGoroutines.Load() {
				peakGoroutines.Store(g)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	var errs atomic.Int64
	var firstErr atomic.Value
	// All requests are released together so they really overlap.
	gate := make(chan struct{})
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			err := func() error {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/api/llm/chat/completions",
					strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				got, err := io.ReadAll(resp.Body)
				if err != nil {
					return err
				}
				if resp.StatusCode != 200 || string(got) != want {
					return fmt.Errorf("status %d, %d bytes (want %d)", resp.StatusCode, len(got), len(want))
				}
				return nil
			}()
			if err != nil {
				errs.Add(1)
				firstErr.CompareAndSwap(nil, err)
			}
		}()
	}
	close(gate)
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	sampler.Wait()

	client.CloseIdleConnections()
	proxy.Close()
	upstream.Close()
	p.client.CloseIdleConnections()
	// Give the closed connections' goroutines a moment to unwind; this waits
	// for an end state, it does not time anything.
	after := runtime.NumGoroutine()
	for i := 0; i < 200 && after > before; i++ {
		time.Sleep(50 * time.Millisecond)
		after = runtime.NumGoroutine()
	}

	t.Logf("%d concurrent streams of %d bytes: %v wall, %d errors, peak heap in use %.1f MiB, goroutines %d before / %d peak / %d after",
		clients, len(want), elapsed.Round(time.Millisecond), errs.Load(), float64(peakHeap.Load())/(1<<20), before, peakGoroutines.Load(), after)
	if n := errs.Load(); n > 0 {
		t.Fatalf("%d of %d streams failed; first: %v", n, clients, firstErr.Load())
	}
	if peak := peakHeap.Load(); peak > 256<<20 {
		t.Errorf("peak heap %d MiB, want under 256 MiB", peak>>20)
	}
	if after > before {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutine leak: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// BenchmarkProxy_Stream measures one complete streamed reply (40 events,
// no pauses) through the proxy, from parallel clients.
func BenchmarkProxy_Stream(b *testing.B) {
	upstream, want := scriptedUpstream(40, 0)
	defer upstream.Close()
	p, err := New(Config{Upstream: upstream.URL, Key: testKey})
	if err != nil {
		b.Fatal(err)
	}
	proxy := httptest.NewServer(p)
	defer proxy.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.SetBytes(int64(len(want)))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(proxy.URL+"/api/llm/chat/completions", "application/json", strings.NewReader(`{}`))
			if err != nil {
				b.Error(err)
				return
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if n != int64(len(want)) {
				b.Errorf("got %d bytes, want %d", n, len(want))
				return
			}
		}
	})
}
