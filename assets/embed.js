// tinyRAG embed: one <script> line puts a launcher button on any page and
// opens tinyRAG's compact view (embed.html) in an iframe panel beside it;
// with data-search it also gives the page a search box (Ctrl-K, "/") over
// the site's knowledge that turns a query into a question.
//
//   <script src="https://docs.example.org/tinyrag/embed.js" defer
//           data-title="Ask the docs" data-greeting="Hi! Ask me about our docs."
//           data-theme="auto" data-position="bottom-right" data-search="true"></script>
//
// Nothing of the app is loaded until the visitor opens the panel or the
// search (or, with data-prefetch="idle", when the browser is idle). The
// launcher, the search and the panel live in a closed shadow root and the
// app in one iframe, which serves both: the search box is drawn here and
// the frame searches, so the index is loaded once. No style crosses either
// way; everything is position: fixed, so the host page never scrolls or
// reflows because of it.
//
// The host page talks to the app through window.tinyRAG (below), which
// speaks the versioned postMessage protocol ({v: 1, type, ...}) with the
// iframe. Messages are sent only to the app's exact origin and accepted only
// from the iframe's window at that origin. The protocol and options are
// documented in docs/embedding.md and docs/embedding-search.md.
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
  const de = data.lang === 'de';
  const t = de ? {
    search: 'Suchen', results: (n) => n === 1 ? '1 Treffer' : n + ' Treffer', none: 'Keine Treffer', loading: 'Die Suche lädt…',
    pending: 'Diese Seite lädt…',
    ask: (q) => 'Frag nach „' + q + '“', keys: '↑ ↓ wählen · Enter öffnen · Esc schließt', close: 'Schließen',
    askSel: 'Danach fragen', selQ: (s) => 'Erkläre das: „' + s + '“',
  } : {
    search: 'Search', results: (n) => n === 1 ? '1 result' : n + ' results', none: 'No results', loading: 'Loading search…',
    pending: 'Loading this page…',
    ask: (q) => 'Ask about “' + q + '”', keys: '↑ ↓ to choose · Enter to open · Esc to close', close: 'Close',
    askSel: 'Ask about this', selQ: (s) => 'Explain this: "' + s + '"',
  };
  const listeners = {};
  const queue = [];
  let frame = null, panel = null, ready = false, open = false, lastFocus = null;

  const host = document.createElement('div');
  host.setAttribute('data-tinyrag-embed', '');
  // all: initial keeps the host page's styles off the shadow host itself.
  host.style.cssText = 'all: initial; position: fixed; z-index: 2147483000; bottom: 0; ' + position + ': 0; width: 0; height: 0;';
  const root = host.attachShadow({ mode: 'closed' });

  const theme = () => {
    const th = data.theme || 'auto';
    if (th === 'light' || th === 'dark') return th;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  };
  const side = position === 'left' ? 'right' : 'left';

  const style = document.createElement('style');
  style.textContent = `
:host { all: initial; }
* { box-sizing: border-box; }
button { font: inherit; }
.launcher, .sbtn { position: fixed; border: 0; cursor: pointer; display: flex; align-items: center; justify-content: center; border-radius: 50%; }
.launcher { bottom: 20px; ${position}: 20px; width: 56px; height: 56px;
  background: var(--accent); color: #fff; box-shadow: 0 4px 16px rgba(0,0,0,.25); font: 600 14px/1 system-ui, sans-serif; }
.sbtn { bottom: 28px; ${position}: 88px; width: 40px; height: 40px; background: var(--bg); color: var(--fg); border: 1px solid var(--border); box-shadow: 0 2px 10px rgba(0,0,0,.18); }
.launcher:focus-visible, .sbtn:focus-visible, .sel:focus-visible { outline: 3px solid var(--ring); outline-offset: 3px; }
.launcher svg { width: 26px; height: 26px; }
.sbtn svg { width: 19px; height: 19px; }
.panel { position: fixed; bottom: 88px; ${position}: 20px; width: 400px; height: min(640px, calc(100vh - 112px));
  border-radius: 14px; overflow: hidden; box-shadow: 0 12px 40px rgba(0,0,0,.3); background: var(--bg);
  border: 1px solid var(--border); display: none; flex-direction: column; }
.panel.open { display: flex; }
.bar { display: flex; align-items: center; justify-content: space-between; padding: 8px 10px 8px 14px;
  font: 600 14px/1.2 system-ui, sans-serif; color: var(--fg); border-bottom: 1px solid var(--border); }
.close { border: 0; background: transparent; color: var(--fg); width: 32px; height: 32px; border-radius: 8px; cursor: pointer; font: 20px/1 system-ui, sans-serif; }
.close:focus-visible { outline: 3px solid var(--ring); }
iframe { border: 0; width: 100%; flex: 1; background: var(--bg); color-scheme: normal; }
.back { position: fixed; inset: 0; background: rgba(10,12,18,.5); display: none; align-items: flex-start; justify-content: center; padding: 12vh 16px 16px; }
.back.open { display: flex; }
.search { width: min(640px, 100%); max-height: min(560px, 76vh); display: flex; flex-direction: column; overflow: hidden;
  background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 14px; box-shadow: 0 16px 48px rgba(0,0,0,.35);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
.sbar { display: flex; align-items: center; gap: 10px; padding: 12px 14px; border-bottom: 1px solid var(--border); color: var(--dim); }
.sbar svg { width: 20px; height: 20px; flex: none; }
.sbar input { flex: 1; min-width: 0; border: 0; outline: 0; background: transparent; color: var(--fg); font: inherit; font-size: 17px; }
.sbar .close { font-size: 13px; width: auto; padding: 2px 8px; border: 1px solid var(--border); color: var(--dim); height: 26px; }
ul { list-style: none; margin: 0; padding: 6px; overflow-y: auto; flex: 1; }
ul:empty { display: none; }
li { border-radius: 9px; cursor: pointer; border-left: 3px solid transparent; }
li > a, li > div { display: block; padding: 8px 12px; color: inherit; text-decoration: none; }
li[aria-selected="true"] { background: var(--sel); border-left-color: var(--accent); }
.t { display: block; font-weight: 600; }
.s { display: block; font-size: 13.5px; color: var(--dim); overflow: hidden; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
mark { background: var(--mark); color: inherit; border-radius: 3px; padding: 0 1px; }
.ask > div { display: flex; gap: 9px; align-items: center; font-weight: 600; color: var(--accent); }
.ask svg { width: 18px; height: 18px; flex: none; }
.pending { cursor: default; }
.pending .bar { display: block; height: .8em; margin: 5px 0; border-radius: 4px; background: var(--border); animation: tr-pulse 1.2s ease-in-out infinite; }
.pending .bar + .bar { width: 70%; }
@keyframes tr-pulse { 50% { opacity: .45; } }
@media (prefers-reduced-motion: reduce) { .pending .bar { animation: none; } }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.foot { display: flex; justify-content: space-between; flex-wrap: wrap; gap: 4px 12px; padding: 8px 14px; border-top: 1px solid var(--border); font-size: 12px; color: var(--dim); }
.sel { position: fixed; display: none; align-items: center; gap: 6px; padding: 6px 11px; border: 0; border-radius: 999px; cursor: pointer;
  background: var(--accent); color: #fff; font: 600 13px/1 system-ui, sans-serif; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.sel svg { width: 15px; height: 15px; }
.light { --accent: #2f5bd3; --ring: #7aa2ff; --bg: #ffffff; --fg: #1b1f24; --dim: #5b6472; --border: #d8dde4; --sel: #eef2fd; --mark: rgba(47,91,211,.2); }
.dark { --accent: #6f9bff; --ring: #a8c1ff; --bg: #16181d; --fg: #e8eaee; --dim: #a2a9b6; --border: #30343c; --sel: #222a3d; --mark: rgba(111,155,255,.32); }
.dark .launcher, .dark .sel { background: #5b8cff; }
@media (max-width: 600px) {
  .panel { inset: 0; width: 100vw; height: 100%; border-radius: 0; border: 0; }
  .panel.open ~ .launcher, .panel.open ~ .sbtn { display: none; }
  .back { padding: 0; }
  .search { width: 100vw; height: 100%; max-height: none; border-radius: 0; border: 0; }
}
@media (prefers-reduced-motion: no-preference) { .launcher { transition: transform .15s; } .launcher:hover { transform: scale(1.06); } }
`;
  const wrap = document.createElement('div');
  wrap.className = theme();
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };
  const button = (cls, label) => {
    const b = el('button', cls);
    b.type = 'button';
    b.setAttribute('aria-label', label);
    b.title = label;
    return b;
  };
  const icon = (d) => '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">' + d + '</svg>';
  // A speech bubble; a chevron pointing at the panel while it is open; a
  // magnifier (the same drawings as the app's own, app/icons).
  const bubble = icon('<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/>');
  const chevron = icon('<path d="M6 9l6 6 6-6"/>');
  const lens = icon('<circle cx="11" cy="11" r="7"/><path d="M16.5 16.5 21 21"/>');
  const launcher = button('launcher', title);
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.innerHTML = bubble;
  root.append(style, wrap);
  wrap.append(launcher);

  function build() {
    if (panel) return;
    panel = el('div', 'panel');
    panel.id = 'tinyrag-panel';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', title);
    const bar = el('div', 'bar');
    const close = button('close', t.close);
    close.textContent = '×';
    close.addEventListener('click', () => api.close());
    bar.append(el('span', '', title), close);
    frame = document.createElement('iframe');
    frame.title = title;
    // embed.html, not embed: every host serves it as HTML, by extension.
    const src = new URL('embed.html', appURL);
    for (const k of ['greeting', 'bundles', 'lang']) if (data[k]) src.searchParams.set(k, data[k]);
    const starters = parseStarters(data.starters);
    if (starters.length) src.searchParams.set('starters', JSON.stringify(starters));
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

  // data-starters: a JSON array of questions, or questions separated by "|".
  function parseStarters(v) {
    if (!v) return [];
    let list;
    try { list = v.trim().startsWith('[') ? JSON.parse(v) : v.split('|'); } catch (e) { return []; }
    return Array.isArray(list) ? list.map((s) => String(s).trim()).filter(Boolean) : [];
  }

  function post(msg) {
    msg.v = V;
    if (!ready) {
      // Only the latest search is worth running once the app is there.
      if (msg.type === 'search') for (let i = queue.length - 1; i >= 0; i--) if (queue[i].type === 'search') queue.splice(i, 1);
      queue.push(msg);
      return;
    }
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
        if (searching) status.textContent = '';
        break;
      case 'close':
        api.close();
        break;
      case 'results':
        showResults(m, false);
        break;
      case 'partial_results':
        showResults(m, true);
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

  // The search: a combobox over a listbox of pages, drawn here so it opens
  // at once; the frame answers each query with the best pages.
  let back = null, input, list, status, searching = false, results = [], active = 0, asked = '', shown = null;
  function buildSearch() {
    if (back) return;
    back = el('div', 'back');
    const box = el('div', 'search');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-label', t.search + ' – ' + title);
    const sbar = el('div', 'sbar');
    sbar.innerHTML = lens;
    input = el('input');
    input.type = 'text';
    input.id = 'tr-q';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.placeholder = t.search + '…';
    const attrs = { role: 'combobox', 'aria-expanded': 'false', 'aria-controls': 'tr-list', 'aria-autocomplete': 'list', 'aria-label': t.search + ' – ' + title };
    for (const k in attrs) input.setAttribute(k, attrs[k]);
    const esc = button('close', t.close);
    esc.textContent = 'Esc';
    esc.addEventListener('click', () => closeSearch());
    sbar.append(input, esc);
    list = el('ul');
    list.id = 'tr-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', t.search);
    const foot = el('div', 'foot');
    status = el('span');
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    foot.append(status, el('span', '', t.keys));
    box.append(sbar, list, foot);
    back.append(box);
    wrap.append(back);
    back.addEventListener('mousedown', (e) => { if (e.target === back) closeSearch(); });
    input.addEventListener('input', () => query(input.value));
    input.addEventListener('keydown', onSearchKey);
  }

  function openSearch(q) {
    build();
    buildSearch();
    if (!searching && !open) lastFocus = root.activeElement || document.activeElement;
    if (open) api.close(true);
    searching = true;
    back.classList.add('open');
    input.value = q || '';
    input.focus({ preventScroll: true });
    input.setSelectionRange(input.value.length, input.value.length);
    query(input.value);
    emit('search', { v: V, type: 'search', query: input.value });
  }

  function closeSearch(keepFocus) {
    if (!searching) return;
    searching = false;
    back.classList.remove('open');
    if (!keepFocus) refocus();
  }

  function refocus() {
    const to = lastFocus && lastFocus.isConnected && lastFocus !== document.body ? lastFocus : launcher;
    to.focus({ preventScroll: true });
  }

  function query(q) {
    asked = q.trim();
    if (!asked) { results = []; shown = null; render(); status.textContent = ''; return; }
    if (!ready) status.textContent = t.loading;
    post({ type: 'search', query: asked });
  }

  // showResults draws a query's results; partial ones (some pages' texts
  // still loading, each in its final place) come first, and the count is
  // said once they are whole. The chosen row stays while they fill in.
  function showResults(m, partial) {
    if (!searching || m.query !== asked) return; // an answer to an older query
    results = Array.isArray(m.results) ? m.results : [];
    if (shown !== m.query) active = 0;
    shown = m.query;
    render();
    if (!partial) status.textContent = results.length ? t.results(results.length) : t.none;
  }

  // render lists the pages and, last, the question: every piece of a
  // page's title and excerpt is text, the matched words in <mark>.
  function render() {
    list.textContent = '';
    results.forEach((r, i) => {
      const li = option('tr-o' + i, i);
      if (r.pending) {
        li.className = 'pending';
        li.setAttribute('aria-busy', 'true');
        const d = el('div');
        d.append(el('span', 'sr', t.pending), el('span', 'bar'), el('span', 'bar'));
        li.append(d);
        return;
      }
      const a = el(r.url ? 'a' : 'div');
      if (r.url && /^https?:/.test(r.url)) { a.href = r.url; a.tabIndex = -1; }
      a.append(el('span', 't', r.title || r.source || ''));
      const s = el('span', 's');
      (Array.isArray(r.snippet) ? r.snippet : []).forEach((p, k) => s.append(k % 2 ? el('mark', '', String(p)) : document.createTextNode(String(p))));
      a.append(s);
      li.append(a);
    });
    if (asked) {
      const li = option('tr-ask', results.length);
      li.className = 'ask';
      const d = el('div');
      d.innerHTML = bubble;
      d.append(el('span', '', t.ask(asked)));
      li.append(d);
    }
    select(Math.min(active, list.children.length - 1));
    input.setAttribute('aria-expanded', String(list.children.length > 0));
  }

  function option(id, i) {
    const li = el('li');
    li.id = id;
    li.setAttribute('role', 'option');
    li.addEventListener('mousemove', () => { if (active !== i) select(i); });
    li.addEventListener('click', (e) => { e.preventDefault(); choose(i); });
    list.append(li);
    return li;
  }

  function select(i) {
    active = i;
    [...list.children].forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    const li = list.children[i];
    if (li) { input.setAttribute('aria-activedescendant', li.id); li.scrollIntoView({ block: 'nearest' }); }
    else input.removeAttribute('aria-activedescendant');
  }

  // choose opens a page at its passage (in this window: the visitor's
  // gesture, so the browser highlights the passage) or asks the question.
  function choose(i) {
    if (i < results.length) {
      const u = results[i].url;
      if (u && /^https?:/.test(u)) { emit('navigate', { v: V, type: 'navigate', url: u }); location.assign(u); }
      return;
    }
    if (asked) { closeSearch(true); api.ask(asked); }
  }

  function onSearchKey(e) {
    const n = list.children.length;
    switch (e.key) {
      case 'ArrowDown': if (n) select((active + 1) % n); break;
      case 'ArrowUp': if (n) select((active - 1 + n) % n); break;
      case 'Enter': if (!e.isComposing && n) choose(active); break;
      case 'Escape': closeSearch(); break;
      case 'Tab': break; // the only control that takes the focus
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  // The owner's keys (data-search-keys, default "mod+k,/"; mod is Ctrl or
  // ⌘) open the search — never while the visitor types in a field of the
  // page.
  const keys = (data.searchKeys || 'mod+k,/').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean).map((s) => {
    const parts = s.split('+');
    const key = parts.pop() || '+';
    const m = {};
    parts.forEach((p) => { m[p] = true; });
    return { key, m };
  });
  const pressed = (k, e) => k.key === e.key.toLowerCase() &&
    (k.m.mod ? e.ctrlKey || e.metaKey : !!k.m.ctrl === e.ctrlKey && !!k.m.meta === e.metaKey) &&
    !!k.m.alt === e.altKey && (!k.m.shift || e.shiftKey);
  const typing = (n) => n && (n.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(n.tagName));

  let hostInput = null;
  function setupSearch() {
    if (data.searchInput) hostInput = document.querySelector(data.searchInput);
    if (data.search !== 'true' && !hostInput) return;
    document.addEventListener('keydown', (e) => {
      if (searching || e.defaultPrevented || typing(e.composedPath()[0]) || !keys.some((k) => pressed(k, e))) return;
      e.preventDefault();
      openSearch('');
    });
    if (hostInput) {
      // The site's own search box opens this search, with what it holds.
      hostInput.setAttribute('aria-haspopup', 'dialog');
      hostInput.addEventListener('click', () => openSearch(hostInput.value));
      hostInput.addEventListener('keydown', (e) => {
        if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
        // A character: the focus moves now, so the browser types it into
        // the search box, not the site's.
        if (e.key.length === 1) return openSearch(hostInput.value);
        if (e.key !== 'Enter' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        openSearch(hostInput.value);
      });
      return;
    }
    const sbtn = button('sbtn', t.search + ' (' + keys.map((k) => (k.m.mod ? 'Ctrl ' : '') + k.key.toUpperCase()).join(', ') + ')');
    sbtn.innerHTML = lens;
    sbtn.addEventListener('click', () => openSearch(''));
    wrap.append(sbtn);
  }

  // "Ask about this" beside a selection of the page's text.
  function setupSelection() {
    if (data.selection !== 'true') return;
    const sel = button('sel', t.askSel);
    sel.innerHTML = bubble;
    sel.append(el('span', '', t.askSel));
    wrap.append(sel);
    const text = () => {
      const s = window.getSelection();
      if (!s || s.isCollapsed || !s.rangeCount || host.contains(s.anchorNode)) return '';
      const v = s.toString().replace(/\s+/g, ' ').trim();
      return v.length >= 3 ? v.slice(0, 1000) : '';
    };
    const hide = () => { sel.style.display = 'none'; };
    const show = () => {
      if (!text()) return hide();
      const r = window.getSelection().getRangeAt(0).getBoundingClientRect();
      sel.style.left = Math.max(8, Math.min(r.left, innerWidth - 180)) + 'px';
      sel.style.top = (r.bottom + 44 < innerHeight ? r.bottom + 8 : Math.max(8, r.top - 40)) + 'px';
      sel.style.display = 'flex';
    };
    document.addEventListener('mouseup', () => setTimeout(show));
    document.addEventListener('keyup', (e) => { if (e.shiftKey) setTimeout(show); });
    document.addEventListener('selectionchange', () => { if (!text()) hide(); });
    window.addEventListener('scroll', hide, true);
    sel.addEventListener('mousedown', (e) => e.preventDefault()); // keep the selection
    sel.addEventListener('click', () => {
      const s = text();
      hide();
      if (s) api.ask(t.selQ(s));
    });
  }

  const api = {
    version: V,
    open() {
      build();
      if (searching) closeSearch(true);
      if (open) return;
      open = true;
      // Inside the closed root the page sees only the shadow host; the
      // root knows whether it was the launcher.
      // Coming from the search, the focus goes back where it was before.
      const cur = root.activeElement || document.activeElement;
      if (!back || !back.contains(cur)) lastFocus = cur;
      panel.classList.add('open');
      launcher.setAttribute('aria-expanded', 'true');
      launcher.innerHTML = chevron;
      document.addEventListener('keydown', onKey, true);
      frame.focus({ preventScroll: true });
      emit('open', { v: V, type: 'open' });
    },
    close(keepFocus) {
      if (!open) return;
      open = false;
      panel.classList.remove('open');
      launcher.setAttribute('aria-expanded', 'false');
      launcher.innerHTML = bubble;
      document.removeEventListener('keydown', onKey, true);
      if (keepFocus !== true) refocus();
      emit('close', { v: V, type: 'close' });
    },
    toggle() { open ? api.close() : api.open(); },
    isOpen() { return open; },
    // ask puts a question to the app. Unless the site allows the host to
    // submit, the app shows it in the composer for the visitor to send.
    ask(question) { api.open(); post({ type: 'ask', question: String(question) }); },
    // search opens the search box with query in it.
    search(query) { openSearch(query == null ? '' : String(query)); },
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
    setupSearch();
    setupSelection();
    // data-ask-param: a link to this page with ?PARAM=question asks it
    // (by the host-submit rule); the parameter is taken off the address,
    // so a reload does not ask again.
    const p = data.askParam && new URL(location.href);
    const q = p && (p.searchParams.get(data.askParam) || '').trim();
    if (q) {
      p.searchParams.delete(data.askParam);
      history.replaceState(history.state, '', p.href);
      api.ask(q.slice(0, 4096));
    } else if (data.open === 'true') api.open();
    if (data.prefetch === 'idle') {
      const go = () => build();
      (window.requestIdleCallback || ((f) => setTimeout(f, 2000)))(go);
    }
  };
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
})();
