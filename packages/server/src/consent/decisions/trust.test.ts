// Exact answers of the decisions API to what an attacker sends: an approval naming an escalation that is not the
// caller's, and tokens with control, bidi or astral characters on the deprecated consent_sessions alias.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../../hostile-cases.js';
import { agentToken, check, grant, newAgent, signIn } from '../../authority/delegations/test-support.js';
import { otherAccount } from '../../surfaces/protect/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

describe('exact answers of the decisions API', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ countries: ['US', 'DE'] });
  });
  after(() => server.dispose());

  const decisionCount = () => server.context.db.prepare('SELECT count(*) FROM decisions').pluck().get() as number;

  async function createApproval(
    subjectRef: string,
    token = server.sandbox.api_token,
  ): Promise<{ status: number; body: { code?: string; message?: string; errors?: { path: string; code: string }[] } }> {
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      json: { kind: 'approval', subject_ref: subjectRef, delivery_mode: 'popup' },
    });
    return { status: res.status, body: (await res.json()) as never };
  }

  /** A pending escalation of the sandbox account: an agent asked for more than its grant allows. */
  async function sandboxEscalation(): Promise<string> {
    const agent = await newAgent(server);
    const ada = await signIn(server, 'ada@example.com');
    const g = await grant(server, ada, agent.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { actions: ['write'], value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
    });
    const token = await agentToken(server, g.id, agent);
    const asked = await check(server, token, { scope: 'payments:write', action: 'write', value: 500, currency: 'EUR' });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    return asked.body.authority_check.escalation.id as string;
  }

  it('refuses an approval naming an escalation that does not exist (404 escalation_not_found), creating nothing', async () => {
    const before = decisionCount();
    const { status, body } = await createApproval('esc_us_AAAAAAAAAAAAAAAAAAAA');
    assert.equal(status, 404, JSON.stringify(body));
    assert.equal(body.code, 'escalation_not_found');
    assert.ok(body.message);
    assert.deepEqual(
      body.errors?.map((e) => [e.path, e.code]),
      [['subject_ref', 'escalation_not_found']],
    );
    assert.equal(decisionCount(), before);
    assert.equal((await createApproval('esc_AAAAAAAAAAAAAAAAAAAA')).status, 404, 'an id minted before cells too');
    const elsewhere = await createApproval('esc_de_AAAAAAAAAAAAAAAAAAAA');
    assert.equal(elsewhere.status, 421, "another cell's escalation is asked for there");
    assert.equal((elsewhere.body as { home_country?: string }).home_country, 'DE');
    assert.equal(decisionCount(), before);
  });

  it("refuses another account's escalation with the same 404, so its existence does not leak", async () => {
    const escalationId = await sandboxEscalation();
    const other = otherAccount(server);
    const before = decisionCount();
    const { status, body } = await createApproval(escalationId, other.token);
    assert.equal(status, 404, JSON.stringify(body));
    assert.equal(body.code, 'escalation_not_found');
    assert.equal(decisionCount(), before);
    // The escalation's own account still asks its principal.
    assert.equal((await createApproval(escalationId)).status, 201);
  });

  it('keeps free-form references that are not escalation ids', async () => {
    for (const ref of ['esc_123', 'order-42', 'esc_us_short', `esc_us_${'A'.repeat(21)}`]) {
      const { status, body } = await createApproval(ref);
      assert.equal(status, 201, `${ref}: ${JSON.stringify(body)}`);
    }
  });

  for (const token of ['%00', '%0A', '%E2%80%AE', '%F0%9F%98%80', `dts_%0D%0A${'A'.repeat(39)}`]) {
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['POST', '/exchange', JSON.stringify({ exchange_token: 'A'.repeat(43) })],
      ['POST', '/authorize', JSON.stringify({ subject: { email: 'ada@example.com' } })],
    ] as const) {
      it(`${method} /api/v1/consent_sessions/${token}${suffix} is 404 with the alias's headers`, async () => {
        const res = await rawRequest(
          server.url,
          method,
          `/api/v1/consent_sessions/${token}${suffix}`,
          {
            authorization: `Bearer ${server.sandbox.api_token}`,
            'content-type': 'application/json',
          },
          body,
        );
        assert.equal(res.status, 404, res.text);
        const json = JSON.parse(res.text) as { message: string; code: string };
        assert.ok(json.message && json.code);
        assert.ok(res.headers.deprecation && res.headers.sunset);
        assert.match(String(res.headers.link), new RegExp(`/api/v1/decisions/${token}${suffix}>; rel="successor-version"`));
      });
    }
  }
});
