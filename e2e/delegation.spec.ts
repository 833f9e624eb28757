// Delegated authority end to end, in Chromium against the reference server: a person signs in at an organisation's
// site through the service's hosted pages; the organisation registers an agent (its own OAuth client with the
// token-exchange grant, and an agent identity linked to it); the person grants the agent bounded authority with
// their access token; the agent (Node, as a server-side agent runs, with @svc/client) exchanges the grant, acts
// within bounds, is escalated above the value bound and waits; the person approves in <svc-decision> on the
// organisation's page, seeing who asks, for how much and why; the agent's action then passes exactly once; the
// grant's signed authorization receipt verifies offline and lists the bounds and the authority exercised; the
// person revokes the grant while the agent runs, and the agent's next call is refused.
import {
  createClient,
  exchangeDelegationGrant,
  SvcAuthenticationError,
  SvcEscalationOutcomeError,
  SvcHttpError,
  verifyReceipt,
  type AuthorityCheckRequest,
  type SvcClient,
} from '@svc/client';
import type { Page } from '@playwright/test';
import { expect, problems, test, type SeenEvent, type SignedInPerson, type TravelSite } from './delegation.fixtures.js';
import { confirmByCode, type Service } from './fixtures.js';

interface Agent {
  id: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** The organisation registers an agent with its API token: an OAuth client that may exchange grants, and an identity linked to it. */
async function registerAgent(svc: Service, name: string): Promise<Agent> {
  const client = await svc.api<{ oauth_client: { client_id: string; client_secret: string; grant_types: string[] } }>(
    `/api/v1/applications/${svc.server.sandbox.application_id}/oauth_clients`,
    {
      json: {
        oauth_client: {
          name: `${name} runtime`,
          client_type: 'confidential',
          redirect_uris: ['https://agent.example/cb'],
          grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        },
      },
    },
  );
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  expect(client.body.oauth_client.grant_types).toEqual(['urn:ietf:params:oauth:grant-type:token-exchange']);
  const org = createClient({ baseUrl: svc.server.url, apiToken: svc.server.sandbox.api_token });
  const identity = await org.agentIdentities.create({
    display_name: name,
    agent_type: 'autonomous',
    oauth_application_id: client.body.oauth_client.client_id,
    metadata: { operator_name: 'Travel planner Ltd', capabilities: ['book_travel', 'pay'] },
  });
  expect(identity.id).toMatch(/^agt_/);
  return { id: identity.id, clientId: client.body.oauth_client.client_id, clientSecret: client.body.oauth_client.client_secret, name };
}

/** The person signs in at the organisation's site through the hosted pages: email, the sandbox code shown, consent. */
async function signIn(page: Page, travel: TravelSite, email: string): Promise<SignedInPerson> {
  await page.goto(travel.url('/'));
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: `Sign in to continue to ${travel.clientName}` })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  const code = (await page.locator('svc-oauth-page .sandbox code').textContent())!;
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: `Allow ${travel.clientName} to act for you?` })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  // Back at the site, whose backend exchanged the code and verified the ID token.
  await expect(page.locator('#who')).toHaveText(`Signed in as ${email}`);
  expect(new URL(page.url()).origin).toBe(travel.origin);
  const person = travel.signedIn()!;
  expect(person.email).toBe(email);
  expect(person.personId).toMatch(/^prs_/);
  return person;
}

/** The person grants the agent payments up to 100 EUR each, in DE and FR, five actions a day, escalation allowed. */
async function grantPayments(svc: Service, person: SignedInPerson, agent: Agent) {
  const asPerson = createClient({ baseUrl: svc.server.url, accessToken: person.accessToken });
  const grant = await asPerson.delegations.create({
    delegate_id: agent.id,
    delegation_grant: {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write', 'bookings:read'],
      max_actions_per_day: 5,
      bounds: {
        actions: ['read', 'write'],
        value: { max_per_transaction: 100, currency: 'EUR' },
        escalation: { allowed: true },
        jurisdiction: { allowed: ['DE', 'FR'] },
      },
    },
  });
  expect(grant).toMatchObject({ status: 'active', principal_id: person.personId, delegate_id: agent.id, delegate_type: 'agent' });
  return { asPerson, grant };
}

