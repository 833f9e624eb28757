import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { verifyReceipt, type ReceiptRecord } from '@svc/client';
import type { ConsentReceiptRecord } from '@svc/schemas';
import { exportJWK, generateKeyPair } from 'jose';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import {
  assertValidReceipt,
  createActiveFlow,
  createRecord,
  fetchReceipt,
  grantAll,
  RECEIPT_SCHEMA_FILE,
  receiptsValidated,
  recordFlowConfig,
} from '../records/test-support.js';
import { recordWithdrawalUrl } from '../../people/withdrawal/links.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { DPV_TERMS } from '../vocab/dpv-context.js';
import { dpv23Terms, dpvTermsIn } from '../vocab/test-support.js';
import { PLATFORM_PARTY_ID } from './canonical.js';
import { DpvNotApplicableError, toDpv } from './dpv.js';
import { receiptSchemaText } from './json-schema.js';
import { noticeDocument, noticeHash } from './notice.js';
import { signJcs } from './sign.js';

type Canonical = ConsentReceiptRecord;

/** The terms DPV 2.3 defines (the checked-in list; vocab/dpv.test.ts checks it against the DPV 2.3 Turtle). */
const DPV_2_3 = dpv23Terms();
/** The dpv: terms of a document, or of a module's source, that DPV 2.3 does not define. */
const notInDpv23 = (text: string) => dpvTermsIn(text).filter((term) => !DPV_2_3.has(term));
const createHashHex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('receipts: GET /api/v1/consent_receipts/{id}', () => {
  let server: TestServer;
  let flowId: string;
  let n = 0;
  const fresh = () => `r${++n}@example.com`;
  const canonical = async (id: string) => {
    const { status, body } = await fetchReceipt(server, id);
    assert.equal(status, 200);
    return body.consent_receipt as Canonical;
  };
  const withdraw = (id: string, body: Record<string, unknown>) =>
    server.api(`/api/v1/consent_records/${id}/withdraw`, { method: 'POST', json: body });
  const jwks = async () => (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it('issues the canonical flavor field by field (svc-cr/2.13): granted purposes with frozen labels, notice hash, parties, the frozen event prefix', async () => {
    const r = await createRecord(server, {
      flow_id: flowId,
      subject: { email: fresh() },
      decisions: { ...grantAll, research: { decision: 'declined' }, analytics: { decision: 'declined' } },
      locale: 'en-GB',
    });
    const receipt = await canonical(r.id);
    const personId = receipt.pii_principal_id!;
    assert.match(personId, /^prs_/);
    const version = getActiveFlowVersion(server.context, flowId)!;
    assert.deepEqual(receipt, {
      schema_version: 'svc-cr/2.13',
      conforms_to: 'ISO/IEC TS 27560:2023',
      record_id: r.id,
      record_type: 'consent_record',
      pii_principal_id: personId,
      pii_processing: {
        language: 'en-GB',
        jurisdiction: 'unspecified',
        // Declined consent and the objected legitimate interest do not appear; notice-only purposes count as granted.
        purposes: [
          { purpose_id: 'newsletter', purpose: 'Email newsletter', lawful_basis: 'consent' },
          { purpose_id: 'service', purpose: 'Providing the service', lawful_basis: 'contract' },
          { purpose_id: 'invoices', purpose: 'Keeping invoices', lawful_basis: 'legal_obligation' },
        ],
        privacy_notice: { reference: `urn:svc:notice:${flowId}:${noticeHash(version).slice(0, 16)}`, sha256: noticeHash(version) },
        collection_method: 'Attested by the organisation through the Record API',
        // Stated because the cell that stores the record knows its own country.
        storage_locations: ['US'],
        // The stable, credential-free page that withdraws this record.
        withdrawal_method: recordWithdrawalUrl(server.context, r.id),
      },
      party_identification: [
        {
          party_id: server.sandbox.application_id,
          party_name: 'Sandbox application',
          party_role: 'controller',
          party_type: 'organization',
          provenance: 'declared',
        },
        { party_id: PLATFORM_PARTY_ID, party_name: 'svc reference server', party_role: 'processor', party_type: 'organization' },
      ],
      event: [
        { event_time: r.captured_at, entity_id: server.sandbox.application_id, event_type: 'regular', event_state: 'notice shown' },
        { event_time: r.captured_at, entity_id: server.sandbox.application_id, event_type: 'regular', event_state: 'consent requested' },
        { event_time: r.captured_at, entity_id: personId, event_type: 'explicit', event_state: 'consent given', validity_duration: 'P1Y' },
      ],
      extensions: {
        consent_flow_id: flowId,
        collection_channel: 'controller_attested',
        captured_at: r.captured_at,
        recorded_at: r.recorded_at,
      },
    });
    // Not stated because the platform cannot state them truthfully.
    for (const absent of ['recipient_third_parties', 'processing_locations', 'privacy_rights']) {
      assert.equal(absent in receipt.pii_processing, false, absent);
    }
    assert.equal('anonymous' in receipt, false);
  });

  it('starts at consent requested for a flow without an opening notice', async () => {
    const plain = await createActiveFlow(server, { ...recordFlowConfig, steps: [{ type: 'review' }] }, 'No opening notice');
    const r = await createRecord(server, { flow_id: plain, subject: { email: fresh() }, decisions: grantAll });
    assert.deepEqual(
      (await canonical(r.id)).event.map((e) => e.event_state),
      ['consent requested', 'consent given'],
    );
  });

  it('appends withdrawals at read time (scoped ones with purpose_id) and never rewrites the frozen record', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    const frozen = server.context.db.prepare('SELECT receipt FROM consent_records WHERE id = ?').pluck().get(r.id);
    const issued = await canonical(r.id);
    server.advance(3600);
    assert.equal((await withdraw(r.id, { purposes: ['newsletter'], event_channel: 'receipt_record_link' })).status, 200);
    server.advance(3600);
    assert.equal((await withdraw(r.id, { purposes: ['analytics'], event_channel: 'mailing_tool' })).status, 200);
    server.advance(3600);
    assert.equal((await withdraw(r.id, { event_channel: 'organisation' })).status, 200);
    const later = await canonical(r.id);
    assert.deepEqual(later.pii_processing, issued.pii_processing, 'purposes stay as issued');
    assert.deepEqual(later.event.slice(0, issued.event.length), issued.event, 'the prefix is unchanged');
    const appended = later.event.slice(issued.event.length);
    assert.deepEqual(
      appended.map(({ event_time: _t, ...e }) => e),
      [
        {
          entity_id: issued.pii_principal_id,
          event_type: 'explicit',
          event_state: 'consent withdrawn',
          purpose_id: 'newsletter',
          event_channel: 'receipt_record_link',
        },
        {
          entity_id: server.sandbox.application_id,
          event_type: 'regular',
          event_state: 'objection recorded',
          purpose_id: 'analytics',
          event_channel: 'mailing_tool',
        },
        {
          entity_id: server.sandbox.application_id,
          event_type: 'regular',
          event_state: 'consent withdrawn',
          event_channel: 'organisation',
        },
      ],
    );
    assert.ok(appended.every((e, i) => i === 0 || e.event_time > appended[i - 1]!.event_time));
    assert.equal(server.context.db.prepare('SELECT receipt FROM consent_records WHERE id = ?').pluck().get(r.id), frozen);
  });

  it('appends consent expired at the end of the term by the test clock, with the platform processor as actor', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    const revokedFirst = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    await withdraw(revokedFirst.id, {});
    assert.equal(
      (await canonical(r.id)).event.some((e) => e.event_state === 'consent expired'),
      false,
    );
    server.advance(366 * 24 * 3600);
    const expired = await canonical(r.id);
    assert.deepEqual(expired.event.at(-1), {
      event_time: r.expires_at,
      entity_id: PLATFORM_PARTY_ID,
      event_type: 'regular',
      event_state: 'consent expired',
    });
    // Consent withdrawn before the end of the term does not expire again.
    assert.equal(
      (await canonical(revokedFirst.id)).event.some((e) => e.event_state === 'consent expired'),
      false,
    );
  });

  it('signs the receipt: {receipt, signature} with a detached JWS over the JCS bytes, verifiable with only the JWKS', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    await withdraw(r.id, { purposes: ['research'] });
    const { status, body } = await fetchReceipt(server, r.id, 'signed');
    assert.equal(status, 200);
    const signed = body as { receipt: ReceiptRecord; signature: string };
    assert.match(signed.signature, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    const header = JSON.parse(Buffer.from(signed.signature.split('.')[0]!, 'base64url').toString('utf8')) as { alg: string; kid: string };
    assert.equal(header.alg, 'ES256');
    const keys = await jwks();
    assert.ok(
      keys.keys.some((k) => k.kid === header.kid),
      'kid is in /.well-known/jwks.json',
    );
    assert.deepEqual(signed.receipt, await canonical(r.id));
    const verified = await verifyReceipt(JSON.parse(JSON.stringify(signed)) as typeof signed, keys as never);
    assert.equal(verified.record_id, r.id);
    // Key order does not matter (JCS), content does.
    const reordered = { signature: signed.signature, receipt: Object.fromEntries(Object.entries(signed.receipt).reverse()) };
    assert.equal((await verifyReceipt(reordered, keys as never)).record_id, r.id);
    const tampered = structuredClone(signed);
    (tampered.receipt as Canonical).pii_processing.purposes.push({
      purpose_id: 'research',
      purpose: 'Research panel',
      lawful_basis: 'consent',
    });
    await assert.rejects(verifyReceipt(tampered, keys as never), { code: 'ERR_SVC_RECEIPT_SIGNATURE' });
    const { publicKey } = await generateKeyPair('ES256');
    await assert.rejects(verifyReceipt(signed, { keys: [{ ...(await exportJWK(publicKey)), kid: 'other', alg: 'ES256' }] }), {
      code: 'ERR_SVC_RECEIPT_KEY',
    });
  });

  it('exports the dpv flavor as JSON-LD with DPV terms and an embedded context (no network)', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    await withdraw(r.id, { purposes: ['newsletter'], event_channel: 'person_records' });
    await withdraw(r.id, { purposes: ['analytics'] });
    const { status, body, contentType } = await fetchReceipt(server, r.id, 'dpv');
    assert.equal(status, 200);
    assert.match(contentType, /^application\/ld\+json/);
    const doc = body as Record<string, any>;
    assert.equal(typeof doc['@context'], 'object', 'the context is embedded, not a URL');
    assert.equal(doc['@context'].dpv, 'https://w3id.org/dpv#');
    assert.equal(doc['@type'], 'dpv:ConsentRecord');
    assert.equal(doc['@id'], `urn:svc:record:${r.id}`);
    assert.equal(doc['dpv:hasConsentStatus'], 'dpv:ConsentGiven', 'research is still given');
    assert.equal(doc['dpv:hasDataSubject']['@type'], 'dpv:DataSubject');
    assert.equal(doc['dpv:hasDataController']['@id'], `urn:svc:party:${server.sandbox.application_id}`);
    assert.equal(doc['dpv:hasNotice']['@type'], 'dpv:PrivacyNotice');
    const purposes = Object.fromEntries((doc['dpv:hasPurpose'] as Record<string, string>[]).map((p) => [p['dct:identifier'], p]));
    assert.equal(purposes.newsletter!['dpv:hasConsentStatus'], 'dpv:ConsentWithdrawn', 'withdrawn by the person');
    assert.equal(purposes.research!['dpv:hasConsentStatus'], 'dpv:ConsentGiven');
    assert.equal(purposes.analytics!['dpv:hasStatus'], 'dpv:LegitimateInterestObjected');
    assert.equal(purposes.service!['dpv:hasLegalBasis'], 'dpv:Contract');
    assert.equal(purposes.invoices!['dpv:hasLegalBasis'], 'dpv:LegalObligation');
    // Every dpv: term in the document is one the module declares, and one DPV 2.3 defines.
    const used = dpvTermsIn(JSON.stringify(doc));
    assert.deepEqual(
      used.filter((t) => !(DPV_TERMS as readonly string[]).includes(t)),
      [],
    );
    assert.deepEqual(notInDpv23(JSON.stringify(doc)), []);
    // Withdrawn by the organisation is revoked; past the term, expired.
    await withdraw(r.id, { purposes: ['research'], event_channel: 'organisation' });
    const revoked = (await fetchReceipt(server, r.id, 'dpv')).body as Record<string, any>;
    assert.equal(revoked['dpv:hasConsentStatus'], 'dpv:ConsentWithdrawn');
    assert.equal(
      (revoked['dpv:hasPurpose'] as Record<string, string>[]).find((p) => p['dct:identifier'] === 'research')!['dpv:hasConsentStatus'],
      'dpv:ConsentRevoked',
    );
    assert.deepEqual(notInDpv23(JSON.stringify(revoked)), []);
    const other = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    server.advance(400 * 24 * 3600);
    const expired = (await fetchReceipt(server, other.id, 'dpv')).body as Record<string, string>;
    assert.equal(expired['dpv:hasConsentStatus'], 'dpv:ConsentExpired');
    assert.deepEqual(notInDpv23(JSON.stringify(expired)), []);
  });

  it('answers 400 for an unknown flavor and 404 for an unknown record', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    assert.equal((await server.api(`/api/v1/consent_receipts/${r.id}?flavor=pdf`)).status, 400);
    assert.equal((await server.api(`/api/v1/consent_receipts/${r.id}?flavour=dpv`)).status, 400);
    assert.equal((await server.api('/api/v1/consent_receipts/cr_nope')).status, 404);
    assert.equal((await server.api('/api/v1/consent_receipts/cr_nope?flavor=signed')).status, 404);
  });

  it('publishes the receipt schema byte-verbatim at /schemas/receipt/v2/record.json', async () => {
    const res = await fetch(`${server.url}/schemas/receipt/v2/record.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/schema\+json/);
    const served = Buffer.from(await res.arrayBuffer());
    assert.ok(served.equals(readFileSync(RECEIPT_SCHEMA_FILE)), 'served bytes equal the checked-in file');
  });
});

describe('receipt schema, notice hash and the dpv rules (units)', () => {
  it('matches the checked-in schemas/receipt/v2/record.json (run `pnpm schemas` after changing the zod schema)', () => {
    assert.equal(readFileSync(RECEIPT_SCHEMA_FILE, 'utf8'), receiptSchemaText());
    const doc = JSON.parse(receiptSchemaText()) as { $schema: string; $id: string };
    assert.equal(doc.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(doc.$id, 'https://svc.example/schemas/receipt/v2/record.json');
  });

  it('refuses what the schema forbids: unknown fields, an unknown event state, a missing principal on an identified record', () => {
    const base = {
      schema_version: 'svc-cr/2.13',
      conforms_to: 'ISO/IEC TS 27560:2023',
      record_id: 'cr_1',
      pii_principal_id: 'prs_1',
      pii_processing: { language: 'en', jurisdiction: 'unspecified', purposes: [] },
      party_identification: [{ party_id: 'tp_1', party_name: 'Shop', party_role: 'controller' }],
      event: [{ event_time: '2026-01-01T00:00:00Z', entity_id: 'prs_1', event_type: 'explicit', event_state: 'consent given' }],
    };
    assertValidReceipt(base);
    assert.throws(() => assertValidReceipt({ ...base, colour: 'blue' }));
    assert.throws(() => assertValidReceipt({ ...base, event: [{ ...base.event[0], event_state: 'consent maybe' }] }));
    assert.throws(() => assertValidReceipt({ ...base, schema_version: 'svc-cr/3.0' }));
    assert.throws(
      () => assertValidReceipt({ ...base, extensions: { grant_integrity: {} } }),
      'authorization-only extension on a consent record',
    );
    const { pii_principal_id: _p, ...anonymousLooking } = base;
    assert.throws(() => assertValidReceipt(anonymousLooking), 'an identified record needs pii_principal_id');
    assertValidReceipt({ ...anonymousLooking, anonymous: true });
    assert.throws(() => assertValidReceipt({ ...base, anonymous: true }), 'an anonymous record has no pii_principal_id');
  });

  const version = {
    title: 'Signup',
    description: 'Join us',
    config: {
      locale: 'en',
      policy_url: 'https://x.example/p',
      purposes: [
        { key: 'b', label: 'B', description: 'bee', basis: 'consent' as const, mechanism: 'explicit' as const, required: false },
        { key: 'a', label: 'A', basis: 'contract' as const, mechanism: 'notice' as const, required: true },
      ],
    },
  };

  it('hashes the notice over canonical deep-sorted JSON, purposes sorted by name, whatever the flow order', () => {
    assert.deepEqual(noticeDocument(version), {
      locale: 'en',
      title: 'Signup',
      description: 'Join us',
      policy_url: 'https://x.example/p',
      purposes: [
        { name: 'a', label: 'A', description: null, mechanism: 'notice', required: true },
        { name: 'b', label: 'B', description: 'bee', mechanism: 'explicit', required: false },
      ],
    });
    const expected = createHashHex(
      '{"description":"Join us","locale":"en","policy_url":"https://x.example/p","purposes":[{"description":null,"label":"A","mechanism":"notice","name":"a","required":true},{"description":"bee","label":"B","mechanism":"explicit","name":"b","required":false}],"title":"Signup"}',
    );
    assert.equal(noticeHash(version), expected);
    const reversed = { ...version, config: { ...version.config, purposes: [...version.config.purposes].reverse() } };
    assert.equal(noticeHash(reversed), expected);
    const relabelled = {
      ...version,
      config: { ...version.config, purposes: version.config.purposes.map((p) => (p.key === 'a' ? { ...p, label: 'A!' } : p)) },
    };
    assert.notEqual(noticeHash(relabelled), expected);
  });

  it('refuses the dpv flavor for an authorization record without personal-data processing (Errors rule 11)', () => {
    const authorization = {
      schema_version: 'svc-cr/2.13',
      conforms_to: 'ISO/IEC TS 27560:2023',
      record_id: 'ar_1',
      record_type: 'authorization_record',
      pii_principal_id: 'prs_1',
      party_identification: [
        { party_id: 'prs_1', party_name: 'Ada', party_role: 'principal' },
        { party_id: 'agent_1', party_name: 'Helper', party_role: 'agent', party_type: 'software_agent' },
      ],
      authority: { withdrawal_method: 'https://svc.example/revoke/ar_1', scope_bounds: { scopes: ['calendar:read'] } },
      event: [{ event_time: '2026-01-01T00:00:00Z', entity_id: 'prs_1', event_type: 'explicit', event_state: 'authority granted' }],
    } as const;
    assertValidReceipt(authorization);
    assert.throws(
      () => toDpv(authorization as unknown as ReceiptRecord),
      (err: unknown) => err instanceof DpvNotApplicableError && err.code === 'dpv_not_applicable',
    );
    const withProcessing = {
      ...authorization,
      pii_processing: {
        language: 'en',
        jurisdiction: 'unspecified',
        purposes: [{ purpose_id: 'calendar', purpose: 'Reading your calendar', lawful_basis: 'consent' }],
      },
    };
    assertValidReceipt(withProcessing);
    const doc = toDpv(withProcessing as unknown as ReceiptRecord);
    assert.equal(doc['@type'], 'dpv:Record');
    assert.equal((doc['dpv:hasPurpose'] as unknown[]).length, 1);
  });

  it("uses only terms DPV 2.3 defines: every dpv: term the flavor's modules name, in any branch, and every declared term", () => {
    for (const module of ['./dpv.ts', '../vocab/dpv-context.ts']) {
      const source = readFileSync(new URL(module, import.meta.url), 'utf8');
      assert.ok(dpvTermsIn(source).length > 0, `${module} names dpv: terms`);
      assert.deepEqual(notInDpv23(source), [], `${module} names terms DPV 2.3 does not define`);
    }
    assert.deepEqual(
      DPV_TERMS.filter((term) => !DPV_2_3.has(term)),
      [],
    );
  });

  it('signs detached: the payload segment is empty and the header names the key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const signature = await signJcs({ b: 1, a: 2 }, privateKey as CryptoKey, 'k1');
    const [header, payload] = signature.split('.');
    assert.equal(payload, '');
    assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'ES256', kid: 'k1' });
  });

  it('validated every receipt the suite produced against the published schema', () => {
    assert.ok(receiptsValidated() > 10, `${receiptsValidated()} receipts validated`);
  });
});
