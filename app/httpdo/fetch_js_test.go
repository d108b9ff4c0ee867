//go:build js && wasm

package httpdo_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"tinyrag/app/httpdo"
)

// origin is the test page's origin, whose /x/ endpoints browser_test.go
// serves; in Node there is none and these tests skip (they run in
// Chromium, where skipping fails).
func origin(t *testing.T) string {
	t.Helper()
	loc := js.Global().Get("location")
	if loc.IsUndefined() {
		t.Skip("needs a page and fetch(): runs in Chromium through TestFetchInChromium")
	}
	return loc.Get("origin").String()
}

func get(t *testing.T, ctx context.Context, url string) *httpdo.Response {
	t.Helper()
	req, err := httpdo.NewRequest(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := httpdo.Fetch{}.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp
}

func body(t *testing.T, url string) string {
	t.Helper()
	resp := get(t, context.Background(), url)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetch_HandsOutTheBodyAsItArrives(t *testing.T) {
	o := origin(t)
	resp := get(t, context.Background(), o+"/x/stream")
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	line, err := r.ReadString('\n')
	if err != nil || line != "data: first\n" {
		t.Fatalf("first line = %q, %v", line, err)
	}
	// The server sends the rest only after this request: reading the first
	// line must not have waited for the whole body.
	body(t, o+"/x/release")
	rest, err := io.ReadAll(r)
	if err != nil || string(rest) != "\ndata: second\n\n" {
		t.Fatalf("rest = %q, %v", rest, err)
	}
}

func TestFetch_CancelAbortsTheBodyReadAndTheRequest(t *testing.T) {
	o := origin(t)
	ctx, cancel := context.WithCancel(context.Background())
	resp := get(t, ctx, o+"/x/hang")
	defer resp.Body.Close()
	buf := make([]byte, 6)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "start\n" {
		t.Fatalf("start = %q, %v", buf, err)
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := resp.Body.Read(buf)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Read after cancel = %v, want context.Canceled", err)
	}
	if got := body(t, o+"/x/was-aborted"); got != "yes" {
		t.Errorf("the server did not see the request end after the cancel")
	}
}

func TestFetch_CancelBeforeTheReplyEndsDo(t *testing.T) {
	o := origin(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	req, _ := httpdo.NewRequest(ctx, "GET", o+"/x/no-headers", nil)
	resp, err := httpdo.Fetch{}.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Do = %v, want context.Canceled", err)
	}
	if got := body(t, o+"/x/was-aborted"); got != "yes" {
		t.Errorf("the server did not see the request end after the cancel")
	}
}

func TestFetch_SendsMethodHeadersAndBodyAndReturnsAnyStatus(t *testing.T) {
	o := origin(t)
	req, _ := httpdo.NewRequest(context.Background(), "POST", o+"/x/echo", strings.NewReader(`{"q":"tea"}`))
	req.Header.Set("X-Test", "yes")
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpdo.Fetch{}.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 418 || resp.Status != "418 I'm a teapot" {
		t.Errorf("status = %d %q", resp.StatusCode, resp.Status)
	}
	if got := resp.Header.Get("X-Reply"); got != "method=POST test=yes type=application/json" {
		t.Errorf("X-Reply = %q", got)
	}
	if string(b) != `{"Q":"TEA"}` {
		t.Errorf("body = %q", b)
	}
}

func TestFetch_FollowsRedirectsAndSaysWhereItEnded(t *testing.T) {
	o := origin(t)
	resp := get(t, context.Background(), o+"/x/moved")
	defer resp.Body.Close()
	if resp.StatusCode != 418 || resp.URL.Path != "/x/echo" {
		t.Errorf("after the redirect: status %d at %s, want 418 at /x/echo", resp.StatusCode, resp.URL)
	}
}

func TestFetch_UnreachableServerIsAnError(t *testing.T) {
	origin(t)
	req, _ := httpdo.NewRequest(context.Background(), "GET", "http://127.0.0.1:9/", nil)
	resp, err := httpdo.Fetch{}.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatal("no error from a closed port")
	}
	if !strings.Contains(err.Error(), "fetch http://127.0.0.1:9/") {
		t.Errorf("error %q does not say what failed", err)
	}
}

func TestDefault_IsFetchInTheBrowser(t *testing.T) {
	origin(t)
	if _, ok := httpdo.Or(nil).(httpdo.Fetch); !ok {
		t.Errorf("Or(nil) = %T, want httpdo.Fetch", httpdo.Or(nil))
	}
}
