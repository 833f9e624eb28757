// Malformed and hostile calls to the mailing hook: each gets its 4xx with a message, never a 5xx, and none reaches
// the provider (the connection's API root is a closed port: a call that got that far would answer 503).
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { insertMailingConnection, newConnectionIds } from './store.js';

const json = { 'content-type': 'application/json', authorization: null };
const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: null };

const cases: HostileCase[] = [
  {
    name: 'wrong secret',
    method: 'POST',
    path: '{{hook_id}}/mlsec_wrong',
    headers: form,
    body: 'type=unsubscribe&data[email]=a@b.co',
    status: 404,
  },
  { name: 'no secret', method: 'POST', path: '{{hook_id}}/', headers: form, body: 'type=unsubscribe', status: 404 },
  { name: 'a long secret', method: 'POST', path: `{{hook_id}}/${'s'.repeat(4000)}`, headers: form, body: '', status: 404 },
  { name: 'unknown connection', method: 'POST', path: '/hooks/mailing/mlc_nope/{{hook_secret}}', headers: form, body: '', status: 404 },
  { name: 'GET with a wrong secret', path: '{{hook_id}}/mlsec_wrong', headers: { authorization: null }, status: 404 },
  { name: 'truncated JSON', method: 'POST', path: '{{hook}}', headers: json, body: '{"event":', status: 400 },
  {
    name: 'invalid UTF-8 bytes',
    method: 'POST',
    path: '{{hook}}',
    headers: json,
    body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    status: 400,
  },
  { name: 'a body over the limit', method: 'POST', path: '{{hook}}', headers: json, body: 'x'.repeat(64 * 1024 + 1), status: 413 },
  {
    name: 'the hook through the API prefix',
    method: 'POST',
    path: '/api/v1/mailing_connections/x',
    headers: { authorization: null },
    status: [401, 404, 405],
  },
];

describeHostile('mailing hook: hostile calls', cases, async (server) => {
  const { id, secret } = newConnectionIds();
  insertMailingConnection(server.context, {
    id,
    secret,
    account_id: server.context.db
      .prepare('SELECT account_id FROM applications WHERE id = ?')
      .pluck()
      .get(server.sandbox.application_id) as string,
    application_id: server.sandbox.application_id,
    provider: 'brevo',
    api_key: 'xkeysib-hostile',
    api_base_url: 'http://127.0.0.1:9/v3',
    list_id: '7',
    flow_id: 'flw_unused',
    purpose: 'newsletter',
    marketing_permission_id: null,
    provider_webhook_id: '1',
  });
  return { hook: `/hooks/mailing/${id}/${secret}`, hook_id: `/hooks/mailing/${id}`, hook_secret: secret };
});
