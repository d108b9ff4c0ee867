// Go worker bootstrap: a dedicated Web Worker that loads Go's wasm_exec.js
// and one Go wasm program — nanogo.wasm (the yaegi sandbox, wasm/nanogo) or
// importer.wasm (the file importers, wasm/importer) — and hands it every
// message the page posts. The page's side is app/worker.Client: it
// terminates this worker to stop a program that overran or crashed and
// starts a fresh one, so nothing here needs to be able to stop a program.
//
// The program sets self.workerRun(msg) and then calls self.workerReady();
// messages that arrive before are queued. It answers with postMessage.
//
// URLs: ?wasm=URL names the program (relative to this script, required);
// wasm_exec.js defaults to /wasm_exec.js (go-app serves it there) and
// ?exec=URL overrides it.
'use strict';

const params = new URL(self.location.href).searchParams;
const execURL = new URL(params.get('exec') || '/wasm_exec.js', self.location.href).href;
const wasmParam = params.get('wasm');
const wasmURL = wasmParam ? new URL(wasmParam, self.location.href).href : '';

// The Go runtime prints fatal errors (a panic in a goroutine the program
// started) through console.log; keep the tail to explain a crash.
const logTail = [];
for (const level of ['log', 'error']) {
  const orig = console[level].bind(console);
  console[level] = (...args) => {
    logTail.push(args.join(' '));
    if (logTail.length > 20) logTail.shift();
    orig(...args);
  };
}

let ready = false;
const pending = [];

self.onmessage = (e) => {
  if (!e.data) return;
  if (ready) self.workerRun(e.data);
  else pending.push(e.data);
};

// Called by the program once workerRun exists.
self.workerReady = () => {
  ready = true;
  self.postMessage({ type: 'ready' });
  for (const msg of pending.splice(0)) self.workerRun(msg);
};

function fail(type, message) {
  ready = false;
  self.postMessage({ type, message, log: logTail.join('\n') });
}

async function instantiate(go) {
  try {
    return await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
  } catch (err) {
    // instantiateStreaming needs Content-Type application/wasm; some
    // static hosts do not send it.
    const buf = await (await fetch(wasmURL)).arrayBuffer();
    return WebAssembly.instantiate(buf, go.importObject);
  }
}

if (!wasmURL) {
  fail('error', 'the worker script names no program (?wasm=)');
} else {
  try {
    importScripts(execURL);
    const go = new Go();
    // A crash prints only the panic message, not every goroutine's stack.
    go.env = { GOTRACEBACK: 'none' };
    instantiate(go)
      .then(({ instance }) => go.run(instance))
      .then(() => fail('exit', wasmParam + ' stopped'))
      .catch((err) => fail('error', 'cannot start ' + wasmParam + ': ' + err));
  } catch (err) {
    fail('error', 'cannot load ' + execURL + ': ' + err);
  }
}
