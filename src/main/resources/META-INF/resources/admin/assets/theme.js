// Steadfast console: the colour scheme, set before the page is drawn (loaded without defer, so no flash).
// A choice made with the header's toggle is kept in localStorage; without one, the system preference applies.
(function () {
  'use strict';
  var stored = null;
  try { stored = localStorage.getItem('steadfast-theme'); } catch (e) { /* storage may be off */ }
  var system = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-theme', stored === 'dark' || stored === 'light' ? stored : system);
})();
