package webapp

import (
	"bytes"
	"fmt"
)

// goappFetchWithProgress is go-app v10.1.11's app.js function that fetches
// app.wasm for its loader. It copies the response, chunk by chunk, through
// a JavaScript ReadableStream on the page's main thread before
// WebAssembly.instantiateStreaming sees it. While the main thread is busy
// (a slow phone, the page's other scripts), the copy falls behind: the
// compiler gets the bytes late, and the network, held back by the
// stream's backpressure, delivers the last byte late (docs/startup.md).
// The response is also no longer the one fetch() returned, so the browser
// cannot cache the compiled code by its URL.
const goappFetchWithProgress = `async function fetchWithProgress(url, progess) {
  const response = await fetch(url);

  let contentLength = goappWasmContentLength;
  if (contentLength <= 0) {
    try {
      contentLength = response.headers.get(goappWasmContentLengthHeader);
    } catch { }
    if (!goappWasmContentLengthHeader || !contentLength) {
      contentLength = response.headers.get("Content-Length");
    }
  }

  const total = parseInt(contentLength, 10);
  let loaded = 0;

  const progressHandler = function (loaded, total) {
    progess(Math.round((loaded * 100) / total));
  };

  var res = new Response(
    new ReadableStream(
      {
        async start(controller) {
          var reader = response.body.getReader();
          for (; ;) {
            var { done, value } = await reader.read();

            if (done) {
              progressHandler(total, total);
              break;
            }

            loaded += value.byteLength;
            progressHandler(loaded, total);
            controller.enqueue(value);
          }
          controller.close();
        },
      },
      {
        status: response.status,
        statusText: response.statusText,
      }
    )
  );

  for (var pair of response.headers.entries()) {
    res.headers.set(pair[0], pair[1]);
  }

  return res;
}`

// streamingFetchWithProgress hands fetch()'s own response to the compiler,
// which then reads the network's bytes without JavaScript in between, and
// counts a clone's bytes for the progress label. The browser splits a
// network body in two natively; the label's branch only buffers what the
// label has not yet counted. The label shows decoded bytes against
// goappWasmContentLength (the raw size, which buildPWA sets whenever
// app.wasm is embedded); a compressed response's Content-Length would count
// past 100 %, so without the raw size the label stays at 0 %.
//
// When the clone's last byte is in (all goappWasmContentLength bytes, or
// the end of the stream: the read that says so can come after Go has
// started and held the thread for a while), it marks "tinyrag:wasm" and
// fires that event on window: the page's site-prefetch.js starts a large
// site's term map pages then, on a line app.wasm no longer needs. The
// resource timing entry it could watch instead reaches a
// PerformanceObserver late, on a low-priority task: 0.7 s after the last
// byte in a 50k-site benchmark run (docs/site-knowledge-bench.md).
//
// A host that sends app.wasm as it lies on disk, with no Content-Encoding
// (Python's http.server, S3, an nginx that compresses only text), sends
// four times the bytes of the .gz sibling tinyrag static writes beside
// it: about 12 MB instead of 3. Then the loader asks for the sibling,
// cancels the plain download once the sibling answers, and inflates the
// sibling in the browser (DecompressionStream) on its way to the
// compiler, which still compiles while it streams. A host that sends the
// sibling with Content-Encoding: gzip has inflated it already. A page the
// service worker controls gets app.wasm from the worker's store, which
// does the same on its own (server/pwa/worker.js), so it is left alone.
const streamingFetchWithProgress = `async function tinyragGzipSibling(url, init) {
  // tinyRAG: url's .gz sibling as a response whose body is the file
  // inflated, or null when the host has none. A host that answers every
  // missing file with its HTML page is not sending one; a host that sends
  // it with Content-Encoding: gzip has inflated it already. The page's
  // site-prefetch.js takes a bundle's files with it too.
  if (typeof DecompressionStream !== "function") {
    return null;
  }
  let gz;
  try {
    gz = await fetch(url + ".gz", init);
  } catch {
    return null;
  }
  if (!gz.ok || !gz.body || /^text\//i.test(gz.headers.get("Content-Type") || "")) {
    return null;
  }
  if (/gzip/i.test(gz.headers.get("Content-Encoding") || "")) {
    return gz;
  }
  return new Response(gz.body.pipeThrough(new DecompressionStream("gzip")));
}

async function tinyragPlainWasm(url, response) {
  if (!response.ok || !response.body || response.headers.get("Content-Encoding") ||
      (navigator.serviceWorker && navigator.serviceWorker.controller)) {
    return response;
  }
  const gz = await tinyragGzipSibling(url);
  if (!gz) {
    return response;
  }
  response.body.cancel().catch(() => {});
  // The site's bundle files come from their siblings too
  // (assets/web/site-prefetch.js).
  window.tinyragPlainHost = true;
  return new Response(gz.body, { status: 200, headers: { "Content-Type": "application/wasm" } });
}

async function fetchWithProgress(url, progess) {
  // tinyRAG: see server/webapp/loader.go.
  const response = await tinyragPlainWasm(url, await fetch(url));
  const total = parseInt(goappWasmContentLength, 10);
  if (response.ok && response.body) {
    const reader = response.clone().body.getReader();
    let arrived = false;
    const arrive = () => {
      if (!arrived) {
        arrived = true;
        performance.mark("tinyrag:wasm");
        window.dispatchEvent(new Event("tinyrag:wasm"));
      }
    };
    (async () => {
      let loaded = 0, shown = -1;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          arrive();
          return;
        }
        if (!(total > 0)) {
          continue;
        }
        loaded += value.byteLength;
        if (loaded >= total) {
          arrive();
        }
        const p = Math.min(100, Math.round((loaded * 100) / total));
        if (p !== shown) {
          shown = p;
          progess(p);
        }
      }
    })().catch(() => {});
  }
  return response;
}`

// streamLoader rewrites go-app's app.js so that app.wasm streams straight
// into the compiler. It fails when go-app's function is not there word for
// word: a new go-app version must be looked at, not patched blindly.
func streamLoader(appJS []byte) ([]byte, error) {
	if n := bytes.Count(appJS, []byte(goappFetchWithProgress)); n != 1 {
		return nil, fmt.Errorf("app.js: go-app's fetchWithProgress found %d times, want once (a go-app upgrade changed its loader: review server/webapp/loader.go)", n)
	}
	return bytes.Replace(appJS, []byte(goappFetchWithProgress), []byte(streamingFetchWithProgress), 1), nil
}
