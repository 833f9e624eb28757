// Type tests, checked by `tsc -b` (never run): each `@ts-expect-error` must meet an error, or the build fails.
import {
  connect,
  createClient,
  createConsentImport,
  createConsentRecord,
  createDecision,
  createWebhookEndpoint,
  getConsentRecord,
  getConsentStatus,
  getDecision,
  getDpvReceipt,
  getJwks,
  getMe,
  getReceipt,
  getSignedReceipt,
  isSvcError,
  listApiTokens,
  listAuditEvents,
  listWebhookDeliveries,
  rotateWebhookEndpointSecret,
  testWebhookEndpoint,
  verifyAuditChain,
  verifyAuditTrail,
  verifyReceipt,
  checkAuthority,
  exchangeDelegationGrant,
  waitForEscalation,
  listInbox,
  type AuthorityCheckResult,
  type SvcClient,
  type SvcPublishableClient,
} from './index.js';

const baseUrl = 'http://127.0.0.1:4010';
declare const unknownError: unknown;

export async function publishableKeyClient(): Promise<void> {
  const browser = createClient({ baseUrl, publishableKey: 'pk_test_abc' });
  browser satisfies SvcPublishableClient;
  await browser.decisions.create({
    kind: 'consent',
    subject_ref: 'flw_dev_1',
    delivery_mode: 'embed',
    embed_origin: 'https://shop.example',
  });

  // @ts-expect-error a publishable key cannot read the calling identity
  await browser.me();
  // @ts-expect-error nor manage API tokens
  browser.apiTokens.list();
  // @ts-expect-error nor applications
  await browser.applications.get('tp_dev_1');
  // @ts-expect-error nor flows
  await browser.flows.list().page();
  // @ts-expect-error nor read a decision
  await browser.decisions.get('dts_1');
  // @ts-expect-error nor exchange one
  await browser.decisions.exchange('dts_1', 'x');
  // @ts-expect-error nor verify consent tokens
  await browser.consentTokens.verify('ct');
  // @ts-expect-error nor move the test clock
  await browser.testClock.advance(60);
}

