// The organisation page's own little recorder (an external script, so it runs under a strict CSP): every svc event
// and every Content-Security-Policy violation is kept in sessionStorage, which survives the form's navigation.
(function () {
  var KEY = 'svcEvents';
  function push(entry) {
    var list = JSON.parse(sessionStorage.getItem(KEY) || '[]');
    list.push(entry);
    sessionStorage.setItem(KEY, JSON.stringify(list));
  }
  ['svc-capture', 'svc-error', 'svc-complete'].forEach(function (type) {
    document.addEventListener(type, function (event) {
      push({ type: type, target: event.target.localName, detail: event.detail });
    });
  });
  document.addEventListener('securitypolicyviolation', function (event) {
    push({ type: 'csp', detail: { directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample } });
  });
})();
