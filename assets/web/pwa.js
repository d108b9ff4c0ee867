// The page's side of tinyRAG's service worker (server/pwa/worker.js).
// go-app's app.js registers the worker; this script
// - tells the app when a new version has installed completely and waits
//   (window.tinyragPWA.updateReady / onUpdate), and on apply() lets it
//   take over, then reloads this page once so it runs the new version;
// - on the very first visit asks the worker to serve this page too, if
//   the worker is of the page's own version;
// - once the app has started (#shell[data-ready="true"], app/ui/root.go,
//   or a call to tinyragPWA.appReady()) asks the worker to store what it
//   keeps for offline use beyond the first install: the Markdown
//   renderer's, nanoGo's and the importer's wasm, the site's tinyrag.json
//   and bundles. Before that
//   they would compete with app.wasm on a slow first visit.
//   tinyragPWA.offlineReady turns true when all of it is stored;
//   offlineError says what is missing otherwise (retried when the
//   network comes back); while the site's knowledge is stored in the
//   background, tinyragPWA.site says how far it is (and onSite(fn) hears
//   every change): {state: storing | done | none | save-data | quota |
//   error | unsupported, stored, total, error};
// - checks for a new version when the network comes back, when the page
//   becomes visible, and every hour.
'use strict';

(() => {
  const listeners = [];
  const siteListeners = [];
  let appStarted;
  const started = new Promise((resolve) => { appStarted = resolve; });
  const pwa = {
    // The version of the code running in this page (go-app's app.js).
    version: typeof goappGetenv === 'function' ? goappGetenv('GOAPP_VERSION') : '',
    updateReady: false,
    // offlineReady: everything the app needs offline is stored.
    offlineReady: false,
    offlineError: '',
    // appReady tells this script the app has started.
    appReady() { appStarted(); },
    // onUpdate calls fn once a new version is ready (at once if it is).
    onUpdate(fn) {
      listeners.push(fn);
      if (pwa.updateReady) fn();
    },
    // site is the background download of the site's knowledge (see above).
    site: null,
    // onSite calls fn with every new state of that download (at once with
    // the current one) and returns a function that stops it.
    onSite(fn) {
      siteListeners.push(fn);
      if (pwa.site) fn(pwa.site);
      return () => {
        const i = siteListeners.indexOf(fn);
        if (i >= 0) siteListeners.splice(i, 1);
      };
    },
    // apply switches to the waiting version; the page reloads when the
    // worker has taken over.
    apply() {
      if (waiting) {
        waiting.postMessage({ type: 'tinyrag:skip-waiting' });
      }
    },
  };
  window.tinyragPWA = pwa;
  const siteState = (st) => {
    pwa.site = st;
    for (const fn of siteListeners) {
      try { fn(st); } catch (err) { console.error(err); }
    }
  };
  if (!('serviceWorker' in navigator)) {
    siteState({ state: 'unsupported' });
    return;
  }
  const shellReady = () => !!document.querySelector('#shell[data-ready="true"]');
  if (shellReady()) {
    appStarted();
  } else {
    const mo = new MutationObserver(() => {
      if (shellReady()) {
        mo.disconnect();
        appStarted();
      }
    });
    mo.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
  }
  const sw = navigator.serviceWorker;
  sw.addEventListener('message', (e) => {
    if (e.data && e.data.type === 'tinyrag:site-offline') siteState(e.data);
  });
  // Messages from the worker wait until the page says it listens.
  sw.startMessages();
  let waiting = null;
  let controlled = !!sw.controller;
  let reloading = false;

  const announce = (worker) => {
    waiting = worker;
    if (pwa.updateReady) return;
    pwa.updateReady = true;
    for (const fn of listeners) {
      try { fn(); } catch (err) { console.error(err); }
    }
  };

  sw.addEventListener('controllerchange', () => {
    // A page that ran under one version must not go on under another:
    // reload into the new one (whichever tab's click switched versions).
    if (controlled && !reloading) {
      reloading = true;
      // A draft in the composer survives the reload (early-input.js
      // puts it back).
      try {
        const input = document.getElementById('chat-input');
        if (input && input.value) sessionStorage.setItem('tinyrag:draft', input.value);
      } catch (err) { /* storage off: the draft is lost, the version is not mixed */ }
      window.location.reload();
    }
    controlled = true;
  });

  sw.ready.then((reg) => {
    if (!sw.controller && reg.active) {
      reg.active.postMessage({ type: 'tinyrag:claim', version: pwa.version });
    }
    const watch = (worker) => {
      if (!worker) return;
      const check = () => {
        if (worker.state === 'installed' && sw.controller) announce(worker);
      };
      worker.addEventListener('statechange', check);
      check();
    };
    watch(reg.waiting);
    watch(reg.installing);
    reg.addEventListener('updatefound', () => watch(reg.installing));
    const store = () => {
      if (!reg.active) return;
      const ch = new MessageChannel();
      ch.port1.onmessage = (e) => {
        const errors = (e.data && e.data.errors) || [];
        pwa.offlineReady = errors.length === 0;
        pwa.offlineError = errors.join('; ');
        if (errors.length) console.warn('tinyRAG: not everything is stored for offline use yet:', pwa.offlineError);
      };
      reg.active.postMessage({ type: 'tinyrag:site-status' });
      reg.active.postMessage({ type: 'tinyrag:app-ready' }, [ch.port2]);
    };
    started.then(store);
    const update = () => reg.update().catch(() => {});
    window.addEventListener('online', () => {
      update();
      started.then(() => { if (!pwa.offlineReady) store(); });
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') update();
    });
    setInterval(update, 60 * 60 * 1000);
  });
})();
