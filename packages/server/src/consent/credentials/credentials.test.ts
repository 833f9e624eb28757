// Credentials of fulfilled consents (SD-JWT VC) issued by a country cell, presented with chosen disclosures and
// verified in another cell against the issuing cell's published key; revocation through the status list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { credentialClaims, disclosableClaims, presentCredential } from '@svc/client/credentials';
import { credentialIssuerMetadata, presentationEnvelope, type Credential, type PresentationVerification } from '@svc/schemas';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, createLocalJWKSet } from 'jose';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';
import { STATUS_LIST_TTL_SECONDS } from './status-list.js';
import { clearStatusListCache } from './verify.js';
import { fulfilledConsent, issue, verify } from './test-support.js';

async function verified(server: TestServer, body: Record<string, unknown>): Promise<PresentationVerification> {
  const res = await verify(server, body);
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return presentationEnvelope.parse(json).presentation;
}

async function refused(
  server: TestServer,
  body: Record<string, unknown>,
  status: number,
  code: string,
): Promise<{ message: string; code: string }> {
  const res = await verify(server, body);
  const json = (await res.json()) as { message: string; code: string };
  assert.equal(res.status, status, JSON.stringify(json));
  assert.equal(json.code, code, JSON.stringify(json));
  assert.ok(json.message.length > 0);
  return json;
}

/** Changes one character of `text` at `index` (to another base64url character). */
function flip(text: string, index: number): string {
  const ch = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + ch + text.slice(index + 1);
}

