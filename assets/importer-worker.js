// Importer worker bootstrap: a dedicated Web Worker that loads Go's
// wasm_exec.js and importer.wasm (the file importers, wasm/importer) and
// imports one file per "import" message. The page (app/knowledge/importrun)
// starts it on the first import.
//
// URLs: wasm_exec.js defaults to /wasm_exec.js (go-app serves it there) and
// importer.wasm to the file beside this script; ?exec=URL and ?wasm=URL on
// the script's URL override them.
'use strict';

const params = new URL(self.location.href).searchParams;
const execURL = new URL(params.get('exec') || '/wasm_exec.js', self.location.href).href;
const wasmURL = new URL(params.get('wasm') || 'importer.wasm', self.location.href).href;

// The Go runtime prints a crash (a panic) through console.log; keep the
// tail to explain it.
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
  if (!msg || msg.type !== 'import') return;
  if (ready) self.importerRun(msg);
  else pending.push(msg);
};

// Called by importer.wasm once importerRun exists.
self.importerReady = () => {
  ready = true;
  self.postMessage({ type: 'ready' });
  for (const msg of pending.splice(0)) self.importerRun(msg);
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

try {
  importScripts(execURL);
  const go = new Go();
  go.env = { GOTRACEBACK: 'none' };
  instantiate(go)
    .then(({ instance }) => go.run(instance))
    .then(() => fail('exit', 'the importer stopped'))
    .catch((err) => fail('error', 'cannot start the importer: ' + err));
} catch (err) {
  fail('error', 'cannot load ' + execURL + ': ' + err);
}
