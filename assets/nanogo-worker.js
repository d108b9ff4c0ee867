// nanoGo worker bootstrap: a dedicated Web Worker that loads Go's
// wasm_exec.js and nanogo.wasm (the yaegi sandbox, wasm/nanogo) and runs one
// snippet per "run" message. The page (nanogo.WorkerRunner) terminates this
// worker when a program overruns its time limit and starts a fresh one, so
// nothing here needs to be able to stop a program.
//
// URLs: wasm_exec.js defaults to /wasm_exec.js (go-app serves it there) and
// nanogo.wasm to the file beside this script; ?exec=URL and ?wasm=URL on the
// script's URL override them.
'use strict';

const params = new URL(self.location.href).searchParams;
const execURL = new URL(params.get('exec') || '/wasm_exec.js', self.location.href).href;
const wasmURL = new URL(params.get('wasm') || 'nanogo.wasm', self.location.href).href;

// The Go runtime prints fatal errors (a panic in a goroutine the snippet
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
  const msg = e.data;
  if (!msg || msg.type !== 'run') return;
  if (ready) self.nanogoRun(msg);
  else pending.push(msg);
};

// Called by nanogo.wasm once nanogoRun exists.
self.nanogoReady = () => {
  ready = true;
  self.postMessage({ type: 'ready' });
  for (const msg of pending.splice(0)) self.nanogoRun(msg);
};

function fail(type, message) {
  ready = false;
  self.postMessage({ type, message, log: logTail.join('\n') });
}

async function instantiate(go) {
  const resp = fetch(wasmURL);
  try {
    return await WebAssembly.instantiateStreaming(resp, go.importObject);
  } catch (err) {
    // instantiateStreaming needs Content-Type application/wasm; some
    // static hosts do not send it.
    const buf = await (await fetch(wasmURL)).arrayBuffer();
    return WebAssembly.instantiate(buf, go.importObject);
  }
}

try {
  importScripts(execURL);
  const go = new Go();
  // A crash prints only the panic message, not every goroutine's stack.
  go.env = { GOTRACEBACK: 'none' };
  instantiate(go)
    .then(({ instance }) => go.run(instance))
    .then(() => fail('exit', 'the nanoGo sandbox stopped'))
    .catch((err) => fail('error', 'cannot start the nanoGo sandbox: ' + err));
} catch (err) {
  fail('error', 'cannot load ' + execURL + ': ' + err);
}
