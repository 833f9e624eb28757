// Malformed and hostile requests against the agreements API and a signing session's participant steps: each gets
// its 4xx, never a 5xx, and leaves nothing behind.
import { createHash } from 'node:crypto';
import { describeHostile, type HostileCase } from '../../../hostile-cases.js';
import type { TestServer } from '../../../testing.js';

const json = { 'content-type': 'application/json' };
const TEXT = 'The document.';
const SHA = createHash('sha256').update(TEXT).digest('hex');
const valid = {
  title: 'Lease',
  document: { text: TEXT, sha256: SHA },
  parties: [
    { email: 'a@example.com', home_country: 'DE' },
    { email: 'b@example.com', home_country: 'US' },
  ],
  quorum: 1,
};
const agreement = (extra: Record<string, unknown> = {}) => ({ agreement: { ...valid, ...extra } });
const party = (i: number) => ({ email: `p${i}@example.com`, home_country: 'DE' });
const BASE = '/api/v1/agreements';
const step = (name: string, body: unknown, status: number, code?: string): HostileCase => ({
  name: `signing step: ${name}`,
  method: 'POST',
  path: '/decisions/{{sig}}/transitions',
  headers: { authorization: null, origin: '{{origin}}', ...(typeof body === 'string' ? json : {}) },
  ...(typeof body === 'string' ? { body } : { json: body }),
  status,
  ...(code ? { code } : {}),
});

