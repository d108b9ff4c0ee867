// Starts the downloads that every first search of the site's knowledge
// needs — tinyrag.json, each bundle's manifest and group table (which
// names its fragments) and, on a small site, its term map pages — while
// app.wasm is still arriving (a large site's map pages once it has
// arrived).
// They are a few kilobytes beside app.wasm's megabytes, and without this
// a visitor's first search would wait for three rounds of them after the
// app is ready (the config, then the manifest, then the shards it names;
// docs/site-knowledge.md, "In the app").
//
// The app takes each file from here (window.tinyragPrefetch.body,
// app/control/sitefile) instead of asking again, and checks every byte as
// it checks a file it fetched itself; a URL the app never takes costs only
// its bytes. Nothing is fetched when the browser asks to save data.
//
// body() hands over a whole file in one promise, read here as soon as it
// arrives: the app's Go runs on the page's thread and takes each callback
// only when it is idle, and a response and then its body were two turns
// of it per file (for a large site's 32 map pages, 64 turns while it
// renders its ready state).
'use strict';

(() => {
  const script = document.currentScript;
  // The script lives in the site's web/ folder; tinyrag.json sits one up,
  // beside index.html (wherever the site was copied to).
  const configURL = script ? new URL('../tinyrag.json', script.src).href : '';
  const pending = new Map();
  // The config is read twice by an embedded view (its embedding policy,
  // then the site's knowledge): it stays in pending for every caller.
  const keep = new Set([configURL]);
  // arrived holds the files of pending that have been read whole, so
  // that the app takes them at once (now()) rather than on a later turn
  // of the page's thread: a query asked as the app becomes ready waited
  // 30–45 ms for the term map pages it needed, which had arrived seconds
  // before, behind the rendering of its own input.
  const arrived = new Map();

  // fetchFile fetches url. A host that sends files as they lie on disk
  // (the loader found it sent app.wasm so, and took its sibling:
  // window.tinyragPlainHost, server/webapp/loader.go) sends a bundle's
  // files at about twice the bytes of the .gz siblings tinyrag static
  // writes beside them: then a bundle file comes from its sibling,
  // inflated by the loader's tinyragGzipSibling, or as it is when it has
  // none. The sibling is read whole here, so that one that does not
  // inflate gives way to the file itself. A page the service worker
  // controls is never told so: the worker does the same.
  //
  // A host may compress some kinds of file and not others (an nginx whose
  // gzip_types list JavaScript and wasm but not application/octet-stream,
  // the term shards' type): a bundle file of a kind (its extension) that
  // arrives without Content-Encoding makes the later ones of that kind
  // come from their siblings too (plainKinds). A host that did compress
  // them, and sent one small file as it is, costs nothing by that: a
  // sibling is the bytes it would have sent.
  const plainKinds = new Set();
  const controlled = () => !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  const fetchFile = async (url, init) => {
    const bundleFile = /\/bundles\//.test(url) && !url.includes('?');
    const kind = bundleFile ? new URL(url).pathname.replace(/^.*\./, '').toLowerCase() : '';
    if (bundleFile && (window.tinyragPlainHost || plainKinds.has(kind)) && typeof window.tinyragGzipSibling === 'function') {
      try {
        const sibling = await window.tinyragGzipSibling(url, init);
        if (sibling) {
          return new Response(await sibling.arrayBuffer(), { status: 200 });
        }
      } catch (e) { /* the file as it is, below */ }
    }
    const resp = await fetch(url, init);
    if (bundleFile && resp.status === 200 && !controlled() && !resp.headers.get('Content-Encoding')) {
      plainKinds.add(kind);
    }
    return resp;
  };

  // whole reads a response promise into [status, ArrayBuffer] (null for
  // a status other than 200: its body is not wanted).
  const whole = (p) => p.then((r) => (r.status === 200
    ? r.arrayBuffer().then((b) => [r.status, b])
    : [r.status, null]));

  // get starts a download, at low priority unless told, and keeps its
  // promise for body(). then, if set, reads the JSON and starts the
  // downloads it names before the promise resolves: whoever takes a file
  // can only ask for what it names after this script has asked for it,
  // so nothing is asked twice.
  const get = (url, then, priority = 'low') => {
    let p = whole(fetchFile(url, { priority }));
    if (then) {
      p = p.then((sb) => {
        if (sb[1]) {
          try {
            then(JSON.parse(new TextDecoder().decode(sb[1])));
          } catch (e) { /* the app reads the file itself and says what is wrong */ }
        }
        return sb;
      });
    }
    p.catch(() => { /* body() asks again */ });
    pending.set(url, p);
    p.then((sb) => { if (pending.get(url) === p) arrived.set(url, sb); }, () => {});
    return p;
  };

  // drop forgets url unless it is kept.
  const drop = (url) => {
    if (keep.has(url)) return;
    pending.delete(url);
    arrived.delete(url);
  };

  window.tinyragPrefetch = {
    // body returns a promise of [status, ArrayBuffer or null] for url:
    // what this script fetched, if it asked for url, or a new fetch. A
    // prefetch that failed is asked again, so the caller sees the
    // network's own answer. Go copies the bytes out and never writes to
    // them, so a kept file's one buffer serves every caller.
    body(url) {
      const p = pending.get(url);
      if (!p) return whole(fetchFile(url));
      drop(url);
      return p.catch(() => whole(fetchFile(url)));
    },
    // now returns what body(url) would resolve to when this script has
    // read the file whole already, and null otherwise (then body()).
    now(url) {
      const sb = arrived.get(url);
      if (!sb) return null;
      drop(url);
      return sb;
    },
    // start begins fetching url for a body() soon: the app starts a
    // round of a query's files (its term shards, its hits' fragments)
    // at once and in order, before the goroutines that take them run
    // (app/knowledge/bundle, Start). One that is never taken (another
    // query took the file meanwhile) is dropped after a minute.
    start(url) {
      if (pending.has(url)) return;
      const p = get(url, null, 'auto');
      setTimeout(() => { if (pending.get(url) === p) drop(url); }, 60000);
    },
  };

  const conn = navigator.connection;
  if (!configURL || (conn && conn.saveData)) return;

  // A small site's bundle (app/knowledge/bundle, Index.Small): at most 8
  // term map pages (of 256 shards each), some tens of kilobytes, fetched
  // at once. A larger bundle's would share the line with app.wasm (see
  // manifest below).
  const maxMapPages = 8;
  // A larger bundle's map pages, when it has at most this many (some
  // 120 KB brotli), are read by the app before a query too (Index.Preload,
  // preloadPages): each query reads a few of them, a round of requests
  // before its term shards.
  const maxPreloadPages = 32;

  // An embedded view may name the bundles it searches (data-bundles):
  // by URL, manifest file name or folder name, as the app chooses them.
  const wanted = (new URLSearchParams(location.search).get('bundles') || '')
    .split(',').map((s) => s.trim()).filter(Boolean);
  const chosen = (manifestURL) => {
    if (wanted.length === 0) return true;
    const parts = new URL(manifestURL).pathname.split('/');
    const name = parts[parts.length - 1];
    const dir = parts[parts.length - 2] || '';
    return wanted.some((w) => w === manifestURL || w === name || w === dir);
  };

  // wasmArrived resolves once app.wasm's last byte is in: the app's
  // loader marks "tinyrag:wasm" and fires that event on window then
  // (server/webapp/loader.go). Its resource timing entry, which appears
  // when the response ends, is the fallback; a PerformanceObserver hears
  // of it late, on a low-priority task. From then until the app is ready,
  // the page compiles and starts Go, and the line is idle.
  const wasmURL = new URL('app.wasm', script.src).href;
  const wasmArrived = new Promise((resolve) => {
    if (performance.getEntriesByName('tinyrag:wasm').length > 0) {
      resolve();
      return;
    }
    window.addEventListener('tinyrag:wasm', () => resolve(), { once: true });
    const arrived = (entries) => entries.some((e) => e.name === wasmURL);
    if (arrived(performance.getEntriesByType('resource'))) {
      resolve();
      return;
    }
    if (typeof PerformanceObserver !== 'function') return; // left to the app
    const seen = new PerformanceObserver((list) => {
      if (arrived(list.getEntries())) {
        seen.disconnect();
        resolve();
      }
    });
    seen.observe({ type: 'resource', buffered: true });
  });
  // Once the app is ready it fetches what it has not taken itself
  // (app/control, prefetchSite): asking then would ask twice.
  const appReady = () => performance.getEntriesByName('tinyrag:ready').length > 0;

  const fetchAll = (files, manifestURL) => {
    for (const f of files) {
      if (typeof f === 'string') get(new URL(f, manifestURL).href);
    }
  };

  const manifest = (manifestURL) => (m) => {
    // The group table: an eighth of a byte a document (6.5 KB for
    // 50,000 pages), which every query needs to name its hits' fragments.
    const table = m && m.fragments && typeof m.fragments.table === 'string' ? [m.fragments.table] : [];
    const pages = m && m.terms && m.terms.paged && Array.isArray(m.terms.files) ? m.terms.files : [];
    if (pages.length <= maxMapPages) {
      fetchAll(table.concat(pages), manifestURL);
      return;
    }
    fetchAll(table, manifestURL);
    // A larger bundle's map pages wait for app.wasm, so they do not slow
    // it, and arrive while the app starts instead of after it is ready:
    // a query needs the pages of its words before it can ask for its
    // term shards (3.7 KB brotli each; 33 for 50,000 pages). A map of
    // more than maxPreloadPages pages is left to the queries, each of
    // which reads only the few that cover its words.
    wasmArrived.then(() => {
      if (appReady()) return;
      if (pages.length <= maxPreloadPages) fetchAll(pages, manifestURL);
    });
  };

  // Go has started (the page ran this script late): the app fetches
  // what it needs itself, and asking as well would ask twice.
  if (performance.getEntriesByName('tinyrag:main').length > 0) return;

  get(configURL, (cfg) => {
    if (!cfg || !Array.isArray(cfg.bundles)) return;
    for (const b of cfg.bundles) {
      if (!b || typeof b.url !== 'string') continue;
      const u = new URL(b.url, configURL).href;
      if (chosen(u)) get(u, manifest(u));
    }
  });
})();
