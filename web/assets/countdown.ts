/**
 * The interview page's countdown, served as a file (the CSP allows no inline script). It only shows time: the
 * server decides whether an answer is in time. Plain ES5 so any phone runs it.
 */
export const COUNTDOWN_SCRIPT = `(function () {
  var el = document.querySelector('[data-seconds-left]');
  if (!el) return;
  var end = Date.now() + Number(el.getAttribute('data-seconds-left')) * 1000;
  function show() {
    var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    el.textContent = left === 0 ? 'time is up' : (m > 0 ? m + ' min ' : '') + (s < 10 && m > 0 ? '0' : '') + s + ' s';
    if (left > 0) setTimeout(show, 250);
  }
  show();
})();
`;
