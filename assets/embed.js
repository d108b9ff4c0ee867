// tinyRAG embed: one <script> line puts a launcher button on any page and
// opens tinyRAG's compact view (embed.html) in an iframe panel beside it.
//
//   <script src="https://docs.example.org/tinyrag/embed.js" defer
//           data-title="Ask the docs" data-greeting="Hi! Ask me about our docs."
//           data-theme="auto" data-position="bottom-right"></script>
//
// Nothing of the app is loaded until the visitor opens the panel (or, with
// data-prefetch="idle", when the browser is idle). The launcher lives in a
// closed shadow root and the app in an iframe, so no style crosses either
// way; everything is position: fixed, so the host page never scrolls or
// reflows because of it.
//
// The host page talks to the app through window.tinyRAG (below), which
// speaks the versioned postMessage protocol ({v: 1, type, ...}) with the
// iframe. Messages are sent only to the app's exact origin and accepted only
// from the iframe's window at that origin. The protocol and options are
// documented in docs/embedding.md.
(function () {
  'use strict';
  const script = document.currentScript;
  if (!script || window.tinyRAG) return;
  const V = 1;
  const data = script.dataset;
  // The app's base URL: embed.js is served from web/ under it.
  const appURL = new URL(data.app || '..', script.src);
  const appOrigin = appURL.origin;
  const title = data.title || 'Ask tinyRAG';
  const position = data.position === 'bottom-left' ? 'left' : 'right';
  const listeners = {};
  const queue = [];
  let frame = null, panel = null, ready = false, open = false, lastFocus = null;

  const host = document.createElement('div');
  host.setAttribute('data-tinyrag-embed', '');
  // all: initial keeps the host page's styles off the shadow host itself.
  host.style.cssText = 'all: initial; position: fixed; z-index: 2147483000; bottom: 0; ' + position + ': 0; width: 0; height: 0;';
  const root = host.attachShadow({ mode: 'closed' });

  const theme = () => {
    const t = data.theme || 'auto';
    if (t === 'light' || t === 'dark') return t;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  };

  const style = document.createElement('style');
  style.textContent = `
:host { all: initial; }
* { box-sizing: border-box; }
.launcher { position: fixed; bottom: 20px; ${position}: 20px; width: 56px; height: 56px; border-radius: 50%;
  border: 0; cursor: pointer; display: flex; align-items: center; justify-content: center;
  background: var(--accent); color: #fff; box-shadow: 0 4px 16px rgba(0,0,0,.25); font: 600 14px/1 system-ui, sans-serif; }
.launcher:focus-visible { outline: 3px solid var(--ring); outline-offset: 3px; }
.launcher svg { width: 26px; height: 26px; }
.panel { position: fixed; bottom: 88px; ${position}: 20px; width: 400px; height: min(640px, calc(100vh - 112px));
  border-radius: 14px; overflow: hidden; box-shadow: 0 12px 40px rgba(0,0,0,.3); background: var(--bg);
  border: 1px solid var(--border); display: none; flex-direction: column; }
.panel.open { display: flex; }
.bar { display: flex; align-items: center; justify-content: space-between; padding: 8px 10px 8px 14px;
  font: 600 14px/1.2 system-ui, sans-serif; color: var(--fg); border-bottom: 1px solid var(--border); }
.close { border: 0; background: transparent; color: var(--fg); width: 32px; height: 32px; border-radius: 8px; cursor: pointer; font: 20px/1 system-ui, sans-serif; }
.close:focus-visible { outline: 3px solid var(--ring); }
iframe { border: 0; width: 100%; flex: 1; background: var(--bg); color-scheme: normal; }
.light { --accent: #2f5bd3; --ring: #7aa2ff; --bg: #ffffff; --fg: #1b1f24; --border: #d8dde4; }
.dark { --accent: #5b8cff; --ring: #a8c1ff; --bg: #16181d; --fg: #e8eaee; --border: #30343c; }
@media (max-width: 600px) {
  .panel { inset: 0; width: 100vw; height: 100%; border-radius: 0; border: 0; }
  .panel.open ~ .launcher { display: none; }
}
@media (prefers-reduced-motion: no-preference) { .launcher { transition: transform .15s; } .launcher:hover { transform: scale(1.06); } }
`;
  const wrap = document.createElement('div');
  wrap.className = theme();
  const launcher = document.createElement('button');
  launcher.className = 'launcher';
  launcher.type = 'button';
  launcher.setAttribute('aria-label', title);
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.title = title;
  // A speech bubble; a chevron pointing at the panel while it is open.
  const icon = (d) => '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="' + d + '"/></svg>';
  const bubble = icon('M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z');
  const chevron = icon('M6 9l6 6 6-6');
  launcher.innerHTML = bubble;
  root.append(style, wrap);
  wrap.append(launcher);

  function build() {
    if (panel) return;
    panel = document.createElement('div');
    panel.className = 'panel';
    panel.id = 'tinyrag-panel';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', title);
    const bar = document.createElement('div');
    bar.className = 'bar';
    const name = document.createElement('span');
    name.textContent = title;
    const close = document.createElement('button');
    close.className = 'close';
    close.type = 'button';
    close.setAttribute('aria-label', 'Close');
    close.textContent = '×';
    close.addEventListener('click', () => api.close());
    bar.append(name, close);
    frame = document.createElement('iframe');
    frame.title = title;
    // embed.html, not embed: every host serves it as HTML, by extension.
    const src = new URL('embed.html', appURL);
    for (const k of ['greeting', 'bundles', 'lang']) if (data[k]) src.searchParams.set(k, data[k]);
    src.searchParams.set('theme', theme());
    frame.src = src.href;
    // A reload of the app (an update) starts it afresh: hold the host's
    // messages again until it says ready. (The app says ready only after
    // its wasm has started, well after its page's load event.)
    let loads = 0;
    frame.addEventListener('load', () => { if (loads++ > 0) ready = false; });
    frame.allow = 'clipboard-write';
    panel.append(bar, frame);
    wrap.insertBefore(panel, launcher);
    launcher.setAttribute('aria-controls', panel.id);
  }

  function post(msg) {
    msg.v = V;
    if (!ready) { queue.push(msg); return; }
    frame.contentWindow.postMessage(msg, appOrigin);
  }

  function emit(type, detail) {
    for (const fn of listeners[type] || []) {
      try { fn(detail); } catch (e) { console.error('tinyRAG embed listener:', e); }
    }
  }

  window.addEventListener('message', (e) => {
    if (!frame || e.source !== frame.contentWindow || e.origin !== appOrigin) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.v !== V || typeof m.type !== 'string') return;
    switch (m.type) {
      case 'ready':
        ready = true;
        while (queue.length) frame.contentWindow.postMessage(queue.shift(), appOrigin);
        break;
      case 'close':
        api.close();
        break;
      // resize only goes to the host's listeners: the panel keeps its
      // height, so a growing answer scrolls inside it instead of moving
      // the panel under the visitor's pointer.
    }
    emit(m.type, m);
  });

  function onKey(e) {
    if (e.key === 'Escape' && open) { e.stopPropagation(); api.close(); }
  }

  const api = {
    version: V,
    open() {
      build();
      if (open) return;
      open = true;
      // Inside the closed root the page sees only the shadow host; the
      // root knows whether it was the launcher.
      lastFocus = root.activeElement || document.activeElement;
      panel.classList.add('open');
      launcher.setAttribute('aria-expanded', 'true');
      launcher.innerHTML = chevron;
      document.addEventListener('keydown', onKey, true);
      frame.focus({ preventScroll: true });
      emit('open', { v: V, type: 'open' });
    },
    close() {
      if (!open) return;
      open = false;
      panel.classList.remove('open');
      launcher.setAttribute('aria-expanded', 'false');
      launcher.innerHTML = bubble;
      document.removeEventListener('keydown', onKey, true);
      const back = lastFocus && lastFocus.isConnected && lastFocus !== document.body ? lastFocus : launcher;
      back.focus({ preventScroll: true });
      emit('close', { v: V, type: 'close' });
    },
    toggle() { open ? api.close() : api.open(); },
    isOpen() { return open; },
    // ask puts a question to the app. Unless the site allows the host to
    // submit, the app shows it in the composer for the visitor to send.
    ask(question) { api.open(); post({ type: 'ask', question: String(question) }); },
    // addDocuments imports [{title, text, url}] into this visitor's
    // knowledge base for the embedding site.
    addDocuments(docs) { build(); post({ type: 'add_documents', documents: docs }); },
    // setContext gives the app text about the page the visitor is on.
    setContext(text) { build(); post({ type: 'set_context', context: String(text) }); },
    on(type, fn) { (listeners[type] = listeners[type] || []).push(fn); return api; },
    off(type, fn) { listeners[type] = (listeners[type] || []).filter((f) => f !== fn); return api; },
  };
  launcher.addEventListener('click', () => api.toggle());
  window.tinyRAG = api;

  const mount = () => {
    document.body.appendChild(host);
    if (data.open === 'true') api.open();
    if (data.prefetch === 'idle') {
      const go = () => build();
      (window.requestIdleCallback || ((f) => setTimeout(f, 2000)))(go);
    }
  };
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
})();
