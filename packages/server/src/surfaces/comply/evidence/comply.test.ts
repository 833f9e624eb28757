// The transfer register, the residency posture and their evidence packages over HTTP, against two country cells:
// register entries carry no personal data and page like every list; each country counts only what is homed there;
// every package verifies offline with the answering cell's JWKS alone and fails when any one character changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SvcEvidenceVerificationError, verifyEvidencePackage } from '@svc/client';
import type { JSONWebKeySet } from 'jose';
import { createActiveFlow, createRecord, grantAll } from '../../../consent/records/test-support.js';
import { startTestCells, type TestCells, type TestServer } from '../../../testing.js';
import { adequacyOf, lawfulBasisFor, recordTransfer } from '../transfers/register.js';
import { call, jwksOf, newToken } from './test-support.js';

type Json = Record<string, any>;

let cells: TestCells;
let us: TestServer;
let de: TestServer;

before(async () => {
  cells = await startTestCells(['US', 'DE']);
  us = cells.cells.US!;
  de = cells.cells.DE!;
});
after(() => cells.dispose());

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Asserts the package fails to verify when any one character of its header, payload or signature changes. */
async function assertEveryCharacterMatters(evidence: Json, jwks: JSONWebKeySet): Promise<void> {
  const jws = evidence.package as string;
  let tried = 0;
  for (let i = 0; i < jws.length; i += 1) {
    if (jws[i] === '.') continue;
    const other = ALPHABET[(ALPHABET.indexOf(jws[i]!) + 1 + (i % 63)) % 64]!;
    const changed = `${jws.slice(0, i)}${other}${jws.slice(i + 1)}`;
    await assert.rejects(
      verifyEvidencePackage({ ...evidence, package: changed }, jwks),
      SvcEvidenceVerificationError,
      `character ${i} changed`,
    );
    tried += 1;
  }
  assert.equal(tried, jws.length - 2);
}

const ENTRY_KEYS = ['adequacy', 'application_id', 'category', 'created_at', 'from_country', 'id', 'lawful_basis', 'to_country'];

describe('adequacy', () => {
  it('names the verdict of a route', () => {
    assert.equal(adequacyOf('DE', 'de'), 'not_a_transfer');
    assert.equal(adequacyOf('DE', 'FR'), 'intra_eea');
    assert.equal(adequacyOf('NO', 'DE'), 'intra_eea');
    assert.equal(adequacyOf('DE', 'US'), 'adequacy_decision');
    assert.equal(adequacyOf('US', 'DE'), 'adequacy_decision');
    assert.equal(adequacyOf('FR', 'JP'), 'adequacy_decision');
    assert.equal(adequacyOf('DE', 'IN'), 'standard_contractual_clauses');
    assert.equal(adequacyOf('IN', 'DE'), 'none');
    assert.equal(adequacyOf('US', 'IN'), 'none');
    assert.equal(lawfulBasisFor('adequacy_decision'), 'gdpr_art45_adequacy_decision');
    assert.equal(lawfulBasisFor('standard_contractual_clauses'), 'gdpr_art46_standard_contractual_clauses');
  });
});