/** The agent runtime: holds its OAuth client's credentials, exchanges the grant, acts with the agent token. */
async function startAgent(svc: Service, agent: Agent, grantId: string): Promise<SvcClient> {
  const exchanged = await exchangeDelegationGrant({
    baseUrl: svc.server.url,
    delegationGrantId: grantId,
    clientId: agent.clientId,
    clientSecret: agent.clientSecret,
  });
  expect(exchanged.access_token).toMatch(/^ra_agent_/);
  expect(exchanged.scope).toBe('bookings:read payments:write');
  return createClient({ baseUrl: svc.server.url, agentToken: exchanged.access_token });
}

const types = (events: SeenEvent[]) => events.map((e) => e.type);

/** The approval page's policy violations (its securitypolicyviolation listener). */
const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? null);

const withinBounds: AuthorityCheckRequest = {
  scope: 'payments:write',
  action: 'write',
  value: 40,
  currency: 'EUR',
  jurisdiction: 'DE',
  description: 'Pay the hotel in Berlin',
};
const aboveValue: AuthorityCheckRequest = {
  scope: 'payments:write',
  action: 'write',
  value: 240,
  currency: 'EUR',
  jurisdiction: 'FR',
  description: 'Pay the flight to Paris',
};

test.describe('delegated authority, end to end in the browser', () => {
  test('sign in, grant an agent, escalate above the value bound, approve in <svc-decision>, verify the receipt, revoke mid-run', async ({
    page,
    svc,
    travel,
    events,
  }) => {
    // The agent waits at the service's pace (its Retry-After), so this test takes longer than most.
    test.setTimeout(60_000);
    const seen = problems(page);

    // 1. The person signs in at the organisation's site, through the service's hosted pages.
    const person = await signIn(page, travel, 'ada.delegates@example.com');
    expect(await violations(page)).toEqual([]);

    // 2. The organisation registers its agent.
    const agent = await registerAgent(svc, 'Trip booker');

    // 3. The person grants the agent bounded authority with their own access token.
    const { asPerson, grant } = await grantPayments(svc, person, agent);

    // 4. The agent exchanges the grant, acts within bounds, and is escalated above the value bound.
    const runtime = await startAgent(svc, agent, grant.id);
    const allowed = await runtime.authority.check(withinBounds);
    expect(allowed.outcome).toBe('allowed');
    if (allowed.outcome !== 'allowed') return;
    expect(allowed.check.remaining_today).toBe(4);

    const escalated = await runtime.authority.check(aboveValue);
    expect(escalated.outcome).toBe('escalated');
    if (escalated.outcome !== 'escalated') return;
    expect(escalated.check.bound).toBe('value');
    expect(escalated.retryAfter).toBeGreaterThan(0);
    const escalation = escalated.escalation;
    expect(escalation.id).toMatch(/^esc_/);
    expect(escalation).toMatchObject({ status: 'pending', trigger: 'value', delegation_grant_id: grant.id, principal_id: person.personId });
    expect(escalation.decision, 'the agent never sees the decision it could approve itself').toBeUndefined();
    // The agent waits for its principal, as it would in production: polling at the service's Retry-After.
    const outcome = runtime.escalations.waitFor(escalation.id, { outcome: 'approved' });

    // The organisation sees the escalation with its decision (API token); the person sees it too (access token).
    const asOrg = await svc.api<{ escalation: { decision: { session_token: string; url: string } | null; principal_id: string } }>(
      `/api/v1/oap/escalations/${escalation.id}`,
    );
    expect(asOrg.status).toBe(200);
    expect(asOrg.body.escalation.decision?.session_token).toMatch(/^dts_/);
    expect((await asPerson.escalations.list({ status: 'pending' }).page()).items.map((e) => e.id)).toContain(escalation.id);

    // 5. The person approves in <svc-decision> on the organisation's page, seeing who asks, for how much, and why.
    await page.goto(travel.approvalPage(escalation.id));
    await expect(page.getByRole('heading', { level: 1, name: 'Your agent asks for your approval' })).toBeVisible();
    const frame = page.frameLocator('svc-decision iframe');
    await expect(frame.getByRole('heading', { level: 1, name: 'Approval requested' })).toBeVisible();
    const answer = (term: string) => frame.locator('dl > dt').getByText(term, { exact: true }).locator('xpath=following-sibling::dd[1]');
    await expect(answer('Asked by')).toHaveText(`${agent.name} (an AI agent acting for you)`);
    await expect(answer('Action')).toHaveText('Pay the flight to Paris (write)');
    await expect(answer('Amount')).toHaveText('240 EUR');
    await expect(answer('Where')).toHaveText('FR');
    await expect(answer('Why you are asked')).toHaveText("Value 240 EUR is above the grant's value bound of 100 EUR per transaction.");
    await expect(answer('Reference')).toHaveText(escalation.id);
    await expect.poll(async () => types(await events(page))).toContain('svc-ready');

    // Only Ada may answer: the embed is on the organisation's site, where she is not signed in to the service, so she
    // confirms with the code sent to her address first.
    await expect(frame.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await confirmByCode(frame);
    await frame.getByRole('button', { name: 'Approve' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
    await expect.poll(async () => types(await events(page))).toContain('svc-complete');
    const complete = (await events(page)).find((e) => e.type === 'svc-complete')!;
    expect(complete.target).toBe('svc-decision');
    expect(complete.detail).toMatchObject({ kind: 'approval', outcome: 'approved' });
    // The page believes only what its backend confirmed with the service.
    await expect(page.getByRole('status').filter({ hasText: 'Confirmed' })).toHaveText('Confirmed by the service: approved');
    expect(travel.confirmations.filter((c) => c.escalationId === escalation.id)).toMatchObject([{ status: 200, outcome: 'approved' }]);
    expect(await violations(page)).toEqual([]);

    // 6. The agent learns the outcome by polling, then acts once with the approval; a replay is refused.
    const approved = await outcome;
    expect(approved).toMatchObject({ id: escalation.id, status: 'approved', used_at: null });
    expect(approved.authorization_record_id).toBe(travel.confirmations.find((c) => c.escalationId === escalation.id)!.recordId);
    await expect(runtime.authority.check({ ...aboveValue, value: 999, escalation_id: escalation.id })).rejects.toMatchObject({
      status: 422,
      reason: 'escalation_mismatch',
    });
    const passes = await runtime.authority.check({ ...aboveValue, escalation_id: escalation.id });
    expect(passes.outcome).toBe('allowed');
    expect(passes.outcome === 'allowed' && passes.check.remaining_today).toBe(3);
    const replay = await runtime.authority.check({ ...aboveValue, escalation_id: escalation.id }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(replay).toBeInstanceOf(SvcHttpError);
    expect(replay).toMatchObject({ status: 409, reason: 'escalation_used' });
    expect((await runtime.escalations.get(escalation.id)).used_at).not.toBeNull();

    // 7. The grant's signed authorization receipt verifies offline against the JWKS, with its bounds and what was exercised.
    const signed = await svc.api<Parameters<typeof verifyReceipt>[0]>(
      `/api/v1/authorization_receipts/${grant.authorization_record_id}?flavor=signed`,
    );
    expect(signed.status).toBe(200);
    const jwks = (await (await fetch(`${svc.server.url}/.well-known/jwks.json`)).json()) as Parameters<typeof verifyReceipt>[1];
    const receipt = await verifyReceipt(signed.body, jwks);
    expect(receipt.record_id).toBe(grant.authorization_record_id);
    expect(receipt.record_type).toBe('authorization_record');
    if (receipt.record_type !== 'authorization_record') return;
    expect(receipt.pii_principal_id).toBe(person.personId);
    expect(receipt.party_identification.slice(0, 2).map((p) => [p.party_role, p.party_id])).toEqual([
      ['principal', person.personId],
      ['agent', agent.id],
    ]);
    expect(receipt.authority).toMatchObject({
      scope_bounds: { scopes: ['bookings:read', 'payments:write'] },
      action_bounds: { actions: ['read', 'write'] },
      value_bounds: { max_per_transaction: 100, currency: 'EUR' },
      escalation_bounds: { allowed: true },
      jurisdiction_bounds: { allowed: ['DE', 'FR'] },
      sequence_bounds: { max_actions_per_day: 5 },
    });
    // The action within bounds and the approved one: both exercised the grant's authority, aggregated for the day.
    expect(receipt.event.map((e) => [e.event_state, e.entity_id, (e as { occurrences?: number }).occurrences ?? null])).toEqual([
      ['authority requested', person.personId, null],
      ['authority granted', person.personId, null],
      ['authority exercised', agent.id, 2],
    ]);
    const forged = structuredClone(signed.body) as { receipt: { authority: { value_bounds: { max_per_transaction: number } } } };
    forged.receipt.authority.value_bounds.max_per_transaction = 10_000;
    await expect(verifyReceipt(forged as Parameters<typeof verifyReceipt>[0], jwks)).rejects.toThrow();

    // 8. The agent keeps running; the person revokes the grant; the agent's next call is refused (401).
    const before = await runtime.authority.check({
      scope: 'bookings:read',
      action: 'read',
      value: 0,
      currency: 'EUR',
      jurisdiction: 'DE',
      description: 'Read the hotel booking',
    });
    expect(before.outcome).toBe('allowed');
    const revoked = await asPerson.delegations.revoke(grant.id);
    expect(revoked.status).toBe('revoked');
    const refused = await runtime.authority
      .check({
        scope: 'bookings:read',
        action: 'read',
        value: 0,
        currency: 'EUR',
        jurisdiction: 'FR',
        description: 'Read the flight booking',
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(SvcAuthenticationError);
    expect(refused).toMatchObject({ status: 401 });
    expect((refused as Error).message).toMatch(/revoked/);
    // The agent cannot get a new token for the grant either, and the receipt now ends with the revocation.
    await expect(startAgent(svc, agent, grant.id)).rejects.toMatchObject({ name: 'SvcOAuthError', status: 400, reason: 'invalid_request' });
    const after = await verifyReceipt(
      (await svc.api<Parameters<typeof verifyReceipt>[0]>(`/api/v1/authorization_receipts/${grant.authorization_record_id}?flavor=signed`))
        .body,
      jwks,
    );
    expect(after.event.map((e) => [e.event_state, (e as { occurrences?: number }).occurrences ?? null])).toEqual([
      ['authority requested', null],
      ['authority granted', null],
      ['authority exercised', 3],
      ['authority revoked', null],
    ]);

    expect(seen).toEqual([]);
  });

  test("a denial in <svc-decision> ends the agent's wait with the outcome, and the action never passes", async ({
    page,
    svc,
    travel,
    events,
  }) => {
    test.setTimeout(60_000);
    const seen = problems(page);
    const person = await signIn(page, travel, 'grace.delegates@example.com');
    const agent = await registerAgent(svc, 'Shopping agent');
    const { grant } = await grantPayments(svc, person, agent);
    const runtime = await startAgent(svc, agent, grant.id);
    const escalated = await runtime.authority.check({ ...aboveValue, description: 'Buy a new laptop' });
    expect(escalated.outcome).toBe('escalated');
    if (escalated.outcome !== 'escalated') return;
    const wait = runtime.escalations.waitFor(escalated.escalation.id, { outcome: 'approved' }).then(
      () => null,
      (error: unknown) => error,
    );

    await page.goto(travel.approvalPage(escalated.escalation.id));
    const frame = page.frameLocator('svc-decision iframe');
    await expect(frame.locator('dl > dt').getByText('Action', { exact: true }).locator('xpath=following-sibling::dd[1]')).toHaveText(
      'Buy a new laptop (write)',
    );
    await confirmByCode(frame);
    await frame.getByRole('button', { name: 'Deny' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Denied' })).toBeVisible();
    await expect.poll(async () => types(await events(page))).toContain('svc-complete');
    await expect(page.getByRole('status').filter({ hasText: 'Confirmed' })).toHaveText('Confirmed by the service: denied');

    const ended = await wait;
    expect(ended).toBeInstanceOf(SvcEscalationOutcomeError);
    expect((ended as SvcEscalationOutcomeError).escalation.status).toBe('denied');
    await expect(
      runtime.authority.check({ ...aboveValue, description: 'Buy a new laptop', escalation_id: escalated.escalation.id }),
    ).rejects.toMatchObject({ status: 409, reason: 'escalation_not_approved' });
    expect(await violations(page)).toEqual([]);
    expect(seen).toEqual([]);
  });
});
