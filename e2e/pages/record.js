// The organisation page's own little recorder (an external script, so it runs under a strict CSP): every svc event
// and every Content-Security-Policy violation is kept in sessionStorage, which survives the form's navigation.
(function () {
  var KEY = 'svcEvents';
  function push(entry) {
    var list = JSON.parse(sessionStorage.getItem(KEY) || '[]');
    list.push(entry);
    sessionStorage.setItem(KEY, JSON.stringify(list));
  }
  document.addEventListener('svc-capture', function (event) {
    push({ type: 'svc-capture', target: event.target.localName, detail: event.detail });
  });
  document.addEventListener('svc-error', function (event) {
    push({ type: 'svc-error', target: event.target.localName, detail: event.detail });
  });
  document.addEventListener('securitypolicyviolation', function (event) {
    push({ type: 'csp', detail: { directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample } });
  });
})();
