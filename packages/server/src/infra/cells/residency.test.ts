import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsentRecord } from '@svc/schemas';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';
import { createActiveFlow, grantAll, importRows } from '../../consent/records/test-support.js';
import {
  capture,
  captureFlowConfig,
  captureRequest,
  createActiveFlow as createCaptureFlow,
  render,
} from '../../consent/captures/test-support.js';

type Body = Record<string, unknown>;

let server: TestCells;
let us: TestServer;
let de: TestServer;
let flowId: string;
before(async () => {
  server = await startTestCells(['US', 'DE']);
  ({ US: us, DE: de } = server.cells as { US: TestServer; DE: TestServer });
  flowId = await createActiveFlow(us);
});
after(() => server.dispose());

const recordBody = (country?: string, email = 'ada@example.com') => ({
  flow_id: flowId,
  subject: { email, ...(country ? { country } : {}) },
  decisions: grantAll,
});

/** The whole answer of a wrong-country request: 421, the home country, and not one field of the resource. */
async function assertMisdirected(res: Response, home: string): Promise<void> {
  assert.equal(res.status, 421);
  const body = (await res.json()) as Body;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'home_country', 'message']);
  assert.equal(body.code, 'wrong_country');
  assert.equal(body.home_country, home);
}

describe("residency: a person's records live only in their home country", () => {
  let record: ConsentRecord;

  it('makes a record in DE for a subject homed in DE; its receipt says it is stored in DE', async () => {
    const res = await de.api('/api/v1/consent_records', { method: 'POST', json: recordBody('DE') });
    assert.equal(res.status, 201);
    record = ((await res.json()) as { consent_record: ConsentRecord }).consent_record;
    assert.match(record.id, /^cr_de_/);
    const receipt = await de.api(`/api/v1/consent_receipts/${record.id}`);
    assert.equal(receipt.status, 200);
    const body = (await receipt.json()) as {
      consent_receipt?: { pii_processing: { storage_locations: string[] } };
      pii_processing?: { storage_locations: string[] };
    };
    const processing = body.consent_receipt?.pii_processing ?? body.pii_processing;
    assert.deepEqual(processing?.storage_locations, ['DE']);
  });

  it('answers 421 for the DE record, its receipt, its withdrawal and a made-up DE id through US', async () => {
    await assertMisdirected(await us.api(`/api/v1/consent_records/${record.id}`), 'DE');
    await assertMisdirected(await us.api(`/api/v1/consent_receipts/${record.id}`), 'DE');
    await assertMisdirected(await us.api(`/api/v1/consent_receipts/${record.id}?flavor=signed`), 'DE');
    await assertMisdirected(await us.api(`/api/v1/consent_records/${record.id}/withdraw`, { method: 'POST', json: {} }), 'DE');
    await assertMisdirected(await us.api('/api/v1/consent_records/cr_de_AAAAAAAAAAAAAAAAAAAA'), 'DE');
    // A country no cell serves names nothing: the 404, never a 421 sending the client nowhere.
    assert.equal((await us.api('/api/v1/consent_records/cr_fr_AAAAAAAAAAAAAAAAAAAA')).status, 404);
    // No credential: the same answer, which holds only what the path said.
    await assertMisdirected(await fetch(`${us.url}/api/v1/consent_records/${record.id}`), 'DE');
  });

  it("refuses to make a DE subject's record in US (421), and lists nothing of DE through US", async () => {
    await assertMisdirected(await us.api('/api/v1/consent_records', { method: 'POST', json: recordBody('DE', 'bea@example.com') }), 'DE');
    // The audit trail is a list of what happened to people's records: each cell lists its own.
    const usTrail = await us.api('/api/v1/audit/events?limit=100');
    assert.equal(usTrail.status, 200);
    const usText = await usTrail.text();
    assert.equal(usText.includes(record.id), false);
    assert.equal(usText.includes('bea@example.com'), false);
    const deTrail = await de.api('/api/v1/audit/events?limit=100');
    assert.equal((await deTrail.text()).includes(record.id), true);
  });

  it("homes a record without a subject country in the application's home country", async () => {
    await assertMisdirected(
      await de.api('/api/v1/consent_records', { method: 'POST', json: recordBody(undefined, 'cy@example.com') }),
      'US',
    );
    const made = await us.api('/api/v1/consent_records', { method: 'POST', json: recordBody(undefined, 'cy@example.com') });
    assert.equal(made.status, 201);
    assert.match(((await made.json()) as { consent_record: ConsentRecord }).consent_record.id, /^cr_us_/);
  });

  it('refuses import rows homed in another cell by name, and records the rest', async () => {
    const rows = importRows(3, 'imp').map((row, i) => (i === 1 ? { ...row, subject: { ...(row.subject as Body), country: 'DE' } } : row));
    const res = await us.api('/api/v1/consent_records/imports', { method: 'POST', json: { flow_id: flowId, records: rows } });
    assert.ok(res.status === 200 || res.status === 201 || res.status === 202, String(res.status));
    const body = (await res.json()) as {
      import: {
        accepted_count: number;
        refused_count: number;
        results: { index: number; outcome: string; code?: string; refusal_code?: string }[];
      };
    };
    assert.equal(body.import.accepted_count, 2);
    assert.equal(body.import.refused_count, 1);
    const refused = body.import.results.find((r) => r.outcome === 'refused');
    assert.equal(refused?.index, 1);
    assert.match(JSON.stringify(refused), /wrong_country/);
  });
});

