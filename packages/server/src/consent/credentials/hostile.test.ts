// Malformed and hostile requests against the credential, presentation and issuer discovery routes: each gets its
// 4xx, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';

const json = { 'content-type': 'application/json' };
const CREDS = '/api/v1/credentials';
const PRES = '/api/v1/presentations';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const jwt = (header: unknown, payload: unknown, sig = 'c2ln') => `${b64(header)}.${b64(payload)}.${sig}`;
const now = Math.floor(Date.now() / 1000);
const claims = { iss: 'https://issuer.example', iat: now, exp: now + 3600, vct: 'ConsentCredential' };
const header = { alg: 'ES256', typ: 'dc+sd-jwt', kid: 'k' };
const present = (presentation: unknown, extra: Record<string, unknown> = {}): HostileCase['json'] => ({ presentation, ...extra });

const cases: HostileCase[] = [
  // Issuing
  { name: 'issue: truncated JSON', method: 'POST', path: CREDS, headers: json, body: '{"consent_transaction_id":', status: 400, code: 'malformed_json' },
  { name: 'issue: form-encoded', method: 'POST', path: CREDS, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b', status: 400 },
  { name: 'issue: JSON array', method: 'POST', path: CREDS, json: [], status: 422 },
  { name: 'issue: missing credential_type', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x' }, status: 422 },
  { name: 'issue: unknown field', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X', status: 'active' }, status: 422 },
  { name: 'issue: __proto__', method: 'POST', path: CREDS, headers: json, body: '{"__proto__":{"admin":true},"consent_transaction_id":"ctxn_us_x","credential_type":"X"}', status: 422 },
  { name: 'issue: credential_type with spaces', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'a b' }, status: 422 },
  { name: 'issue: credential_type too long', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: `X${'y'.repeat(200)}` }, status: 422 },
  { name: 'issue: validity_days fractional', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X', validity_days: 1.5 }, status: 422 },
  { name: 'issue: validity_days a string', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X', validity_days: '30' }, status: 422 },
  { name: 'issue: holder_jwk with a private part', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X', holder_jwk: { kty: 'EC', crv: 'P-256', x: 'a'.repeat(43), y: 'b'.repeat(43), d: 'c'.repeat(43) } }, status: 422 },
  { name: 'issue: holder_jwk an RSA key', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X', holder_jwk: { kty: 'RSA', n: 'x', e: 'AQAB' } }, status: 422 },
  { name: 'issue: unknown transaction', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_us_nosuchtransaction00', credential_type: 'X' }, status: 422, code: 'consent_transaction_not_found' },
  { name: 'issue: a transaction of another cell', method: 'POST', path: CREDS, json: { consent_transaction_id: 'ctxn_de_nosuchtransaction00', credential_type: 'X' }, status: 421, code: 'wrong_country' },
  { name: 'issue: read token', method: 'POST', path: CREDS, headers: { authorization: 'Bearer {{read}}' }, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X' }, status: 403 },
  { name: 'issue: publishable key', method: 'POST', path: CREDS, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X' }, status: 403 },
  { name: 'issue: no credential', method: 'POST', path: CREDS, headers: { authorization: null }, json: { consent_transaction_id: 'ctxn_us_x', credential_type: 'X' }, status: 401 },
  // Reading and revoking
  { name: 'read: unknown id', path: `${CREDS}/cred_us_nosuchcredential0000`, status: 404 },
  { name: 'read: another cell\'s id', path: `${CREDS}/cred_de_nosuchcredential0000`, status: 421, code: 'wrong_country' },
  { name: 'read: traversal', path: `${CREDS}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'read: 10 kB id', path: `${CREDS}/${'a'.repeat(10_000)}`, status: [404, 414, 431] },
  { name: 'list: bad limit', path: `${CREDS}?limit=0`, status: 400 },
  { name: 'list: forged cursor', path: `${CREDS}?cursor=djE6LTE`, status: 400 },
  { name: 'list: unknown status', path: `${CREDS}?status=gone`, status: 400 },
  { name: 'revoke: unknown id', method: 'POST', path: `${CREDS}/cred_us_nosuchcredential0000/revoke`, status: 404 },
  { name: 'revoke: read token', method: 'POST', path: `${CREDS}/cred_us_nosuchcredential0000/revoke`, headers: { authorization: 'Bearer {{read}}' }, status: 403 },
  // Presentations
  { name: 'present: empty body', method: 'POST', path: PRES, headers: json, body: '', status: 400 },
  { name: 'present: presentation a number', method: 'POST', path: PRES, json: present(42), status: 422 },
  { name: 'present: presentation empty', method: 'POST', path: PRES, json: present(''), status: 422 },
  { name: 'present: over 64 KB', method: 'POST', path: PRES, json: present(`${'a'.repeat(70_000)}~`), status: 422 },
  { name: 'present: no tilde', method: 'POST', path: PRES, json: present('a.b.c'), status: 422, code: 'malformed_presentation' },
  { name: 'present: only tildes', method: 'POST', path: PRES, json: present('~~~~'), status: 422, code: 'malformed_presentation' },
  { name: 'present: JWT of garbage', method: 'POST', path: PRES, json: present('%%%.%%%.%%%~'), status: 422, code: 'malformed_presentation' },
  { name: 'present: alg none', method: 'POST', path: PRES, json: present(`${jwt({ alg: 'none', typ: 'dc+sd-jwt' }, claims, '')}~`), status: 422, code: 'unsupported_algorithm' },
  { name: 'present: HS256', method: 'POST', path: PRES, json: present(`${jwt({ ...header, alg: 'HS256' }, claims)}~`), status: 422, code: 'unsupported_algorithm' },
  { name: 'present: a plain JWT typ', method: 'POST', path: PRES, json: present(`${jwt({ ...header, typ: 'JWT' }, claims)}~`), status: 422, code: 'unsupported_format' },
  { name: 'present: unknown issuer', method: 'POST', path: PRES, json: present(`${jwt(header, claims)}~`), status: 422, code: 'unknown_issuer' },
  { name: 'present: iss an object', method: 'POST', path: PRES, json: present(`${jwt(header, { ...claims, iss: { url: 'x' } })}~`), status: 422, code: 'unknown_issuer' },
  { name: 'present: no vct', method: 'POST', path: PRES, json: present(`${jwt(header, { ...claims, vct: undefined })}~`), status: 422, code: 'malformed_presentation' },
  { name: 'present: _sd_alg md5', method: 'POST', path: PRES, json: present(`${jwt(header, { ...claims, _sd_alg: 'md5' })}~`), status: 422, code: 'unsupported_algorithm' },
  { name: 'present: disclosure not JSON', method: 'POST', path: PRES, json: present(`${jwt(header, claims)}~${b64('not json')}~`), status: 422, code: 'malformed_presentation' },
  { name: 'present: disclosure an object', method: 'POST', path: PRES, json: present(`${jwt(header, claims)}~${b64({ a: 1 })}~`), status: 422, code: 'malformed_presentation' },
  { name: 'present: disclosure of four', method: 'POST', path: PRES, json: present(`${jwt(header, claims)}~${b64(['s', 'k', 1, 2])}~`), status: 422, code: 'malformed_presentation' },
  { name: 'present: unknown field', method: 'POST', path: PRES, json: present('a~', { verify: false }), status: 422 },
  { name: 'present: nonce an object', method: 'POST', path: PRES, json: present('a~', { nonce: {} }), status: 422 },
  { name: 'present: publishable key', method: 'POST', path: PRES, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: present('a~'), status: 403 },
  { name: 'present: no credential', method: 'POST', path: PRES, headers: { authorization: null }, json: present('a~'), status: 401 },
  // Discovery
  { name: 'status list: unknown', path: '/.well-known/credential-status/sl_us_nosuchlist', headers: { authorization: null }, status: 404 },
  { name: 'status list: traversal', path: '/.well-known/credential-status/..%2F..%2Fapi%2Fv1%2Fapi_tokens', headers: { authorization: null }, status: 404 },
  { name: 'status list: 10 kB id', path: `/.well-known/credential-status/${'a'.repeat(10_000)}`, headers: { authorization: null }, status: [404, 414, 431] },
];

describeHostile('credentials and presentations: hostile requests', cases);
