// Steadfast console, jobs list: live refresh that can be paused, and row selection. The page works without it.
(function () {
  'use strict';

  var KEY = 'steadfast.jobs.live';
  var EVERY = 5000;
  var form = document.getElementById('jobs-bulk');
  var toggle = document.querySelector('[data-live-toggle]');
  var status = document.querySelector('[data-live-status]');
  if (!form || !toggle) { return; }

  function paused() {
    try { return window.localStorage.getItem(KEY) === 'paused'; } catch (e) { return false; }
  }

  function selected() {
    return form.querySelectorAll('input[type=checkbox][name=id]:checked').length;
  }

  function show(text) {
    toggle.textContent = paused() ? 'Resume live refresh' : 'Pause live refresh';
    toggle.setAttribute('aria-pressed', paused() ? 'true' : 'false');
    status.textContent = text || (paused() ? 'Live refresh paused.' : 'Refreshes every 5 s.');
  }

  // Selection: "select all on this page", and the selection buttons enabled only while a row is chosen.
  function sync() {
    var n = selected();
    form.querySelectorAll('[data-needs-selection]').forEach(function (b) { b.disabled = n === 0; });
    if (n > 0 && !paused()) { show('Refresh waits while rows are selected.'); } else { show(); }
  }
  form.addEventListener('change', function (e) {
    if (e.target.hasAttribute('data-jobs-select-all')) {
      form.querySelectorAll('input[type=checkbox][name=id]').forEach(function (b) { b.checked = e.target.checked; });
    }
    sync();
  });

  toggle.addEventListener('click', function () {
    try { window.localStorage.setItem(KEY, paused() ? 'running' : 'paused'); } catch (e) { /* private mode */ }
    sync();
  });

  // Every few seconds, while the tab is visible, not paused and nothing is selected: the same URL is fetched
  // and the parts marked data-live-part (tabs, rows, pager) are replaced by the fresh ones.
  var timer = setInterval(function () {
    if (document.hidden || paused() || selected() > 0) { return; }
    fetch(window.location.href, { credentials: 'same-origin', redirect: 'manual', headers: { 'Accept': 'text/html' } })
      .then(function (res) {
        if (res.type === 'opaqueredirect' || !res.ok) { throw new Error('refresh stopped: ' + res.status); }
        return res.text();
      })
      .then(function (html) {
        if (paused() || selected() > 0) { return; }
        var fresh = new DOMParser().parseFromString(html, 'text/html');
        document.querySelectorAll('[data-live-part]').forEach(function (el) {
          var next = fresh.getElementById(el.id);
          if (next) { el.replaceWith(document.importNode(next, true)); }
        });
        form.setAttribute('data-refreshed', String(Date.now()));
        sync();
      })
      .catch(function () {
        clearInterval(timer);
        show('Live refresh stopped (session expired or server unreachable). Reload the page.');
      });
  }, EVERY);

  sync();
})();
