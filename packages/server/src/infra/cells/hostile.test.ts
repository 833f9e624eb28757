// Malformed and hostile requests around country routing: each a 4xx with a message, never a 5xx, never a resource.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';

const cases: HostileCase[] = [
  { name: 'countries: no credential', path: '/api/v1/countries', headers: { authorization: null }, status: 401 },
  { name: 'countries: a forged bearer', path: '/api/v1/countries', headers: { authorization: 'Bearer forged' }, status: 401 },
  { name: 'countries: POST', method: 'POST', path: '/api/v1/countries', json: {}, status: 404 },
  { name: 'record of another country', path: '/api/v1/consent_records/cr_de_AAAAAAAAAAAAAAAAAAAA', status: 421, code: 'wrong_country' },
  { name: 'record of a country no cell serves', path: '/api/v1/consent_records/cr_zz_AAAAAAAAAAAAAAAAAAAA', status: 404 },
  {
    name: 'session token of a country no cell serves',
    path: '/api/v1/decisions/dts_zz_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    status: 404,
  },
  { name: 'record id with an upper-case country', path: '/api/v1/consent_records/cr_DE_AAAAAAAAAAAAAAAAAAAA', status: 404 },
  { name: 'record id with a three-letter country', path: '/api/v1/consent_records/cr_deu_AAAAAAAAAAAAAAAAAAAA', status: 404 },
  { name: 'record id that is only a prefix and a country', path: '/api/v1/consent_records/cr_de_', status: 404 },
  {
    name: 'session token of another country',
    path: '/api/v1/decisions/dts_de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    status: 421,
    code: 'wrong_country',
  },
  { name: 'session token one character short', path: '/api/v1/decisions/dts_de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', status: 404 },
  {
    name: 'record create homed in a country no cell serves',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: { flow_id: '{{flow}}', subject: { email: 'a@example.com', country: 'ZZ' }, decisions: {} },
    status: 422,
    code: 'validation_failed',
  },
  {
    name: 'record create with a lower-case country',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: { flow_id: '{{flow}}', subject: { email: 'a@example.com', country: 'de' }, decisions: {} },
    status: 422,
  },
  {
    name: 'record create with a country that is not a string',
    method: 'POST',
    path: '/api/v1/consent_records',
    json: { flow_id: '{{flow}}', subject: { email: 'a@example.com', country: 49 }, decisions: {} },
    status: 422,
  },
  {
    name: 'application homed nowhere',
    method: 'POST',
    path: '/api/v1/applications',
    json: { application: { name: 'x', home_country: 'ZZ' } },
    status: 422,
  },
  {
    name: 'application homed in a long code',
    method: 'POST',
    path: '/api/v1/applications',
    json: { application: { name: 'x', home_country: 'DEU' } },
    status: 422,
  },
];

describeHostile('hostile requests: country routing', cases);
