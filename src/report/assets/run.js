(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var scenarios = all('.scenario');
  var wasOpen = scenarios.map(function (s) { return s.open; });
  function apply() {
    var on = {};
    all('input[name=verdict]', form).forEach(function (b) { on[b.value] = b.checked; });
    var endpoint = form.querySelector('select[name=endpoint]').value;
    var q = form.querySelector('input[name=q]').value.trim().toLowerCase();
    var filtering = q !== '' || endpoint !== '' || all('input[name=verdict]', form).some(function (b) { return !b.checked; });
    var match = function (el) { return q === '' || (el.getAttribute('data-search') || '').indexOf(q) >= 0; };
    var shown = 0, total = 0;
    scenarios.forEach(function (s, i) {
      var covers = endpoint === '' || JSON.parse(s.getAttribute('data-spec')).indexOf(endpoint) >= 0;
      var checks = all('.check', s);
      var any = false;
      checks.forEach(function (c) {
        var visible = covers && on[c.getAttribute('data-verdict')] === true && match(c);
        c.hidden = !visible;
        total++;
        if (visible) { shown++; any = true; }
      });
      s.hidden = checks.length ? !any : !(covers && q === '' && on[s.getAttribute('data-verdict')] === true);
      s.open = filtering ? any : wasOpen[i];
      all('details.passing', s).forEach(function (d) { d.open = filtering && all('.check', d).some(function (c) { return !c.hidden; }); });
    });
    all('#failures li.problem, table.known tbody tr:not(.group)').forEach(function (el) { el.hidden = !match(el); });
    all('table.known tr.group').forEach(function (g) {
      var next = g.nextElementSibling, any = false;
      while (next && !next.classList.contains('group')) { if (!next.hidden) any = true; next = next.nextElementSibling; }
      g.hidden = !any;
    });
    all('#failures, #known').forEach(function (sec) {
      var span = sec.querySelector('h2 .count'), none = sec.querySelector('.none-match');
      if (!span || !none) return;
      var visible = all('li.problem, tbody tr:not(.group)', sec).filter(function (el) { return !el.hidden; })
        .reduce(function (n, el) { return n + Number(el.getAttribute('data-count') || 1); }, 0);
      var total = span.getAttribute('data-total');
      span.textContent = q === '' ? total : visible + ' of ' + total;
      none.hidden = q === '' || visible > 0;
    });
    document.getElementById('shown').textContent = 'showing ' + shown + ' of ' + total + ' checks';
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (ev) { ev.preventDefault(); });
  all('button.copy').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var text = b.parentNode.querySelector('.curl-text').textContent;
      var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy as curl'; }, 1500); };
      var select = function () { var r = document.createRange(); r.selectNodeContents(b.parentNode.querySelector('.curl-text')); var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r); b.textContent = 'Selected: press Ctrl+C'; };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, select); else select();
    });
  });
  apply();
})();
