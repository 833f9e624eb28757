// Where the redirect comes back to. The URL says how it went, but proves nothing: ask our backend, which asks the
// service. (A module runs after the deferred svc.js, so window.Svc is there.)
const arrival = window.Svc.readRedirectResult(); // { outcome: 'completed' | 'declined' | ..., verified: false }
const order = new URLSearchParams(location.search).get('order');
const response = await fetch(`/api/orders/status?order=${encodeURIComponent(order)}`);
const { status } = await response.json();
document.getElementById('result').textContent = `Came back ${arrival.outcome}; the service says ${status}`;
