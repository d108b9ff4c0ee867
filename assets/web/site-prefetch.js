// Starts the site's knowledge on its way while app.wasm is still
// downloading: tinyrag.json (next to the page, one folder above this
// script) and the manifests of the bundles it names. The app's first
// request for each of these URLs takes the response from here
// (window.tinyragPrefetch.take, in app/ui/fetch_js.go) instead of asking
// the network again, so a first search does not wait for two round trips
// that could have happened during the download. Each response is taken
// once; a later request for the URL (the site changed) goes to the
// network. A failure here costs nothing: the app then fetches as usual.
'use strict';

(() => {
  const script = document.currentScript;
  if (!script || !window.fetch) return;
  const early = new Map();
  const get = (url) => {
    const p = fetch(url, { credentials: 'same-origin' });
    p.catch(() => {}); // the app sees the failure when it takes it
    early.set(url, p);
    return p;
  };
  window.tinyragPrefetch = {
    take(url) {
      const p = early.get(url);
      early.delete(url);
      return p;
    },
  };
  const config = new URL('../tinyrag.json', script.src).href;
  get(config)
    .then((r) => (r.ok ? r.clone().json() : null))
    .then((cfg) => {
      for (const b of (cfg && Array.isArray(cfg.bundles) ? cfg.bundles : [])) {
        if (typeof b.url !== 'string') continue;
        const u = new URL(b.url, config);
        if (u.origin === location.origin) get(u.href);
      }
    })
    .catch(() => {});
})();
