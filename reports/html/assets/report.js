
(function () {
  'use strict';
  var panel = document.getElementById('filters');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-filterable]'));
  if (panel) {
    panel.hidden = false;
    var boxes = Array.prototype.slice.call(panel.querySelectorAll('input[name="status"]'));
    var selects = Array.prototype.slice.call(panel.querySelectorAll('select[data-filter]'));
    var text = document.getElementById('filter-text');
    var reset = document.getElementById('filter-reset');
    var out = document.getElementById('filter-count');
    var apply = function () {
      var on = {};
      boxes.forEach(function (b) { on[b.value] = b.checked; });
      var want = {};
      selects.forEach(function (s) { want[s.getAttribute('data-filter')] = s.value; });
      var q = text.value.trim().toLowerCase();
      var tally = { finding: [0, 0], result: [0, 0], requirement: [0, 0] };
      items.forEach(function (el) {
        var ops = (el.getAttribute('data-operations') || el.getAttribute('data-operation') || '').split(' ');
        var show = on[el.getAttribute('data-status')] === true &&
          (want.level === '' || el.getAttribute('data-level') === want.level) &&
          (want.document === '' || el.getAttribute('data-document') === want.document) &&
          (want.operation === '' || ops.indexOf(want.operation) !== -1) &&
          (q === '' || el.textContent.toLowerCase().indexOf(q) !== -1);
        el.hidden = !show;
        var kind = el.classList.contains('trace-row') ? 'requirement' : el.tagName === 'TR' ? 'result' : 'finding';
        tally[kind][1] += 1;
        if (show) tally[kind][0] += 1;
      });
      out.textContent = 'Showing ' + tally.finding[0] + ' of ' + tally.finding[1] + ' failures, warnings and errors; ' +
        tally.result[0] + ' of ' + tally.result[1] + ' results; ' + tally.requirement[0] + ' of ' + tally.requirement[1] + ' requirements.';
    };
    boxes.forEach(function (b) { b.addEventListener('change', apply); });
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    text.addEventListener('input', apply);
    var clear = function () {
      boxes.forEach(function (b) { b.checked = true; });
      selects.forEach(function (s) { s.value = ''; });
      text.value = '';
      apply();
    };
    reset.addEventListener('click', function () { clear(); text.focus(); });
    text.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { text.value = ''; apply(); }
    });
    document.addEventListener('keydown', function (e) {
      var t = e.target;
      var typing = t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA');
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); text.focus(); }
    });
    apply();
  }
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = Array.prototype.slice.call(document.querySelectorAll('details:not([open])'));
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();
