// The organisation's page script for the embeds (embed.html, popup.html, redirect.html): ask our backend for a
// decision, show it with <svc-decision>, and hand what comes back to our backend, which asks the service.
const element = document.querySelector('svc-decision');
const result = document.getElementById('result');

const response = await fetch('/api/decisions', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ mode: element.getAttribute('mode') ?? 'embed' }),
});
const { session_token } = await response.json();
element.token = session_token;

element.addEventListener('svc-complete', async (event) => {
  // A browser message proves nothing: the backend exchanges the token with the service.
  const verified = await fetch('/api/decisions/exchange', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session_token, exchange_token: event.detail.exchange_token }),
  });
  const { purposes_granted } = await verified.json();
  result.textContent = verified.ok ? `Verified: ${purposes_granted.join(', ') || 'nothing'} granted` : 'Not verified';
});
element.addEventListener('svc-cancel', () => { result.textContent = 'Cancelled'; });
element.addEventListener('svc-error', (event) => { result.textContent = `Error: ${event.detail.code}`; });