export async function standaloneFunctions(): Promise<void> {
  const page = connect({ baseUrl, publishableKey: 'pk_test_abc' });
  await createDecision(page, { kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect' });
  // @ts-expect-error a publishable connection is not accepted by server-only functions
  await getMe(page);
  // @ts-expect-error
  await getDecision(page, 'dts_1');
  // @ts-expect-error
  listApiTokens(page);

  const server = connect({ baseUrl, apiToken: 'secret' });
  await getMe(server);
  // The full client is a connection too.
  await getDecision(createClient({ baseUrl, apiToken: 'secret' }), 'dts_1');
}

export function credentials(): void {
  createClient({ baseUrl, apiToken: 'secret' }) satisfies SvcClient;
  createClient({ baseUrl, accessToken: 'at', delegationGrantId: 'dlg_dev_1' }) satisfies SvcClient;
  createClient({ baseUrl, agentToken: 'ra_agent_abc' }) satisfies SvcClient;
  connect({ baseUrl, agentToken: 'ra_agent_abc' }).credential satisfies 'bearer';

  // @ts-expect-error a client takes one credential
  createClient({ baseUrl, apiToken: 'secret', publishableKey: 'pk_test_abc' });
  // @ts-expect-error
  createClient({ baseUrl, apiToken: 'secret', accessToken: 'at' });
  // @ts-expect-error a delegation grant needs a bearer credential
  createClient({ baseUrl, publishableKey: 'pk_test_abc', delegationGrantId: 'dlg_dev_1' });
  // @ts-expect-error a delegate acts with their own access token, never with an API token
  createClient({ baseUrl, apiToken: 'secret', delegationGrantId: 'dlg_dev_1' });
  // @ts-expect-error an agent token names its grant itself
  createClient({ baseUrl, agentToken: 'ra_agent_abc', delegationGrantId: 'dlg_dev_1' });
  // @ts-expect-error an agent token is one credential, not a second one
  createClient({ baseUrl, agentToken: 'ra_agent_abc', accessToken: 'at' });
  // @ts-expect-error no credential at all
  createClient({ baseUrl });
  // @ts-expect-error options are checked
  createClient({ baseUrl, apiToken: 'secret', timeoutMs: '100' });
}

export function countryOptions(): void {
  createClient({
    baseUrl,
    apiToken: 'secret',
    countries: { DE: 'https://de.api.example.com', US: new URL('https://us.api.example.com') },
    discoverCountries: false,
    onMisdirected: ({ from, to, homeCountry, method, path }) => [from, to, method, path].every(Boolean) && homeCountry !== 'FR',
  }) satisfies SvcClient;
  createClient({
    baseUrl,
    publishableKey: 'pk_test_abc',
    onMisdirected: (info) => console.log(info.homeCountry),
  }) satisfies SvcPublishableClient;
  connect({ baseUrl, agentToken: 'ra_agent_abc', countries: {} });

  // @ts-expect-error a country's base URL is a string or a URL
  createClient({ baseUrl, apiToken: 'secret', countries: { DE: 443 } });
  // @ts-expect-error discovery is switched by a boolean
  createClient({ baseUrl, apiToken: 'secret', discoverCountries: 'no' });
  // @ts-expect-error the hook refuses with false, or says nothing
  createClient({ baseUrl, apiToken: 'secret', onMisdirected: () => 'no' });
}

export async function requestShapes(svc: SvcClient): Promise<void> {
  // @ts-expect-error kind is required
  await svc.decisions.create({ subject_ref: 'flw_dev_1', delivery_mode: 'redirect' });
  // @ts-expect-error delivery modes are embed, popup and redirect
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'iframe' });
  // @ts-expect-error the request admits no additional properties
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect', flow_id: 'flw_dev_1' });
  // @ts-expect-error permissions are read, write and admin
  await svc.apiTokens.create({ name: 'x', permissions: ['superuser'] });
  // @ts-expect-error the envelope is the client's job, not the caller's
  await svc.apiTokens.create({ api_token: { name: 'x' } });
  // @ts-expect-error an origin is registered as an object
  await svc.applications.allowedOrigins.create('tp_dev_1', 'https://shop.example');
  // @ts-expect-error purposes need a basis and a mechanism
  await svc.flows.create({ pattern: 'standard', title: 'T', config: { purposes: [{ key: 'k', label: 'L' }] } });
  // @ts-expect-error the environment is part of an application's id and cannot change
  await svc.applications.update('tp_dev_1', { environment: 'production' });
  // @ts-expect-error seconds are a number
  await svc.testClock.advance('60');
  // @ts-expect-error only writes take an idempotency key
  await svc.me({ idempotencyKey: 'k' });
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect' }, { idempotencyKey: 'k' });
}

export async function responseShapes(svc: SvcClient): Promise<void> {
  // Create and rotate return the raw value; a list never does.
  const issued: string = (await svc.apiTokens.create({ name: 'x' })).token;
  const page = await svc.apiTokens.list({ limit: 2 }).page();
  // @ts-expect-error a listed token has no guaranteed value
  const listed: string = page.items[0]!.token;
  // @ts-expect-error items may be missing under noUncheckedIndexedAccess
  const first: string = page.items[0].name;
  for await (const token of svc.apiTokens.list())
    token.permissions satisfies ('read' | 'write' | 'admin' | 'audit:verify' | 'disclosures:write')[];
  void [issued, listed, first];
}

export function errors(): void {
  if (!isSvcError(unknownError)) return;
  switch (unknownError.code) {
    case 'ERR_SVC_RATE_LIMIT':
      unknownError.retryAfter satisfies number | undefined;
      break;
    case 'ERR_SVC_VALIDATION':
      unknownError.errors satisfies readonly { path: string; code: string; message: string }[];
      // @ts-expect-error only a rate limit error carries retryAfter
      void unknownError.retryAfter;
      break;
    case 'ERR_SVC_WRONG_COUNTRY':
      // A wrong-country error always names the home country, and says why it was not (again) re-issued.
      unknownError.homeCountry satisfies string;
      unknownError.refusal satisfies 'second_hop' | 'unknown_country' | 'discovery_failed' | 'refused';
      unknownError.to satisfies string | undefined;
      break;
    // @ts-expect-error codes are a closed set
    case 'ERR_SVC_TEAPOT':
      break;
  }
}