const cases: HostileCase[] = [
  // Malformed bodies
  { name: 'create: truncated JSON', method: 'POST', path: BASE, headers: json, body: '{"agreement":', status: 400, code: 'malformed_json' },
  { name: 'create: empty body', method: 'POST', path: BASE, headers: json, body: '', status: 400 },
  { name: 'create: JSON array', method: 'POST', path: BASE, json: [], status: 422 },
  {
    name: 'create: form-encoded',
    method: 'POST',
    path: BASE,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'title=x',
    status: 400,
  },
  {
    name: 'create: huge body',
    method: 'POST',
    path: BASE,
    headers: json,
    body: `{"agreement":{"title":"${'x'.repeat(1024 * 1024 + 10)}"}}`,
    status: 413,
  },
  {
    name: 'create: deeply nested',
    method: 'POST',
    path: BASE,
    headers: json,
    body: '['.repeat(100_000) + ']'.repeat(100_000),
    status: [400, 422],
  },
  // Wrong shapes and values
  { name: 'create: not enveloped', method: 'POST', path: BASE, json: valid, status: 422 },
  { name: 'create: unknown field', method: 'POST', path: BASE, json: agreement({ status: 'active' }), status: 422 },
  {
    name: 'create: __proto__ field',
    method: 'POST',
    path: BASE,
    headers: json,
    body: `{"agreement":{"__proto__":{"admin":true},"title":"x"}}`,
    status: 422,
  },
  { name: 'create: title empty', method: 'POST', path: BASE, json: agreement({ title: '  ' }), status: 422 },
  { name: 'create: title an object', method: 'POST', path: BASE, json: agreement({ title: {} }), status: 422 },
  {
    name: 'create: document text empty',
    method: 'POST',
    path: BASE,
    json: agreement({ document: { text: '', sha256: SHA } }),
    status: 422,
  },
  {
    name: 'create: document over 200 KB',
    method: 'POST',
    path: BASE,
    json: agreement({ document: { text: 'é'.repeat(110 * 1024), sha256: SHA } }),
    status: 422,
  },
  {
    name: 'create: sha256 upper case',
    method: 'POST',
    path: BASE,
    json: agreement({ document: { text: TEXT, sha256: SHA.toUpperCase() } }),
    status: 422,
  },
  {
    name: 'create: sha256 with prefix',
    method: 'POST',
    path: BASE,
    json: agreement({ document: { text: TEXT, sha256: `sha256:${SHA}` } }),
    status: 422,
  },
  {
    name: 'create: digest of other text',
    method: 'POST',
    path: BASE,
    json: agreement({ document: { text: `${TEXT}!`, sha256: SHA } }),
    status: 422,
    code: 'digest_mismatch',
  },
  { name: 'create: no parties', method: 'POST', path: BASE, json: agreement({ parties: [] }), status: 422 },
  {
    name: 'create: 51 parties',
    method: 'POST',
    path: BASE,
    json: agreement({ parties: Array.from({ length: 51 }, (_, i) => party(i)) }),
    status: 422,
  },
  {
    name: 'create: party email invalid',
    method: 'POST',
    path: BASE,
    json: agreement({ parties: [{ email: 'nope', home_country: 'DE' }] }),
    status: 422,
  },
  {
    name: 'create: party without country',
    method: 'POST',
    path: BASE,
    json: agreement({ parties: [{ email: 'a@example.com' }] }),
    status: 422,
  },
  {
    name: 'create: country of three letters',
    method: 'POST',
    path: BASE,
    json: agreement({ parties: [{ email: 'a@example.com', home_country: 'DEU' }] }),
    status: 422,
  },
  {
    name: 'create: a party twice (case)',
    method: 'POST',
    path: BASE,
    json: agreement({ parties: [party(1), { ...party(1), email: 'P1@EXAMPLE.COM' }] }),
    status: 422,
  },
  { name: 'create: quorum above parties', method: 'POST', path: BASE, json: agreement({ quorum: 3 }), status: 422 },
  { name: 'create: quorum zero', method: 'POST', path: BASE, json: agreement({ quorum: 0 }), status: 422 },
  { name: 'create: quorum a float', method: 'POST', path: BASE, json: agreement({ quorum: 1.5 }), status: 422 },
  { name: 'create: quorum a string', method: 'POST', path: BASE, json: agreement({ quorum: '1' }), status: 422 },
  { name: 'create: delivery_mode iframe', method: 'POST', path: BASE, json: agreement({ delivery_mode: 'iframe' }), status: 422 },
  { name: 'create: embed without origin', method: 'POST', path: BASE, json: agreement({ delivery_mode: 'embed' }), status: 422 },
  {
    name: 'create: embed_origin *',
    method: 'POST',
    path: BASE,
    json: agreement({ delivery_mode: 'embed', embed_origin: '*' }),
    status: 422,
  },
  {
    name: 'create: embed_origin with path',
    method: 'POST',
    path: BASE,
    json: agreement({ delivery_mode: 'embed', embed_origin: '{{origin}}/x' }),
    status: 422,
  },
  {
    name: 'create: embed_origin not allowed',
    method: 'POST',
    path: BASE,
    json: agreement({ delivery_mode: 'embed', embed_origin: 'https://evil.example' }),
    status: 422,
    code: 'embed_origin_not_allowed',
  },
  {
    name: 'create: redirect_uri javascript:',
    method: 'POST',
    path: BASE,
    json: agreement({ redirect_uri: 'javascript:alert(1)' }),
    status: 422,
  },
  { name: 'create: expires_at not a date', method: 'POST', path: BASE, json: agreement({ expires_at: 'tomorrow' }), status: 422 },
  {
    name: 'create: expires_at in the past',
    method: 'POST',
    path: BASE,
    json: agreement({ expires_at: '2000-01-01T00:00:00Z' }),
    status: 422,
    code: 'expires_at_invalid',
  },
  {
    name: 'create: another application',
    method: 'POST',
    path: BASE,
    json: agreement({ application_id: 'tp_dev_someoneelse' }),
    status: 404,
    code: 'application_not_found',
  },
  // Credentials
  { name: 'create: no credential', method: 'POST', path: BASE, headers: { authorization: null }, json: agreement(), status: 401 },
  {
    name: 'create: read-only token',
    method: 'POST',
    path: BASE,
    headers: { authorization: 'Bearer {{read}}' },
    json: agreement(),
    status: 403,
  },
  {
    name: 'create: publishable key',
    method: 'POST',
    path: BASE,
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: agreement(),
    status: 403,
  },
  { name: 'list: publishable key', path: BASE, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, status: 403 },
  {
    name: 'create: a decision of kind signature_request',
    method: 'POST',
    path: '/api/v1/decisions',
    json: { kind: 'signature_request', subject_ref: '{{party}}', delivery_mode: 'redirect' },
    status: 422,
  },
  // A consent record naming a signature
  {
    name: 'record: signature a string',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: { flow_id: '{{flow}}', subject: { email: 'a@example.com' }, decisions: {}, signature: 'pty_x' },
    status: 422,
  },
  {
    name: 'record: signature with an unknown field',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: {
      flow_id: '{{flow}}',
      subject: { email: 'a@example.com' },
      decisions: {},
      signature: { agreement_id: 'agr_x', party_id: '{{party}}', jws: 'x' },
    },
    status: 422,
  },
  {
    name: 'record: signature of an unknown agreement',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: {
      flow_id: '{{flow}}',
      subject: { email: 'a@example.com' },
      decisions: {},
      signature: { agreement_id: 'agr_AAAAAAAAAAAAAAAAAAAA', party_id: '{{party}}' },
    },
    status: 422,
    code: 'signature_not_found',
  },
  // Reads
  { name: 'read: unknown id', path: `${BASE}/agr_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'read: traversal', path: `${BASE}/..%2F..%2Fkeys.json`, status: 404 },
  { name: 'read: SQL', path: `${BASE}/agr_'%20OR%20'1'='1`, status: 404 },
  { name: 'read: very long id', path: `${BASE}/${'a'.repeat(5000)}`, status: 404 },
  { name: 'read: a party id', path: `${BASE}/{{party}}`, status: 404 },
  { name: 'receipt: unknown id', path: `${BASE}/agr_AAAAAAAAAAAAAAAAAAAA/receipt`, status: 404 },
  { name: 'quorum votes: unknown id', path: `${BASE}/agr_AAAAAAAAAAAAAAAAAAAA/quorum_votes`, status: 404 },
  { name: 'list: limit zero', path: `${BASE}?limit=0`, status: 400 },
  { name: 'list: limit letters', path: `${BASE}?limit=abc`, status: 400 },
  { name: 'list: unknown status', path: `${BASE}?status=signed`, status: 400 },
  { name: 'list: forged cursor', path: `${BASE}?cursor=djE6LTE`, status: 400 },
  // A signing session's participant steps
  step('truncated JSON', '{"action":', 400),
  step('unknown action', { action: 'countersign' }, 422),
  step('sign without a name', { action: 'sign' }, 422),
  step('sign with a blank name', { action: 'sign', name: ' \t ' }, 422),
  step('sign with a name object', { action: 'sign', name: { first: 'A' } }, 422),
  step('sign with a name of 201 characters', { action: 'sign', name: 'n'.repeat(201) }, 422),
  step('sign before the code', { action: 'sign', name: 'Anna' }, 422, 'sign_in_required'),
  step('decline before the code', { action: 'decline' }, 422, 'sign_in_required'),
  step('counter before the code', { action: 'counter', proposal: 'less' }, 422, 'sign_in_required'),
  step('counter empty', { action: 'counter', proposal: '' }, 422),
  step('decline with a comment too long', { action: 'decline', comment: 'c'.repeat(1001) }, 422),
  step('code for another address', { action: 'send_code', email: 'mallory@example.com' }, 422, 'email_mismatch'),
  step('verify without a code sent', { action: 'verify', code: '123456' }, 422, 'invalid_transition'),
  step('cancel', { action: 'cancel', cancelled_by: 'host' }, 422, 'invalid_transition'),
  step('a consent step', { action: 'begin' }, 422, 'invalid_transition'),
  step('an approval step', { action: 'approve' }, 422, 'invalid_transition'),
  step('unknown field', { action: 'send_code', agreement_id: 'agr_x' }, 422),
  {
    name: 'signing step: cross-origin',
    method: 'POST',
    path: '/decisions/{{sig}}/transitions',
    headers: { authorization: null, origin: 'https://evil.example' },
    json: { action: 'send_code' },
    status: 403,
  },
];

/** An agreement of the sandbox: a party id and a party's session token. */
async function signingFixtures(server: TestServer): Promise<Record<string, string>> {
  const res = await server.api(BASE, { method: 'POST', json: agreement() });
  const created = (await res.json()) as { agreement: { party_details: { id: string; session_token: string }[] } };
  return { party: created.agreement.party_details[1]!.id, sig: created.agreement.party_details[0]!.session_token };
}

describeHostile('hostile requests: agreements and signing sessions', cases, signingFixtures);
