// Steadfast console: small progressive enhancements. Every page works without this file.
(function () {
  'use strict';

  // Live regions: <section data-refresh="/url" data-interval="5000"> is replaced by the fragment at /url,
  // only while the tab is visible. A redirect (an expired session) stops refreshing and says so.
  document.querySelectorAll('[data-refresh]').forEach(function (el) {
    var url = el.getAttribute('data-refresh');
    var every = parseInt(el.getAttribute('data-interval') || '5000', 10);
    var timer = setInterval(function () {
      if (document.hidden) { return; }
      fetch(url, { credentials: 'same-origin', redirect: 'manual', headers: { 'Accept': 'text/html' } })
        .then(function (res) {
          if (res.type === 'opaqueredirect' || !res.ok) { throw new Error('refresh stopped: ' + res.status); }
          return res.text();
        })
        .then(function (html) { el.innerHTML = html; })
        .catch(function () {
          clearInterval(timer);
          var note = document.createElement('p');
          note.className = 'notice';
          note.textContent = 'Live refresh stopped (session expired or server unreachable). Reload the page.';
          el.prepend(note);
        });
    }, every);
  });

  // "Select all" checkbox for the rows of its table; selection buttons stay disabled until a row is chosen.
  document.querySelectorAll('[data-select-all]').forEach(function (all) {
    var form = all.closest('form');
    var boxes = form.querySelectorAll('input[type=checkbox][name=id]');
    var buttons = form.querySelectorAll('[data-needs-selection]');
    function sync() {
      var any = Array.prototype.some.call(boxes, function (b) { return b.checked; });
      buttons.forEach(function (b) { b.disabled = !any; });
    }
    all.addEventListener('change', function () {
      boxes.forEach(function (b) { b.checked = all.checked; });
      sync();
    });
    boxes.forEach(function (b) { b.addEventListener('change', sync); });
    sync();
  });

  // "Go back" links on error pages.
  document.querySelectorAll('[data-back]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      if (history.length > 1) { e.preventDefault(); history.back(); }
    });
  });
})();
