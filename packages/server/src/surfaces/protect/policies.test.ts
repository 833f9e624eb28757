// Policy templates and policies over HTTP: the static catalogue with each config's JSON Schema; a person's own
// policies and the account's; config validated against the template; revocation once; who sees and revokes what.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { policyEnvelope, policyList, policyTemplateList, POLICY_TEMPLATE_IDS } from '@svc/schemas';
import type { TestServer } from '../../testing.js';
import { expect, otherAccount, policy, refusal, startWithPeople, type Person } from './test-support.js';

describe('protect: policy templates and policies', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let reader: string;
  before(async () => {
    ({ server, ada, bob, reader } = await startWithPeople());
  });
  after(() => server.dispose());

  it('lists the template catalogue, paginated, each with the JSON Schema of its config', async () => {
    const all = policyTemplateList.parse(await expect(server, 200, '/api/v1/policy_templates'));
    assert.deepEqual(
      all.policy_templates.map((t) => t.id),
      [...POLICY_TEMPLATE_IDS],
    );
    assert.equal(all.next_cursor, null);
    const deals = all.policy_templates.filter((t) => t.deal).map((t) => t.id);
    assert.deepEqual(deals, ['data_license', 'data_offer', 'bounty', 'broadcast']);
    const retention = all.policy_templates.find((t) => t.id === 'retention')!;
    assert.equal(retention.config_schema.type, 'object');
    assert.deepEqual((retention.config_schema.required as string[]).sort(), ['data_categories', 'retention_days']);
    assert.equal(retention.config_schema.additionalProperties, false);

    const first = policyTemplateList.parse(await expect(server, 200, '/api/v1/policy_templates?limit=4'));
    assert.equal(first.policy_templates.length, 4);
    assert.ok(first.next_cursor);
    const second = policyTemplateList.parse(await expect(server, 200, `/api/v1/policy_templates?limit=4&cursor=${first.next_cursor}`));
    assert.deepEqual(
      second.policy_templates.map((t) => t.id),
      ['retention', 'portability'],
    );
    assert.equal(second.next_cursor, null);

    const one = await expect(server, 200, '/api/v1/policy_templates/portability', { token: ada.token });
    assert.equal(one.policy_template.id, 'portability');
    await refusal(server, 404, 'not_found', '/api/v1/policy_templates/nope');
  });

  it("makes a person's policy with their token and an account policy with an API token, defaults filled in", async () => {
    const mine = await policy(server, ada.token, { template_id: 'portability', config: { data_categories: ['contact', 'orders'] } });
    policyEnvelope.parse({ policy: mine });
    assert.match(mine.id, /^pol_us_[A-Za-z0-9]{20}$/);
    assert.deepEqual(
      [mine.owner_type, mine.person_id, mine.status, mine.deal, mine.home_country, mine.title],
      ['person', ada.id, 'active', false, 'US', 'Portability policy'],
    );
    assert.deepEqual(mine.config, { data_categories: ['contact', 'orders'], formats: ['json'] });
    assert.equal(mine.accepted_at, null);
    assert.equal(mine.acceptance, null);

    const res = await server.api('/api/v1/policies', {
      method: 'POST',
      json: { template_id: 'retention', title: 'Keep orders 10 years', config: { data_categories: ['orders'], retention_days: 3650 } },
    });
    assert.equal(res.status, 201);
    const account = policyEnvelope.parse(await res.json()).policy;
    assert.equal(res.headers.get('location'), `/api/v1/policies/${account.id}`);
    assert.deepEqual(
      [account.owner_type, account.person_id, account.title, account.config.action],
      ['account', null, 'Keep orders 10 years', 'delete'],
    );
  });

  it('refuses a config that does not meet the template, naming each path under config.', async () => {
    const body = await refusal(server, 422, 'invalid_config', '/api/v1/policies', {
      json: {
        template_id: 'bounty',
        config: { data_categories: ['Not A Category'], reward: { amount: -1, currency: 'eur' }, extra: true },
      },
    });
    const paths = (body.errors as { path: string }[]).map((e) => e.path).sort();
    assert.deepEqual(paths, ['config.data_categories.0', 'config.extra', 'config.reward.amount', 'config.reward.currency']);
    await refusal(server, 422, 'invalid_config', '/api/v1/policies', { json: { template_id: 'retention' } });
    await refusal(server, 422, 'validation_failed', '/api/v1/policies', { json: { template_id: 'unknown', config: {} } });
  });

  it('lists with pagination and filters; a person sees only their own, the organisation every policy of the account', async () => {
    for (let i = 0; i < 3; i += 1) await policy(server, ada.token, { template_id: 'data_offer', config: { data_categories: ['steps'] } });
    await policy(server, bob.token, { template_id: 'data_offer', config: { data_categories: ['sleep'] } });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = policyList.parse(
        await expect(server, 200, `/api/v1/policies?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: ada.token }),
      );
      assert.ok(page.policies.length <= 2);
      seen.push(...page.policies.map((p) => p.id));
      assert.ok(page.policies.every((p) => p.person_id === ada.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 4);
    assert.equal(new Set(seen).size, 4);

    const org = policyList.parse(await expect(server, 200, '/api/v1/policies?limit=100', { token: reader }));
    assert.equal(org.policies.length, 6);
    const accountOnly = policyList.parse(await expect(server, 200, '/api/v1/policies?owner_type=account'));
    assert.deepEqual(
      accountOnly.policies.map((p) => p.template_id),
      ['retention'],
    );
    const offers = policyList.parse(await expect(server, 200, '/api/v1/policies?template_id=data_offer&owner_type=person'));
    assert.equal(offers.policies.length, 4);

    const bobs = policyList.parse(await expect(server, 200, '/api/v1/policies', { token: bob.token })).policies;
    assert.equal(bobs.length, 1);
    await refusal(server, 404, 'not_found', `/api/v1/policies/${seen[0]}`, { token: bob.token });
    await expect(server, 200, `/api/v1/policies/${seen[0]}`, { token: reader });
  });

  it("revokes once: a person's policy only by the person, an account policy by a write token", async () => {
    const mine = await policy(server, ada.token, {
      template_id: 'broadcast',
      config: { data_categories: ['steps'], message: 'Open to research' },
    });
    await refusal(server, 403, 'policy_owner_only', `/api/v1/policies/${mine.id}/revoke`, { method: 'POST' });
    await refusal(server, 404, 'not_found', `/api/v1/policies/${mine.id}/revoke`, { token: bob.token, method: 'POST' });
    const revoked = await expect(server, 200, `/api/v1/policies/${mine.id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(revoked.policy.status, 'revoked');
    assert.ok(revoked.policy.revoked_at);
    const again = await refusal(server, 409, 'illegal_transition', `/api/v1/policies/${mine.id}/revoke`, {
      token: ada.token,
      method: 'POST',
    });
    assert.match(again.message, /from revoked to revoked/);
    assert.deepEqual(
      policyList.parse(await expect(server, 200, '/api/v1/policies?status=revoked', { token: ada.token })).policies.map((p) => p.id),
      [mine.id],
    );

    const account = await policy(server, undefined, {
      template_id: 'retention',
      config: { data_categories: ['logs'], retention_days: 30, action: 'anonymise' },
    });
    await refusal(server, 403, 'insufficient_permissions', `/api/v1/policies/${account.id}/revoke`, { token: reader, method: 'POST' });
    await refusal(server, 404, 'not_found', `/api/v1/policies/${account.id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal((await expect(server, 200, `/api/v1/policies/${account.id}/revoke`, { method: 'POST' })).policy.status, 'revoked');
  });

  it("refuses a read token's writes, a publishable key and another account's token (404)", async () => {
    await refusal(server, 403, 'insufficient_permissions', '/api/v1/policies', {
      token: reader,
      json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } },
    });
    const pk = await server.api('/api/v1/policies', { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
    assert.equal(((await pk.json()) as { code: string }).code, 'publishable_key_not_allowed');
    const mine = await policy(server, ada.token, { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } });
    const other = otherAccount(server);
    await refusal(server, 404, 'not_found', `/api/v1/policies/${mine.id}`, { token: other.token });
    assert.deepEqual((await expect(server, 200, '/api/v1/policies', { token: other.token })).policies, []);
  });
});