describe('residency: an application homed in DE', () => {
  let applicationId: string;
  let publishableKey: string;
  let deFlow: string;

  before(async () => {
    const res = await us.api('/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'Berlin shop', home_country: 'DE' } },
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { application: { id: string; home_country: string }; publishable_key: string };
    assert.equal(body.application.home_country, 'DE');
    applicationId = body.application.id;
    publishableKey = body.publishable_key;
    for (const cell of [us, de]) {
      const origin = await de.api(`/api/v1/applications/${applicationId}/allowed_origins`, {
        method: 'POST',
        json: { allowed_origin: { origin: new URL(cell.url).origin } },
      });
      assert.ok(origin.status === 201 || origin.status === 200, String(origin.status));
    }
    deFlow = await createCaptureFlow(de, captureFlowConfig, { application_id: applicationId });
  });

  it('refuses a home country no cell serves', async () => {
    const res = await us.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'Paris', home_country: 'FR' } } });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { errors: { path: string; code: string }[] };
    assert.equal(body.errors[0]?.code, 'unknown_country');
  });

  it('opens its decisions in DE only; a hosted page asked for through US is sent to DE', async () => {
    const json = { kind: 'consent', subject_ref: deFlow, delivery_mode: 'redirect' };
    const headers = { 'x-publishable-key': publishableKey, authorization: '' };
    await assertMisdirected(await us.api('/api/v1/decisions', { method: 'POST', json, headers }), 'DE');
    const made = await de.api('/api/v1/decisions', { method: 'POST', json, headers });
    assert.equal(made.status, 201, await made.clone().text());
    const { decision } = (await made.json()) as { decision: { session_token: string } };
    assert.match(decision.session_token, /^dts_de_/);
    const page = await fetch(`${us.url}/decisions/${decision.session_token}`, { redirect: 'manual' });
    assert.equal(page.status, 307);
    assert.equal(page.headers.get('location'), `${de.url}/decisions/${decision.session_token}`);
    await assertMisdirected(await us.api(`/api/v1/decisions/${decision.session_token}`), 'DE');
  });

  it('takes captures in DE; a browser posting one to US reads the 421 under CORS', async () => {
    const body = { flow_id: deFlow, decisions: { newsletter: { decision: 'granted' }, partners: { decision: 'declined' } } };
    const res = await captureRequest(us, body, { key: publishableKey, origin: new URL(us.url).origin });
    await assertMisdirected(res.clone(), 'DE');
    assert.equal(res.headers.get('access-control-allow-origin'), new URL(us.url).origin);
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /Svc-Country/i);
    const made = await captureRequest(de, body, { key: publishableKey, origin: new URL(us.url).origin });
    assert.equal(made.status, 201, await made.clone().text());
    assert.equal(made.headers.get('svc-country'), 'DE');
  });

  it("takes a capture in DE with the render proof the US cell signed (checked with US's published keys)", async () => {
    const origin = new URL(us.url).origin;
    const { render_proof } = await render(us, deFlow, { origin, key: publishableKey });
    const body = { flow_id: deFlow, decisions: { newsletter: { decision: 'granted' }, partners: { decision: 'granted' } } };
    const made = await capture(de, body, { origin, proof: render_proof, key: publishableKey });
    // A proof that does not verify is refused, never downgraded: 201 means DE verified it.
    assert.match(made.session_token, /^dts_de_/);
    assert.equal(made.wording_verdict, 'match');
    // A proof is still bound to its issuer: one whose signature is not US's does not pass as US's.
    const [header, payload] = render_proof.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    const refused = await captureRequest(de, body, { origin, proof: forged, key: publishableKey });
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { code: string }).code, 'render_proof_invalid');
  });
});