describe('credentials and presentations across country cells', () => {
  let cells: TestCells;
  let de: TestServer;
  let us: TestServer;
  let ctxn: string;
  let credential: Credential;

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    de = cells.cells.DE!;
    us = cells.cells.US!;
    ctxn = await fulfilledConsent(us, 'ada@example.com');
    credential = await issue(us, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential', validity_days: 30 });
  });
  after(() => cells.dispose());

  it("issues an SD-JWT VC of a fulfilled consent, signed with the issuing cell's key", async () => {
    assert.match(credential.id, /^cred_us_[0-9A-Za-z]{20}$/);
    assert.equal(credential.format, 'dc+sd-jwt');
    assert.equal(credential.status, 'active');
    assert.equal(credential.home_country, 'US');
    assert.equal(credential.credential_type, 'ConsentCredential');
    assert.equal(credential.consent_transaction_id, ctxn);
    assert.deepEqual(credential.purposes, ['newsletter']);
    assert.equal(credential.holder_bound, false);
    assert.equal(Date.parse(credential.expires_at) - Date.parse(credential.issued_at), 30 * 86_400_000);
    assert.ok(credential.status_list.uri.startsWith(`${us.url}/.well-known/credential-status/`));

    const [jwt] = credential.credential.split('~');
    const header = decodeProtectedHeader(jwt!);
    assert.equal(header.typ, 'dc+sd-jwt');
    assert.equal(header.alg, 'ES256');
    assert.equal(header.kid, us.context.keys.kid);
    const jwks = await (await fetch(`${us.url}/.well-known/jwks.json`)).json();
    const { payload } = await jwtVerify(jwt!, createLocalJWKSet(jwks), { typ: 'dc+sd-jwt' });
    assert.equal(payload.iss, us.url);
    assert.equal(payload.vct, 'ConsentCredential');
    assert.equal(payload.home_country, 'US');
    assert.deepEqual(payload.status, { status_list: { idx: credential.status_list.idx, uri: credential.status_list.uri } });
    // Nothing about the person or the consent is readable without its disclosure.
    const signed = JSON.stringify(payload);
    for (const secret of ['ada@example.com', 'newsletter', ctxn, credential.id, credential.application_id])
      assert.ok(!signed.includes(secret), secret);

    // The holder sees every claim; each is disclosable on its own.
    const claims = await credentialClaims(credential.credential);
    assert.equal(claims.email, 'ada@example.com');
    assert.deepEqual(claims.purposes, { newsletter: true });
    assert.equal(claims.jti, credential.id);
    assert.deepEqual((await disclosableClaims(credential.credential)).sort(), [
      'application_id',
      'consent_transaction_id',
      'consented_at',
      'email',
      'flow_id',
      'jti',
      'purposes.newsletter',
    ]);
  });

  it('reads, lists and filters the credentials of the cell', async () => {
    const got = await us.api(`/api/v1/credentials/${credential.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(((await got.json()) as { credential: Credential }).credential, credential);
    const second = await issue(us, { consent_transaction_id: ctxn, credential_type: 'https://example.com/vct/newsletter' });
    const page1 = (await (await us.api('/api/v1/credentials?limit=1')).json()) as { credentials: Credential[]; next_cursor: string | null };
    assert.deepEqual(
      page1.credentials.map((c) => c.id),
      [credential.id],
    );
    assert.ok(page1.next_cursor);
    const page2 = (await (await us.api(`/api/v1/credentials?limit=1&cursor=${page1.next_cursor}`)).json()) as {
      credentials: Credential[];
      next_cursor: string | null;
    };
    assert.deepEqual(
      page2.credentials.map((c) => c.id),
      [second.id],
    );
    const byTxn = (await (await us.api(`/api/v1/credentials?consent_transaction_id=${ctxn}&status=active`)).json()) as {
      credentials: Credential[];
    };
    assert.equal(byTxn.credentials.length, 2);
    // The US cell holds none of DE's credentials, and names DE as their home.
    assert.deepEqual(((await (await de.api('/api/v1/credentials')).json()) as { credentials: Credential[] }).credentials, []);
    const misdirected = await de.api(`/api/v1/credentials/${credential.id}`);
    assert.equal(misdirected.status, 421);
    assert.equal(((await misdirected.json()) as { home_country: string }).home_country, 'US');
  });

  it("a presentation with one claim disclosed verifies in the other cell, against the issuing cell's key", async () => {
    const presentation = await presentCredential(credential.credential, { disclose: ['purposes.newsletter'] });
    const result = await verified(de, { presentation });
    assert.equal(result.valid, true);
    assert.equal(result.revoked, false);
    assert.equal(result.issuer_country, 'US');
    assert.equal(result.issuer, us.url);
    assert.equal(result.credential_type, 'ConsentCredential');
    assert.equal(result.credential_id, undefined, 'the credential id was not disclosed');
    assert.deepEqual(result.disclosed_claims, { home_country: 'US', purposes: { newsletter: true } });
    assert.equal(result.undisclosed_count, 6);
    assert.equal(result.key_bound, false);
    assert.equal(result.expires_at, credential.expires_at);

    // Disclosing the id and the email too.
    const more = await verified(de, { presentation: await presentCredential(credential.credential, { disclose: ['jti', 'email'] }) });
    assert.equal(more.credential_id, credential.id);
    assert.deepEqual(more.disclosed_claims, { home_country: 'US', email: 'ada@example.com', purposes: {} });
    assert.equal(more.undisclosed_count, 5);

    // The issuing cell verifies it too (same key, no transfer).
    assert.equal((await verified(us, { presentation })).valid, true);
  });

  it('records each cross-border presentation in the transfer register (from the issuing to the verifying country), and no domestic one', () => {
    type Row = { category: string; from_country: string; to_country: string; lawful_basis: string; adequacy: string };
    const rows = de.context.db
      .prepare(
        "SELECT category, from_country, to_country, lawful_basis, adequacy FROM transfers WHERE category = 'credential_presentation'",
      )
      .all() as Row[];
    // Two cross-border verifications so far (the domestic one recorded nothing).
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.deepEqual(row, {
        category: 'credential_presentation',
        from_country: 'US',
        to_country: 'DE',
        lawful_basis: 'gdpr_art45_adequacy_decision',
        adequacy: 'adequacy_decision',
      });
    }
  });

  it('refuses a tampered presentation with 422 and a code, never a 500', async () => {
    const presentation = await presentCredential(credential.credential, { disclose: ['purposes.newsletter', 'email'] });
    const [jwt, ...disclosures] = presentation.split('~');
    const [h, p, s] = jwt!.split('.') as [string, string, string];
    // A changed signature.
    await refused(de, { presentation: [`${h}.${p}.${flip(s, 10)}`, ...disclosures].join('~') }, 422, 'invalid_signature');
    // A changed payload (another country claimed).
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(jwt!), home_country: 'DE' })).toString('base64url');
    await refused(de, { presentation: [`${h}.${forged}.${s}`, ...disclosures].join('~') }, 422, 'invalid_signature');
    // A changed disclosure: another email.
    const emailIndex = disclosures.findIndex((d) => d && Buffer.from(d, 'base64url').toString().includes('ada@example.com'));
    const swapped = Buffer.from(
      Buffer.from(disclosures[emailIndex]!, 'base64url').toString().replace('ada@example.com', 'eve@example.com'),
    ).toString('base64url');
    const altered = [...disclosures];
    altered[emailIndex] = swapped;
    await refused(de, { presentation: [jwt, ...altered].join('~') }, 422, 'disclosure_not_referenced');
    // A disclosure added that the issuer never signed (a purpose the person did not grant).
    const extra = Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0c2FsdA', 'marketing', true])).toString('base64url');
    await refused(de, { presentation: [jwt, extra, ...disclosures].join('~') }, 422, 'disclosure_not_referenced');
    // The same disclosure twice.
    await refused(de, { presentation: [jwt, disclosures[0], ...disclosures].join('~') }, 422, 'duplicate_disclosure');
    // Not an SD-JWT at all, and garbage.
    await refused(de, { presentation: jwt! }, 422, 'malformed_presentation');
    await refused(de, { presentation: 'not.a.jwt~' }, 422, 'malformed_presentation');
    await refused(de, { presentation: `${jwt}~%%%~` }, 422, 'malformed_presentation');
    const empty = await verify(de, {});
    assert.equal(empty.status, 422);
  });

  it('refuses a credential whose issuer is no cell of the service (422 unknown_issuer)', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const { SDJwtVcInstance } = await import('@sd-jwt/sd-jwt-vc');
    const { hasher, saltGenerator, es256Signer } = await import('./crypto.js');
    const rogue = new SDJwtVcInstance({ hasher, hashAlg: 'sha-256', saltGenerator, signer: es256Signer(privateKey), signAlg: 'ES256' });
    const now = Math.floor(de.context.clock.now() / 1000);
    const sdJwt = await rogue.issue(
      {
        iss: 'https://issuer.example',
        iat: now,
        exp: now + 3600,
        vct: 'ConsentCredential',
        home_country: 'FR',
        purposes: { newsletter: true },
      },
      { purposes: { _sd: ['newsletter'] } } as never,
      { header: { kid: 'rogue' } },
    );
    await refused(de, { presentation: sdJwt }, 422, 'unknown_issuer');
    // Claiming a real cell's URL as iss does not help: the rogue key is not that cell's.
    const impostor = await rogue.issue(
      { iss: us.url, iat: now, exp: now + 3600, vct: 'ConsentCredential', home_country: 'US' },
      undefined,
      { header: { kid: us.context.keys.kid } },
    );
    await refused(de, { presentation: impostor }, 422, 'invalid_signature');
  });

  it('publishes the status list token and the issuer metadata', async () => {
    const res = await fetch(credential.status_list.uri);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/statuslist+jwt');
    assert.equal(res.headers.get('cache-control'), `public, max-age=${STATUS_LIST_TTL_SECONDS}`);
    const token = await res.text();
    const jwks = await (await fetch(`${us.url}/.well-known/jwks.json`)).json();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      typ: 'statuslist+jwt',
      subject: credential.status_list.uri,
    });
    assert.equal(protectedHeader.kid, us.context.keys.kid);
    assert.equal(payload.ttl, STATUS_LIST_TTL_SECONDS);
    assert.equal((payload.status_list as { bits: number }).bits, 1);
    assert.equal((await fetch(`${us.url}/.well-known/credential-status/sl_us_nosuchlist`)).status, 404);

    const meta = credentialIssuerMetadata.parse(await (await fetch(`${us.url}/.well-known/openid-credential-issuer`)).json());
    assert.equal(meta.credential_issuer, us.url);
    assert.equal(meta.credential_configurations_supported.consent_credential_sd_jwt?.format, 'dc+sd-jwt');
    const usMeta = credentialIssuerMetadata.parse(await (await fetch(`${de.url}/.well-known/openid-credential-issuer`)).json());
    assert.equal(usMeta.credential_issuer, de.url);
  });

  it('a revocation shows in the other cell only once its cached status list expires', async () => {
    clearStatusListCache(de.context); // the list is fetched now, and cached from now
    const own = await issue(us, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential' });
    const presentation = await presentCredential(own.credential, { disclose: ['purposes.newsletter'] });
    const first = await verified(de, { presentation });
    assert.equal(first.revoked, false);

    const revoke = await us.api(`/api/v1/credentials/${own.id}/revoke`, { method: 'POST' });
    const revokedBody = (await revoke.json()) as { credential: Credential };
    assert.equal(revoke.status, 200, JSON.stringify(revokedBody));
    assert.equal(revokedBody.credential.status, 'revoked');
    assert.ok(revokedBody.credential.revoked_at);
    // Again: unchanged.
    const again = (await (await us.api(`/api/v1/credentials/${own.id}/revoke`, { method: 'POST' })).json()) as { credential: Credential };
    assert.equal(again.credential.revoked_at, revokedBody.credential.revoked_at);

    // The US cell still answers from its cached list...
    const cached = await verified(de, { presentation });
    assert.equal(cached.valid, true);
    assert.equal(cached.revoked, false);
    assert.equal(cached.status_checked_at, first.status_checked_at);
    de.advance(STATUS_LIST_TTL_SECONDS - 30);
    assert.equal((await verified(de, { presentation })).revoked, false);
    de.advance(60);
    const refreshed = await verified(de, { presentation });
    assert.equal(refreshed.valid, false);
    assert.equal(refreshed.revoked, true);
    assert.ok(Date.parse(refreshed.status_checked_at) > Date.parse(first.status_checked_at));
    // The other credential of the same list is unaffected.
    assert.equal((await verified(de, { presentation: await presentCredential(credential.credential, { disclose: [] }) })).revoked, false);
    const listed = (await (await us.api('/api/v1/credentials?status=revoked')).json()) as { credentials: Credential[] };
    assert.deepEqual(
      listed.credentials.map((c) => c.id),
      [own.id],
    );
  });

  it('a consent transaction of another cell is a 421 naming its home; unknown or unfulfilled ones are 422', async () => {
    const res = await de.api('/api/v1/credentials', {
      method: 'POST',
      json: { consent_transaction_id: ctxn, credential_type: 'ConsentCredential' },
    });
    const body = (await res.json()) as { code: string; home_country: string };
    assert.equal(res.status, 421, JSON.stringify(body));
    assert.equal(body.code, 'wrong_country');
    assert.equal(body.home_country, 'US');
    assert.deepEqual(Object.keys(body).sort(), ['code', 'home_country', 'message']);

    const unknown = await us.api('/api/v1/credentials', {
      method: 'POST',
      json: { consent_transaction_id: 'ctxn_us_nosuchtransaction0', credential_type: 'ConsentCredential' },
    });
    assert.equal(unknown.status, 422);
    assert.equal(((await unknown.json()) as { code: string }).code, 'consent_transaction_not_found');
    for (const bad of [
      { consent_transaction_id: ctxn },
      { consent_transaction_id: ctxn, credential_type: 'has spaces' },
      { consent_transaction_id: ctxn, credential_type: 'X', validity_days: 0 },
      { consent_transaction_id: ctxn, credential_type: 'X', validity_days: 366 },
      { consent_transaction_id: ctxn, credential_type: 'X', extra: 1 },
    ]) {
      const r = await us.api('/api/v1/credentials', { method: 'POST', json: bad });
      assert.equal(r.status, 422, JSON.stringify(bad));
    }
  });

  it('withdrawing the consent revokes its credentials, and no new one is issued', async () => {
    const withdrawnTxn = await fulfilledConsent(us, 'bob@example.com');
    const before = await issue(us, { consent_transaction_id: withdrawnTxn, credential_type: 'ConsentCredential' });
    assert.equal(before.status, 'active');
    const decision = us.context.db.prepare('SELECT id FROM decisions WHERE consent_transaction_id = ?').pluck().get(withdrawnTxn) as string;
    const recordId = us.context.db
      .prepare('SELECT id FROM consent_records WHERE idempotency_key = ?')
      .pluck()
      .get(`decision:${decision}`) as string;
    const withdraw = await us.api(`/api/v1/consent_records/${recordId}/withdraw`, { method: 'POST', json: {} });
    assert.equal(withdraw.status, 200, await withdraw.text());
    const res = await us.api('/api/v1/credentials', {
      method: 'POST',
      json: { consent_transaction_id: withdrawnTxn, credential_type: 'ConsentCredential' },
    });
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { code: string }).code, 'consent_not_fulfilled');
    const after = ((await (await us.api(`/api/v1/credentials/${before.id}`)).json()) as { credential: Credential }).credential;
    assert.equal(after.status, 'revoked');
    const token = await (await fetch(after.status_list.uri)).text();
    const { StatusList } = await import('@sd-jwt/jwt-status-list');
    const { status_list } = decodeJwt(token) as { status_list: { lst: string } };
    assert.equal(StatusList.decompressStatusList(status_list.lst, 1).getStatus(after.status_list.idx), 1);
  });

  it("a holder-bound credential needs a key binding JWT over the verifier's nonce and audience", async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(publicKey);
    const bound = await issue(us, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential', holder_jwk: { kty, crv, x, y } });
    assert.equal(bound.holder_bound, true);
    const now = Math.floor(de.context.clock.now() / 1000);
    const keyBinding = { privateKey, nonce: 'n-0S6_WzA2Mj', audience: de.url, issuedAt: now };
    const presentation = await presentCredential(bound.credential, { disclose: ['purposes.newsletter'], keyBinding });
    const ok = await verified(de, { presentation, nonce: keyBinding.nonce });
    assert.equal(ok.valid, true);
    assert.equal(ok.key_bound, true);

    await refused(de, { presentation }, 422, 'nonce_required');
    await refused(de, { presentation, nonce: 'another-nonce' }, 422, 'invalid_key_binding');
    await refused(de, { presentation, nonce: keyBinding.nonce, audience: 'https://verifier.example' }, 422, 'invalid_key_binding');
    const withoutKb = await presentCredential(bound.credential, { disclose: ['purposes.newsletter'] });
    await refused(de, { presentation: withoutKb, nonce: keyBinding.nonce }, 422, 'key_binding_required');
    // Someone else's key.
    const other = await generateKeyPair('ES256');
    const stolen = await presentCredential(bound.credential, { disclose: [], keyBinding: { ...keyBinding, privateKey: other.privateKey } });
    await refused(de, { presentation: stolen, nonce: keyBinding.nonce }, 422, 'invalid_key_binding');
    // A stale one.
    const stale = await presentCredential(bound.credential, { disclose: [], keyBinding: { ...keyBinding, issuedAt: now - 3600 } });
    await refused(de, { presentation: stale, nonce: keyBinding.nonce }, 422, 'invalid_key_binding');
    // A private key is never a holder key.
    const jwk = await exportJWK(privateKey);
    const leak = await us.api('/api/v1/credentials', {
      method: 'POST',
      json: { consent_transaction_id: ctxn, credential_type: 'X', holder_jwk: jwk },
    });
    assert.equal(leak.status, 422);
  });

  it('an expired credential is refused', async () => {
    const short = await issue(us, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential', validity_days: 1 });
    const presentation = await presentCredential(short.credential, { disclose: [] });
    assert.equal((await verified(de, { presentation })).valid, true);
    de.advance(86_400 + 60);
    await refused(de, { presentation }, 422, 'credential_expired');
    const read = (await (await us.api(`/api/v1/credentials/${short.id}`)).json()) as { credential: Credential };
    assert.equal(read.credential.status, 'expired');
  });
});
