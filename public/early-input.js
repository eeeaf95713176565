// Until the app has taken over a page the server drew (docs/decisions/011), a click on a button
// would do nothing, and a radio or checkbox ticked or an answer opened would be undone as the app
// takes over. Each is kept, and the app replays them once it is ready (src/client/lib/early-input.ts). Links and
// typing need no help. A form is never sent by the browser itself, so what was typed stays out of
// the address.
(function () {
  var early = { ready: false, clicks: [] };
  window.pairwellEarlyInput = early;
  document.addEventListener(
    'click',
    function (event) {
      if (early.ready || !(event.target instanceof Element)) return;
      var control = event.target.closest(
        'button, input[type="radio"], input[type="checkbox"], summary',
      );
      if (!control) return;
      if (control.localName === 'summary') {
        // The answer opens or closes as usual; the app's first render would close it again.
        var details = control.parentElement;
        if (details && details.localName === 'details')
          early.clicks.push({ control: details, open: !details.open });
      } else if (control.localName === 'button') {
        // For the app alone: the browser does nothing with it now.
        event.preventDefault();
        event.stopPropagation();
        // A double click on "Log in" is one log-in.
        var last = early.clicks[early.clicks.length - 1];
        if (!last || last.control !== control) early.clicks.push({ control: control });
      } else {
        // The box ticks as usual (it already has, as the click is dispatched); the app is told
        // once it has taken over.
        early.clicks.push({ control: control, checked: control.checked });
      }
    },
    true,
  );
  document.addEventListener(
    'submit',
    function (event) {
      if (!early.ready) event.preventDefault();
    },
    true,
  );

  // A page the server drew carries its app's entry and the modules it imports as notes instead of
  // a script: it shows first, and the app's code is fetched, all at once, once it has painted.
  function loadApp() {
    var entry = document.querySelector('meta[name="pairwell-app"]');
    if (!entry) return;
    document.querySelectorAll('meta[name="pairwell-app-preload"]').forEach(function (module) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = module.getAttribute('content');
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry.getAttribute('content');
    document.head.appendChild(script);
  }
  // After the next frame; or, in a tab opened in the background (which draws no frames), within
  // a second all the same.
  var asked = false;
  function loadAppOnce() {
    if (asked) return;
    asked = true;
    loadApp();
  }
  function afterPaint() {
    requestAnimationFrame(function () {
      setTimeout(loadAppOnce, 0);
    });
    setTimeout(loadAppOnce, 1000);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterPaint);
  else afterPaint();
})();
