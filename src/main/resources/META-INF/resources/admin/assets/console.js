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

// Dark mode: the header's toggle flips the scheme theme.js chose and remembers the choice in localStorage; until
// a choice is made, the page follows the system preference, also when it changes.
(function () {
  'use strict';
  var root = document.documentElement;
  var button = document.querySelector('[data-theme-toggle]');
  function label() {
    if (!button) { return; }
    var dark = root.getAttribute('data-theme') === 'dark';
    button.textContent = dark ? 'Light mode' : 'Dark mode';
    button.setAttribute('aria-pressed', dark ? 'true' : 'false');
  }
  function stored() {
    try { return localStorage.getItem('steadfast-theme'); } catch (e) { return null; }
  }
  if (button) {
    button.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { localStorage.setItem('steadfast-theme', next); } catch (e) { /* kept for this page only */ }
      label();
    });
  }
  if (window.matchMedia) {
    var mq = window.matchMedia('(prefers-color-scheme: dark)');
    var follow = function (e) {
      if (!stored()) { root.setAttribute('data-theme', e.matches ? 'dark' : 'light'); label(); }
    };
    if (mq.addEventListener) { mq.addEventListener('change', follow); }
  }
  label();
})();

// Keyboard shortcuts: j/k or the arrows move a highlighted row through the page's list (a table marked
// data-list, else the first table of the page whose rows hold links), Enter or o opens the row's first link,
// '/' goes to the search or filter box, '?' shows the list of shortcuts. Keys typed into a field are left alone.
(function () {
  'use strict';
  var dialog = document.getElementById('shortcuts');
  var opener = document.querySelector('[data-shortcuts-open]');
  function showHelp() {
    if (dialog && typeof dialog.showModal === 'function' && !dialog.open) { dialog.showModal(); }
  }
  if (opener) { opener.addEventListener('click', showHelp); }

  function list() {
    var t = document.querySelector('main table[data-list]');
    if (!t) {
      var all = document.querySelectorAll('main table.grid');
      for (var i = 0; i < all.length && !t; i++) {
        if (all[i].querySelector('tbody tr a[href]')) { t = all[i]; }
      }
    }
    return t ? Array.prototype.slice.call(t.querySelectorAll('tbody tr')) : [];
  }
  var current = -1;
  function move(by) {
    var rows = list();
    if (!rows.length) { return false; }
    if (current >= 0 && rows[current]) { rows[current].classList.remove('kbd-current'); rows[current].removeAttribute('aria-current'); }
    current = current < 0 ? (by > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, current + by));
    var row = rows[current];
    row.classList.add('kbd-current');
    row.setAttribute('aria-current', 'true');
    if (row.scrollIntoView) { row.scrollIntoView({ block: 'nearest' }); }
    return true;
  }
  function open() {
    var rows = list();
    var row = rows[current];
    var link = row && row.querySelector('a[href]');
    if (link) { window.location.href = link.href; return true; }
    return false;
  }
  function search() {
    var box = document.querySelector('main input[type=search], main input[name=q], main .filters input[type=text], main textarea');
    if (box) { box.focus(); if (box.select) { box.select(); } return true; }
    return false;
  }
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if (typing) {
      if (e.key === 'Escape' && t.blur) { t.blur(); }
      return;
    }
    if (dialog && dialog.open) { return; }
    if (e.key === 'Enter' && t && /^(A|BUTTON|SUMMARY)$/.test(t.tagName)) { return; }
    var done = false;
    switch (e.key) {
      case 'j': case 'ArrowDown': done = move(1); break;
      case 'k': case 'ArrowUp': done = move(-1); break;
      case 'Enter': case 'o': done = current >= 0 && open(); break;
      case '/': done = search(); break;
      case '?': showHelp(); done = true; break;
      default: break;
    }
    if (done) { e.preventDefault(); }
  });
})();