// ---- Consent records, receipts, consent status, audit trail, webhook endpoints --------------------------------

export async function publishableKeyClientCannotReachRecordsOrWebhooks(): Promise<void> {
  const browser = createClient({ baseUrl, publishableKey: 'pk_test_abc' });
  // @ts-expect-error a publishable key cannot record consent
  await browser.consentRecords.create({ flow_id: 'flw_dev_1', subject: { email: 'ada@example.com' }, decisions: {} });
  // @ts-expect-error nor withdraw it
  await browser.consentRecords.withdraw('cr_1');
  // @ts-expect-error nor import records
  await browser.consentRecords.imports.create({ flow_id: 'flw_dev_1', records: [] });
  // @ts-expect-error nor read receipts
  await browser.receipts.getSigned('cr_1');
  // @ts-expect-error nor a person's consent status
  await browser.consentStatus.get('tp_dev_1', { subject: { email: 'ada@example.com' } });
  // @ts-expect-error nor the audit trail
  await browser.audit.verify();
  // @ts-expect-error
  browser.audit.events();
  // @ts-expect-error nor webhook endpoints
  await browser.webhookEndpoints.create('tp_dev_1', { url: 'https://hooks.example', events: ['*'] });
  // @ts-expect-error
  browser.webhookEndpoints.deliveries('tp_dev_1', 'we_1');

  const page = connect({ baseUrl, publishableKey: 'pk_test_abc' });
  // @ts-expect-error the standalone functions refuse a publishable connection too
  await createConsentRecord(page, { flow_id: 'flw_dev_1', subject: { email: 'ada@example.com' }, decisions: {} });
  // @ts-expect-error
  await getConsentRecord(page, 'cr_1');
  // @ts-expect-error
  await createConsentImport(page, { flow_id: 'flw_dev_1', records: [] });
  // @ts-expect-error
  await getSignedReceipt(page, 'cr_1');
  // @ts-expect-error
  await getReceipt(page, 'cr_1');
  // @ts-expect-error
  await getDpvReceipt(page, 'cr_1');
  // @ts-expect-error
  await getConsentStatus(page, 'tp_dev_1', { person_id: 'per_1' });
  // @ts-expect-error
  listAuditEvents(page);
  // @ts-expect-error
  await verifyAuditTrail(page);
  // @ts-expect-error
  await createWebhookEndpoint(page, 'tp_dev_1', { url: 'https://hooks.example', events: ['*'] });
  // @ts-expect-error
  await rotateWebhookEndpointSecret(page, 'tp_dev_1', 'we_1');
  // @ts-expect-error
  await testWebhookEndpoint(page, 'tp_dev_1', 'we_1');
  // @ts-expect-error
  listWebhookDeliveries(page, 'tp_dev_1', 'we_1');
  // The service's public keys are public: any connection reads them.
  await getJwks(page);
}

