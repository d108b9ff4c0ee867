// Keeps what is typed into the composer while the app is still starting.
// The server's prerendered page shows the composer long before app.wasm
// has loaded; until the app takes the text (window.tinyragEarlyInput.take,
// called once by the app when it mounts), this script remembers it and,
// when the user sends, holds the question and says it will be sent as
// soon as the app is ready. Nothing typed in that window is lost.
'use strict';

(() => {
  const INPUT = 'chat-input';
  const SEND = 'send-btn';
  const state = { text: '', queued: false, active: true, focused: false };
  const el = (id) => document.getElementById(id);

  // A draft carried over a reload into a new version (pwa.js).
  try {
    const saved = sessionStorage.getItem('tinyrag:draft');
    if (saved) {
      sessionStorage.removeItem('tinyrag:draft');
      state.text = saved;
      if (el(INPUT)) el(INPUT).value = saved;
    }
  } catch (err) { /* storage off: nothing carried over */ }

  document.addEventListener('focusin', (e) => {
    if (state.active) state.focused = e.target.id === INPUT;
  }, true);

  const syncButton = () => {
    const btn = el(SEND);
    if (btn) btn.disabled = state.queued || state.text.trim() === '';
  };

  const queue = () => {
    const input = el(INPUT);
    if (input) state.text = input.value;
    if (state.text.trim() === '') return;
    state.queued = true;
    if (input) input.readOnly = true;
    const hint = document.querySelector('.composer-hint');
    if (hint) {
      hint.textContent = 'Starting… your question will be sent as soon as tinyRAG is ready.';
      hint.classList.add('early-queued');
      hint.setAttribute('role', 'status');
    }
    syncButton();
  };

  document.addEventListener('input', (e) => {
    if (!state.active || e.target.id !== INPUT) return;
    state.text = e.target.value;
    syncButton();
  }, true);

  document.addEventListener('keydown', (e) => {
    if (!state.active || e.target.id !== INPUT) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      queue();
    }
  }, true);

  document.addEventListener('click', (e) => {
    if (!state.active || !e.target.closest || !e.target.closest('#' + SEND)) return;
    queue();
  }, true);

  window.tinyragEarlyInput = {
    // take hands the app what was typed ({text, queued, focused}) and stops this
    // script; later calls get nothing.
    take() {
      // Not the input's value: by now it may be the app's new, empty one.
      const out = {
        text: state.active ? state.text : '',
        queued: state.active && state.queued,
        focused: state.active && state.focused,
      };
      state.active = false;
      return out;
    },
  };
})();
