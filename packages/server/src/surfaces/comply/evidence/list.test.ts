// `GET /api/v1/evidence_packages`: the packages an account drew in this cell, newest first, paged like every list, each
// a summary (never the package, which GET …/{id} answers as drawn); another account sees none of them, and only API
// tokens holding `read` may list (a publishable key, a person's token and no credential are refused).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { personAccessToken } from '../../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../../testing.js';
import { expect, otherAccount } from '../test-support.js';
import { call, newToken } from './test-support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SUMMARY_KEYS = ['created_at', 'format_type', 'id', 'kid', 'payload_sha256'];

describe('GET /api/v1/evidence_packages', () => {
  let server: TestServer;
  /** The packages drawn, oldest first. */
  const drawn: Json[] = [];

  before(async () => {
    server = await startTestServer();
    for (const path of ['transfer_register', 'residency_posture', 'transfer_register']) {
      const res = await call(server, `/api/v1/${path}/evidence_package`, { method: 'POST' });
      assert.equal(res.status, 201, res.text);
      drawn.push(res.body);
      server.advance(60);
    }
  });
  after(() => server.dispose());

  it('lists every package drawn, newest first, as summaries whose digest is the signed payload', async () => {
    const body = await expect(server, '/api/v1/evidence_packages', 200);
    assert.equal(body.next_cursor, null);
    const listed = body.evidence_packages as Json[];
    assert.deepEqual(
      listed.map((p) => [p.id, p.format_type]),
      [...drawn].reverse().map((p) => [p.evidence_package_id, p.format_type]),
    );
    for (const summary of listed) {
      assert.deepEqual(Object.keys(summary).sort(), SUMMARY_KEYS);
      assert.equal(summary.kid, server.context.keys.kid);
      const jws = drawn.find((p) => p.evidence_package_id === summary.id)!.package as string;
      const payload = Buffer.from(jws.split('.')[1]!, 'base64url');
      assert.equal(summary.payload_sha256, createHash('sha256').update(payload).digest('hex'));
      assert.equal(summary.created_at, JSON.parse(payload.toString('utf8')).drawn_at);
    }
    assert.ok(Date.parse(listed[0]!.created_at) > Date.parse(listed[2]!.created_at));
    assert.ok(!JSON.stringify(body).includes(drawn[0]!.package), 'never the package itself');
  });

  it('pages with next_cursor, never skipping or repeating, and refuses a cursor it did not make', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Json = await expect(server, `/api/v1/evidence_packages?limit=2${cursor ? `&cursor=${cursor}` : ''}`, 200);
      seen.push(...(page.evidence_packages as Json[]).map((p) => p.id as string));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 5);
    assert.equal(pages, 2);
    assert.deepEqual(
      seen,
      [...drawn].reverse().map((p) => p.evidence_package_id),
    );
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor'])
      await expect(server, `/api/v1/evidence_packages?${query}`, 400);
  });

  it("shows another account none of this account's packages, nor this account theirs", async () => {
    const other = otherAccount(server, 'evidence');
    assert.deepEqual(await expect(server, '/api/v1/evidence_packages', 200, { headers: { authorization: `Bearer ${other.token}` } }), {
      evidence_packages: [],
      next_cursor: null,
    });
    const theirs = await call(server, '/api/v1/residency_posture/evidence_package', {
      method: 'POST',
      headers: { authorization: `Bearer ${other.token}` },
    });
    assert.equal(theirs.status, 201, theirs.text);
    const ours = await expect(server, '/api/v1/evidence_packages', 200);
    assert.ok(!(ours.evidence_packages as Json[]).some((p) => p.id === theirs.body.evidence_package_id));
    const again = await expect(server, '/api/v1/evidence_packages', 200, { headers: { authorization: `Bearer ${other.token}` } });
    assert.deepEqual(
      (again.evidence_packages as Json[]).map((p) => p.id),
      [theirs.body.evidence_package_id],
    );
  });

  it('admits a read-only token; refuses a publishable key, a person token and no credential', async () => {
    const { token: viewer } = await newToken(server, ['read', 'audit:verify']);
    const listed = await expect(server, '/api/v1/evidence_packages', 200, { headers: { authorization: `Bearer ${viewer}` } });
    assert.equal((listed.evidence_packages as Json[]).length, drawn.length);
    await expect(server, '/api/v1/evidence_packages', 403, {
      headers: { 'x-publishable-key': server.sandbox.publishable_key },
      code: 'publishable_key_not_allowed',
    });
    const person = await personAccessToken(server, 'ada@example.com');
    await expect(server, '/api/v1/evidence_packages', 403, {
      headers: { authorization: `Bearer ${person}` },
      code: 'person_token_not_allowed',
    });
    assert.equal((await fetch(`${server.url}/api/v1/evidence_packages`)).status, 401);
  });
});