export async function recordRequestShapes(svc: SvcClient): Promise<void> {
  const subject = { email: 'ada@example.com' };
  await svc.consentRecords.create(
    { flow_id: 'flw_dev_1', subject, decisions: { newsletter: { decision: 'granted', default_checked: false } } },
    { idempotencyKey: 'k' },
  );
  // @ts-expect-error the person is named by email
  await svc.consentRecords.create({ flow_id: 'flw_dev_1', subject: { external_id: 'crm-1' }, decisions: {} });
  // @ts-expect-error a decision is granted or declined
  await svc.consentRecords.create({ flow_id: 'flw_dev_1', subject, decisions: { newsletter: { decision: 'maybe' } } });
  // @ts-expect-error the Record API admits no additional properties
  await svc.consentRecords.create({ flow_id: 'flw_dev_1', subject, decisions: {}, channel: 'hosted' });
  // @ts-expect-error the platform sets newer_record itself; a caller names where the withdrawal was made
  await svc.consentRecords.withdraw('cr_1', { event_channel: 'newer_record' });
  // @ts-expect-error purposes are listed by key
  await svc.consentRecords.withdraw('cr_1', { purposes: 'newsletter' });
  // @ts-expect-error an imported row needs the time it was captured
  await svc.consentRecords.imports.create({ flow_id: 'flw_dev_1', records: [{ subject, decisions: {} }] });

  await svc.consentStatus.get('tp_dev_1', { subject: { external_id: 'crm-1' }, flow_id: 'flw_dev_1' });
  await svc.consentStatus.get('tp_dev_1', { person_id: 'per_1' });
  // @ts-expect-error one way of naming the person, not two
  await svc.consentStatus.get('tp_dev_1', { subject: { email: 'ada@example.com', external_id: 'crm-1' } });
  // @ts-expect-error
  await svc.consentStatus.get('tp_dev_1', { subject: { email: 'ada@example.com' }, person_id: 'per_1' });
  // @ts-expect-error and not none
  await svc.consentStatus.get('tp_dev_1', { flow_id: 'flw_dev_1' });

  // @ts-expect-error event types are a closed set (or '*')
  await svc.webhookEndpoints.create('tp_dev_1', { url: 'https://hooks.example', events: ['consent.everything'] });
  // @ts-expect-error the envelope is the client's job
  await svc.webhookEndpoints.create('tp_dev_1', { webhook_endpoint: { url: 'https://hooks.example', events: ['*'] } });
  // @ts-expect-error status is enabled or disabled
  await svc.webhookEndpoints.update('tp_dev_1', 'we_1', { status: 'paused' });
  // @ts-expect-error deliveries are pending, acknowledged or failed
  svc.webhookEndpoints.deliveries('tp_dev_1', 'we_1', { status: 'lost' });
  // @ts-expect-error page sizes are numbers
  svc.audit.events({ limit: '10' });
  // @ts-expect-error reads take no idempotency key
  await svc.receipts.get('cr_1', { idempotencyKey: 'k' });
}

export async function recordResponseShapes(svc: SvcClient): Promise<void> {
  // The secret comes with create and rotation only.
  const created: string = (await svc.webhookEndpoints.create('tp_dev_1', { url: 'https://hooks.example', events: ['*'] })).secret;
  const rotated: string = (await svc.webhookEndpoints.rotateSecret('tp_dev_1', 'we_1')).secret;
  // @ts-expect-error a read endpoint has no guaranteed secret
  const read: string = (await svc.webhookEndpoints.get('tp_dev_1', 'we_1')).secret;
  void [created, rotated, read];

  // A signed receipt and the JWKS feed verifyReceipt as they are; the audit trail feeds verifyAuditChain.
  const receipt = await verifyReceipt(await svc.receipts.getSigned('cr_1'), await svc.receipts.jwks());
  receipt.schema_version satisfies 'svc-cr/2.13';
  const trail = await svc.audit.trail({ applicationId: 'tp_dev_1' });
  await verifyAuditChain(trail.events, trail.anchors, trail.keys);
  const verdict = await svc.audit.verify({ requireWitness: true });
  if (verdict.ok) verdict.anchored_through satisfies number | null;
  // @ts-expect-error a failed verdict says nothing of how far the trail is anchored
  else void verdict.anchored_through;

  const status = await svc.consentStatus.get('tp_dev_1', { subject: { email: 'ada@example.com' } });
  status.overall_status satisfies 'granted' | 'partial' | 'declined' | 'pending';
  const record = await svc.consentRecords.get('cr_1');
  record.status satisfies 'fulfilled' | 'revoked' | 'expired';
  for await (const delivery of svc.webhookEndpoints.deliveries('tp_dev_1', 'we_1', { status: 'failed' }))
    delivery.attempts satisfies unknown[];
  for await (const event of svc.audit.events({ application_id: 'tp_dev_1', limit: 1000 })) event.hash satisfies string;
}

export async function accessTokenProvider(): Promise<void> {
  const svc = createClient({ baseUrl, getAccessToken: async ({ signal }) => (signal.aborted ? '' : 'at_1') });
  svc satisfies SvcClient;
  await svc.me();
  createClient({ baseUrl, getAccessToken: () => 'at_1', delegationGrantId: 'dlg_dev_1' }) satisfies SvcClient;
  // @ts-expect-error a provider and a fixed token are one credential too many
  createClient({ baseUrl, getAccessToken: () => 'at_1', accessToken: 'at_1' });
  // @ts-expect-error a provider returns the token as a string
  createClient({ baseUrl, getAccessToken: () => 42 });
}

