// A single-page app without a build step: the elements as an ES module. With a bundler, `npm install @svc/elements`
// and write `import { SvcConsentField } from '@svc/elements';` instead; the rest is the same.
import { SvcConsentField } from 'http://127.0.0.1:4010/sdk/v1/svc.mjs';

const form = document.createElement('form');
const email = Object.assign(document.createElement('input'), { type: 'email', name: 'email', id: 'email', required: true, autocomplete: 'email' });
const label = Object.assign(document.createElement('label'), { htmlFor: 'email', textContent: 'Email address' });
const field = new SvcConsentField();
field.flow = 'flw_REPLACE_ME';
field.publishableKey = 'pk_test_REPLACE_ME';
field.baseUrl = 'http://127.0.0.1:4010';
const save = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Save' });
form.append(label, email, field, save);
document.getElementById('app').append(form);

// The field captures first (it holds the submit until svc_capture_token is in the form), then your handler runs.
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch('/signup', { method: 'POST', body: new URLSearchParams(new FormData(form)) });
  document.getElementById('result').textContent = response.ok ? 'Saved.' : 'Not saved.';
});