describe('transfer register', () => {
  let secondApp: string;

  before(async () => {
    const app = await call(us, '/api/v1/applications', { json: { application: { name: 'Second shop' } } });
    assert.equal(app.status, 201, JSON.stringify(app.body));
    secondApp = app.body.application.id;
    const route = (application_id: string, category: string, from: string, to: string) => {
      const adequacy = adequacyOf(from, to);
      recordTransfer(us.context, {
        application_id,
        category,
        from_country: from,
        to_country: to,
        lawful_basis: lawfulBasisFor(adequacy),
        adequacy,
      });
    };
    route(us.sandbox.application_id, 'consent_proof', 'DE', 'US');
    route(us.sandbox.application_id, 'signature_evidence', 'US', 'DE');
    route(secondApp, 'consent_proof', 'DE', 'IN');
    route(us.sandbox.application_id, 'consent_proof', 'DE', 'US');
    route(us.sandbox.application_id, 'consent_proof', 'US', 'US'); // no transfer: nothing recorded
  });

  it('lists every transfer of the account with basis and verdict, the same in every cell, and no personal data', async () => {
    for (const cell of [us, de]) {
      const res = await call(cell, '/api/v1/transfer_register?limit=100');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const transfers = res.body.transfers as Json[];
      assert.equal(transfers.length, 4, `in ${cell.context.country}`);
      assert.equal(res.body.next_cursor, null);
      for (const t of transfers) {
        assert.deepEqual(Object.keys(t).sort(), ENTRY_KEYS);
        assert.match(t.id, /^trf_/);
      }
      assert.deepEqual(
        transfers.map((t) => [t.category, t.from_country, t.to_country, t.adequacy, t.lawful_basis]),
        [
          ['consent_proof', 'DE', 'US', 'adequacy_decision', 'gdpr_art45_adequacy_decision'],
          ['signature_evidence', 'US', 'DE', 'adequacy_decision', 'gdpr_art45_adequacy_decision'],
          ['consent_proof', 'DE', 'IN', 'standard_contractual_clauses', 'gdpr_art46_standard_contractual_clauses'],
          ['consent_proof', 'DE', 'US', 'adequacy_decision', 'gdpr_art45_adequacy_decision'],
        ],
      );
      const text = JSON.stringify(res.body);
      assert.ok(!text.includes('@') && !/prs_|person|email|subject/.test(text), 'no personal data');
    }
  });

  it('pages with next_cursor and filters by application', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(us, `/api/v1/transfer_register?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      seen.push(...(res.body.transfers as Json[]).map((t) => t.id as string));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    assert.equal(pages, 2);
    assert.equal(new Set(seen).size, 4);
    const only = await call(us, `/api/v1/transfer_register?application_id=${secondApp}`);
    assert.deepEqual(
      (only.body.transfers as Json[]).map((t) => t.application_id),
      [secondApp],
    );
    const none = await call(us, '/api/v1/transfer_register?application_id=tp_dev_nosuchapp');
    assert.deepEqual(none.body, { transfers: [], next_cursor: null });
  });

  it('refuses bad queries with 400 and a message, and recordTransfer refuses malformed countries', async () => {
    for (const query of ['limit=0', 'limit=abc', 'cursor=not-a-cursor', 'limit=101']) {
      const res = await call(us, `/api/v1/transfer_register?${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
    }
    assert.throws(
      () =>
        recordTransfer(us.context, {
          application_id: us.sandbox.application_id,
          category: 'x',
          from_country: 'Germany',
          to_country: 'US',
          lawful_basis: 'x',
          adequacy: 'x',
        }),
      TypeError,
    );
  });

  it("does not show another account's transfers", async () => {
    const now = new Date().toISOString();
    const db = us.context.db;
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_comply_other', 'Other', ?)").run(now);
    db.prepare(
      "INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES ('tp_dev_complyother1', 'acct_comply_other', 'Other', 'development', ?, ?)",
    ).run(now, now);
    recordTransfer(us.context, {
      application_id: 'tp_dev_complyother1',
      category: 'consent_proof',
      from_country: 'DE',
      to_country: 'US',
      lawful_basis: 'x',
      adequacy: 'adequacy_decision',
    });
    const res = await call(us, '/api/v1/transfer_register?limit=100');
    assert.equal((res.body.transfers as Json[]).length, 4);
    const filtered = await call(us, '/api/v1/transfer_register?application_id=tp_dev_complyother1');
    assert.deepEqual(filtered.body.transfers, []);
  });

  it('draws a signed evidence package that verifies offline with the JWKS alone and fails when one character changes', async () => {
    const res = await call(us, '/api/v1/transfer_register/evidence_package', { method: 'POST' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['evidence_package_id', 'format_type', 'package']);
    assert.equal(res.body.format_type, 'svc.transfer_register.v1');
    assert.match(res.body.evidence_package_id, /^evp_us_/);
    const jwks = await jwksOf(us);
    const verified = await verifyEvidencePackage(res.body, jwks, { formatType: 'svc.transfer_register.v1' });
    assert.equal(verified.kid, us.context.keys.kid);
    const payload = verified.payload as Json;
    assert.equal(payload.evidence_package_id, res.body.evidence_package_id);
    assert.equal(payload.country, 'US');
    assert.ok(Date.parse(payload.drawn_at) > 0);
    assert.equal(payload.transfer_register.total, 4);
    assert.equal(payload.transfer_register.entries_complete, true);
    assert.deepEqual(payload.transfer_register.routes.map((r: Json) => [r.category, r.from_country, r.to_country, r.count]).sort(), [
      ['consent_proof', 'DE', 'IN', 1],
      ['consent_proof', 'DE', 'US', 2],
      ['signature_evidence', 'US', 'DE', 1],
    ]);
    // The audit chain heads it was drawn against: the account's applications in this cell.
    assert.equal(payload.audit_anchor.country, 'US');
    assert.ok((payload.audit_anchor.chains as Json[]).some((c) => c.application_id === us.sandbox.application_id));
    for (const c of payload.audit_anchor.chains as Json[])
      assert.deepEqual(Object.keys(c).sort(), [
        'anchor_id',
        'anchor_merkle_root',
        'anchored_through',
        'application_id',
        'head_hash',
        'sequence',
      ]);

    await assertEveryCharacterMatters(res.body, jwks);
    // Another cell's keys do not verify it; nor does a package whose envelope names another id.
    await assert.rejects(verifyEvidencePackage(res.body, await jwksOf(de)), (err: SvcEvidenceVerificationError) => err.check === 'key');
    await assert.rejects(
      verifyEvidencePackage({ ...res.body, evidence_package_id: 'evp_us_other' }, jwks),
      (err: SvcEvidenceVerificationError) => err.check === 'invalid',
    );
    await assert.rejects(
      verifyEvidencePackage(res.body, jwks, { formatType: 'svc.residency_posture.v1' }),
      (err: SvcEvidenceVerificationError) => err.check === 'invalid',
    );
    await assert.rejects(
      verifyEvidencePackage({ package: 'not a jws' }, jwks),
      (err: SvcEvidenceVerificationError) => err.check === 'format',
    );

    // Kept: read back as answered from the cell that drew it, 421 with the home country from another.
    const again = await call(us, `/api/v1/evidence_packages/${res.body.evidence_package_id}`);
    assert.deepEqual(again.body, res.body);
    const elsewhere = await call(de, `/api/v1/evidence_packages/${res.body.evidence_package_id}`);
    assert.equal(elsewhere.status, 421);
    assert.equal(elsewhere.body.home_country, 'US');
    assert.equal((await call(us, '/api/v1/evidence_packages/evp_us_nosuchpackage')).status, 404);

    const one = await call(us, '/api/v1/transfer_register/evidence_package', { json: { application_id: secondApp } });
    assert.equal(one.status, 201);
    const onePayload = (await verifyEvidencePackage(one.body, jwks)).payload as Json;
    assert.equal(onePayload.transfer_register.total, 1);
    assert.equal(onePayload.transfer_register.application_id, secondApp);
  });

  it('refuses bad evidence requests with 4xx and a message', async () => {
    const unknown = await call(us, '/api/v1/transfer_register/evidence_package', { json: { application: 'x' } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].code, 'unknown_field');
    const malformed = await call(us, '/api/v1/transfer_register/evidence_package', {
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    const array = await call(us, '/api/v1/residency_posture/evidence_package', { json: [1] });
    assert.equal(array.status, 422);
    assert.ok(array.body.message);
  });
});

describe('residency posture', () => {
  it("counts each country's subjects and records where they are homed, and verifies every country", async () => {
    const flowId = await createActiveFlow(de);
    const record = await createRecord(de, { flow_id: flowId, subject: { email: 'grete@example.de', country: 'DE' }, decisions: grantAll });
    assert.match(record.id, /^cr_de_/);
    for (const cell of [us, de]) {
      const res = await call(cell, '/api/v1/residency_posture');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const posture = res.body.residency_posture as Json;
      assert.ok(Date.parse(posture.drawn_at) > 0);
      assert.equal(posture.assurance, 'verified');
      const byCountry = Object.fromEntries((posture.countries as Json[]).map((c) => [c.country, c]));
      assert.deepEqual(Object.keys(byCountry), ['US', 'DE']);
      assert.deepEqual(byCountry.DE.storage_locations, ['DE']);
      assert.equal(byCountry.DE.subjects, 1);
      assert.equal(byCountry.DE.consent_records, 1);
      assert.equal(byCountry.DE.receipts, 1);
      assert.equal(byCountry.DE.assurance, 'verified');
      assert.equal(byCountry.DE.rows_homed_elsewhere, 0);
      assert.equal(byCountry.US.subjects, 1, "the sandbox's console admin, a person of the sandbox account");
      assert.equal(byCountry.US.consent_records, 0);
      assert.equal(byCountry.US.assurance, 'verified');
      assert.ok(!JSON.stringify(res.body).includes('grete'), 'counts only');
    }
  });

  it('asks for attention where a row homed in another country is stored', async () => {
    const db = us.context.db;
    const now = new Date().toISOString();
    const accountId = db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(us.sandbox.application_id) as string;
    db.prepare('INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(
      'prs_de_strayAAAAAAAAAAA',
      accountId,
      'stray@example.de',
      now,
    );
    try {
      const res = await call(us, '/api/v1/residency_posture');
      const posture = res.body.residency_posture as Json;
      assert.equal(posture.assurance, 'attention');
      const usPosture = (posture.countries as Json[]).find((c) => c.country === 'US')!;
      assert.equal(usPosture.assurance, 'attention');
      assert.equal(usPosture.rows_homed_elsewhere, 1);
      assert.equal(usPosture.subjects, 2, 'the stray row and the console admin');
    } finally {
      db.prepare("DELETE FROM persons WHERE id = 'prs_de_strayAAAAAAAAAAA'").run();
    }
  });

  it("draws a signed proof of residency with every country's chain heads, verifiable offline", async () => {
    const res = await call(de, '/api/v1/residency_posture/evidence_package', { method: 'POST' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.format_type, 'svc.residency_posture.v1');
    assert.match(res.body.evidence_package_id, /^evp_de_/);
    const jwks = await jwksOf(de);
    const verified = await verifyEvidencePackage(res.body, jwks, { formatType: 'svc.residency_posture.v1' });
    assert.equal(verified.kid, de.context.keys.kid);
    const payload = verified.payload as Json;
    assert.equal(payload.country, 'DE');
    assert.equal(payload.drawn_at, payload.residency_posture.drawn_at);
    assert.deepEqual(
      (payload.residency_posture.countries as Json[]).map((c) => [c.country, c.consent_records, c.assurance]),
      [
        ['US', 0, 'verified'],
        ['DE', 1, 'verified'],
      ],
    );
    assert.deepEqual(
      (payload.audit_anchors as Json[]).map((a) => a.country),
      ['US', 'DE'],
    );
    const deChains = (payload.audit_anchors as Json[])[1]!.chains as Json[];
    assert.ok(
      deChains.some((c) => c.sequence > 0 && /^[0-9a-f]{64}$/.test(c.head_hash)),
      "the DE chain holds the record's event",
    );
    await assertEveryCharacterMatters(res.body, jwks);
    const withBody = await call(de, '/api/v1/residency_posture/evidence_package', { json: {} });
    assert.equal(withBody.status, 201);
  });
});

describe('who may call', () => {
  it('admits read tokens, refuses publishable keys and people', async () => {
    const { token: read } = await newToken(us, ['read']);
    for (const [method, path] of [
      ['GET', '/api/v1/transfer_register'],
      ['GET', '/api/v1/residency_posture'],
      ['POST', '/api/v1/transfer_register/evidence_package'],
      ['POST', '/api/v1/residency_posture/evidence_package'],
    ] as const) {
      const ok = await call(us, path, { method, headers: { authorization: `Bearer ${read}` } });
      assert.equal(ok.status, method === 'GET' ? 200 : 201, `${method} ${path}: ${JSON.stringify(ok.body)}`);
      const pk = await call(us, path, { method, headers: { 'x-publishable-key': us.sandbox.publishable_key } });
      assert.equal(pk.status, 403, `${method} ${path}`);
      assert.equal(pk.body.code, 'publishable_key_not_allowed');
      const none = await fetch(`${us.url}${path}`, { method });
      assert.equal(none.status, 401);
    }
  });
});