// ---- Delegated authority ----------------------------------------------------------------------------------------

export async function delegatedAuthority(person: SvcClient): Promise<void> {
  const grant = await person.delegations.create({
    delegate_id: 'agt_dev_1',
    delegation_grant: {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { value: { max_per_transaction: 100, currency: 'EUR' } },
    },
  });
  grant.status satisfies 'active' | 'suspended' | 'revoked' | 'expired';
  // @ts-expect-error the envelope is the client's job
  await person.delegations.create({ delegation_grant: { delegate_id: 'agt_dev_1', delegation_type: 'ai_agent' } });
  // @ts-expect-error delegation types are a closed set
  await person.delegations.create({ delegate_id: 'prs_2', delegation_grant: { delegation_type: 'butler' } });
  // @ts-expect-error roles are principal or delegate
  person.delegations.list({ role: 'owner' });

  const token = await exchangeDelegationGrant({
    baseUrl,
    clientId: 'oc_1',
    clientSecret: 's',
    delegationGrantId: grant.id,
    authMethod: 'client_secret_post',
  });
  await exchangeDelegationGrant({
    baseUrl,
    clientId: 'oc_1',
    clientSecret: 's',
    delegationGrantId: grant.id,
    // @ts-expect-error the client authenticates with a secret, by basic or post only
    authMethod: 'private_key_jwt',
  });
  await person.delegations.exchange(grant.id, { clientId: 'oc_1', clientSecret: 's', scope: ['payments:write'] });

  const agent = createClient({ baseUrl, agentToken: token.access_token });
  const request = { scope: 'payments:write', action: 'write', value: 240, currency: 'EUR', description: 'Pay' } as const;
  const result: AuthorityCheckResult = await agent.authority.check(request);
  switch (result.outcome) {
    case 'allowed':
      result.check.remaining_today satisfies number | null | undefined;
      // @ts-expect-error only an escalated check carries an escalation
      void result.escalation;
      break;
    case 'escalated': {
      const approved = await agent.escalations.waitFor(result.escalation.id, { outcome: 'approved', timeoutMs: 60_000 });
      await agent.authority.check({ ...request, escalation_id: approved.id });
      break;
    }
    case 'denied':
      result.bound satisfies 'scope' | 'action' | 'value' | 'time' | 'escalation' | 'reputation' | 'jurisdiction' | 'sequence';
      // @ts-expect-error a denial has no check
      void result.check;
      break;
  }
  await checkAuthority(connect({ baseUrl, agentToken: token.access_token }), request);
  // @ts-expect-error actions are read, write and delete
  await agent.authority.check({ ...request, action: 'launch' });
  // @ts-expect-error pending is not an end to wait for
  await waitForEscalation(agent, 'esc_1', { outcome: 'pending' });
  (await person.agentIdentities.trustScore('agt_dev_1')).score satisfies number;
}

export function escalationOutcomeError(): void {
  if (isSvcError(unknownError) && unknownError.code === 'ERR_SVC_ESCALATION_OUTCOME') {
    unknownError.escalation.status satisfies 'pending' | 'approved' | 'denied' | 'countered' | 'expired';
    unknownError.expected satisfies 'approved' | 'denied' | 'countered' | 'expired';
  }
}

/** The person's Trust Inbox: filters and order are closed sets; every row links to its hosted page. */
export async function trustInbox(person: SvcClient): Promise<void> {
  for await (const row of person.inbox.list({ kind: 'approval', trigger: 'value', sort: 'newest', limit: 50 })) {
    row.url satisfies string;
    row.trigger satisfies 'scope' | 'action' | 'value' | 'time' | 'escalation' | 'reputation' | null;
    row.kind satisfies 'consent' | 'approval' | 'signature_request';
  }
  await listInbox(connect({ baseUrl, accessToken: 't' }), { application_id: 'tp_dev_1' }).page();
  // @ts-expect-error the inbox is deadline-first or newest-first
  person.inbox.list({ sort: 'oldest' });
  // @ts-expect-error trigger types are a closed set
  person.inbox.list({ trigger: 'mood' });
}
