// Malformed and hostile requests to `GET /api/v1/inbox`: each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';

const reader = { authorization: 'Bearer {{reader}}' };
const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const cases: HostileCase[] = [
  { name: 'inbox: an API token', path: '/api/v1/inbox', status: 403, code: 'person_token_required' },
  {
    name: 'inbox: a read-only API token',
    path: '/api/v1/inbox',
    headers: { authorization: 'Bearer {{read}}' },
    status: 403,
    code: 'person_token_required',
  },
  { name: 'inbox: a publishable key', path: '/api/v1/inbox', headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, status: 403 },
  { name: 'inbox: no credentials', path: '/api/v1/inbox', headers: { authorization: null }, status: 401 },
  { name: 'inbox: a forged bearer', path: '/api/v1/inbox', headers: { authorization: 'Bearer inbox:read' }, status: 401 },
  { name: 'inbox: a forged agent token', path: '/api/v1/inbox', headers: { authorization: 'Bearer ra_agent_forged' }, status: 401 },
  {
    name: 'inbox: a person token without inbox:read',
    path: '/api/v1/inbox',
    headers: { authorization: 'Bearer {{narrow}}' },
    status: 403,
    code: 'insufficient_scope',
  },
  {
    name: 'inbox: a delegation header naming nothing',
    path: '/api/v1/inbox',
    headers: { ...reader, 'x-delegation-grant-id': 'dlg_dev_AAAAAAAAAAAAAAAA' },
    status: 403,
    code: 'not_delegate',
  },
  { name: 'inbox: unknown kind', path: '/api/v1/inbox?kind=everything', headers: reader, status: 400 },
  { name: 'inbox: unknown trigger', path: '/api/v1/inbox?trigger=mood', headers: reader, status: 400 },
  { name: 'inbox: unknown sort', path: '/api/v1/inbox?sort=oldest', headers: reader, status: 400 },
  { name: 'inbox: limit 0', path: '/api/v1/inbox?limit=0', headers: reader, status: 400 },
  { name: 'inbox: limit 101', path: '/api/v1/inbox?limit=101', headers: reader, status: 400 },
  { name: 'inbox: limit not a number', path: '/api/v1/inbox?limit=ten', headers: reader, status: 400 },
  { name: 'inbox: empty application_id', path: '/api/v1/inbox?application_id=', headers: reader, status: 400 },
  { name: 'inbox: very long application_id', path: `/api/v1/inbox?application_id=${'a'.repeat(5000)}`, headers: reader, status: 400 },
  {
    name: 'inbox: cursor not base64url',
    path: '/api/v1/inbox?cursor=%27%20OR%201%3D1',
    headers: reader,
    status: 400,
    code: 'invalid_cursor',
  },
  { name: 'inbox: cursor of another list', path: '/api/v1/inbox?cursor=djE6MTI', headers: reader, status: 400, code: 'invalid_cursor' },
  {
    name: 'inbox: cursor of the other order',
    path: `/api/v1/inbox?sort=newest&cursor=${cursorOf('i1:deadline:2030-01-01T00:00:00.000Z:dec_AAAA')}`,
    headers: reader,
    status: 400,
    code: 'invalid_cursor',
  },
  {
    name: 'inbox: cursor carrying SQL',
    path: `/api/v1/inbox?cursor=${cursorOf("i1:deadline:2030-01-01T00:00:00.000Z:x' OR '1'='1")}`,
    headers: reader,
    status: 400,
    code: 'invalid_cursor',
  },
  {
    name: 'inbox: cursor with a date that is not one',
    path: `/api/v1/inbox?cursor=${cursorOf('i1:deadline:tomorrow:dec_AAAA')}`,
    headers: reader,
    status: 400,
    code: 'invalid_cursor',
  },
  { name: 'inbox: very long cursor', path: `/api/v1/inbox?cursor=${'A'.repeat(5000)}`, headers: reader, status: 400 },
  { name: 'inbox: write method', method: 'POST', path: '/api/v1/inbox', headers: reader, json: {}, status: 404 },
];

describeHostile('hostile requests: the Trust Inbox', cases, async (server) => ({
  reader: await personAccessToken(server, 'ada@example.com', 'openid inbox:read'),
  narrow: await personAccessToken(server, 'ada@example.com', 'openid'),
}));
