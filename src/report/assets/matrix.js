(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var box = form.querySelector('input[name=changed]');
  function apply() {
    Array.prototype.forEach.call(document.querySelectorAll('tr.row'), function (r) {
      r.hidden = box.checked && !r.classList.contains('changed');
    });
  }
  box.addEventListener('change', apply);
  apply();
})();
