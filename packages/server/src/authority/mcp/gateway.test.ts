// The model-context gateway end to end, with the official SDK's MCP client: an agent token lists and calls every
// tool; the bounds, escalations and audit trail are exactly the REST API's; anything but a valid agent token is
// refused with the challenge that points to the resource metadata.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  agentToken,
  answer,
  call,
  check,
  grant,
  newAgent,
  signIn,
  type Agent,
  type Json,
  type Person,
} from '../delegations/test-support.js';
import { createActiveFlow, createRecord, grantAll, recordFlowConfig } from '../../consent/records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { openStreamCount } from './stream.js';

let server: TestServer;
let ada: Person;
let agent: Agent;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  agent = await newAgent(server, 'Gateway agent');
});
after(() => server.dispose());
// Each connected SDK client listens on a stream, and one agent holds only MAX_STREAMS_PER_AGENT: close them after each test.
const connected: Client[] = [];
afterEach(() => Promise.all(connected.splice(0).map((c) => c.close())));

const GATEWAY = '/mcp/v1/agent';
const challenge = () => `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/v1/agent"`;

const paymentGrant = (extra: Json = {}) => ({
  delegation_type: 'ai_agent',
  delegated_scopes: ['payments:write', 'bookings:read'],
  max_actions_per_day: 10,
  bounds: {
    actions: ['read', 'write'],
    value: { max_per_transaction: 100, currency: 'EUR' },
    escalation: { allowed: true },
    jurisdiction: { allowed: ['DE', 'FR'] },
  },
  ...extra,
});

/** An MCP client of the gateway, connected (initialize and initialized) with `token` as its bearer. */
async function connect(token: string | undefined, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'gateway-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${GATEWAY}`), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  connected.push(client);
  return client;
}

/** A fresh grant's agent token, no client connected with it (an SDK client listens on the token's one stream). */
async function freshToken(): Promise<string> {
  return agentToken(server, (await grant(server, ada, agent.id, paymentGrant())).id, agent);
}

/** A fresh grant, its agent token and a client connected with it. */
async function session(extra: Json = {}) {
  const g = await grant(server, ada, agent.id, paymentGrant(extra));
  const token = await agentToken(server, g.id, agent);
  return { grant: g, token, client: await connect(token) };
}

/** Waits (20 ms at a time, 5 s at most) until `check` holds. */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250 && !check(); i += 1) await new Promise((r) => setTimeout(r, 20));
  assert.ok(check(), `timed out waiting for ${what}`);
}

const text = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
/** A tool's structured answer (asserting it is not an error). */
function structured(result: CallToolResult): Json {
  assert.equal(result.isError, undefined, text(result));
  assert.deepEqual(JSON.parse(text(result)), result.structuredContent, 'the text block is the structured content as JSON');
  return result.structuredContent as Json;
}
/** A tool error's `{message, code, errors}` (asserting it is one). */
function refusal(result: CallToolResult): Json {
  assert.equal(result.isError, true, text(result));
  return JSON.parse(text(result)) as Json;
}
const callTool = async (client: Client, name: string, args: Json = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** An initialize request as raw HTTP, for the answers the SDK client hides. */
function rawInitialize(headers: Record<string, string>, method = 'POST', signal?: AbortSignal) {
  return fetch(`${server.url}${GATEWAY}`, {
    method,
    ...(signal ? { signal } : {}),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    ...(method === 'POST'
      ? {
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          }),
        }
      : {}),
  });
}

describe('the gateway with an agent token', () => {
  it('initializes statelessly and lists every tool with described arguments and an output schema', async () => {
    const { client } = await session();
    assert.equal(client.getServerVersion()?.name, 'svc-agent-gateway');
    assert.match(client.getInstructions() ?? '', /check_authority before every action/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['check_authority', 'request_escalation', 'get_escalation', 'check_consent_status', 'record_disclosure', 'whoami'],
    );
    const checkTool = tools.find((t) => t.name === 'check_authority')!;
    assert.deepEqual(checkTool.inputSchema.required, ['scope', 'action', 'description']);
    const props = checkTool.inputSchema.properties as Record<string, { description?: string; pattern?: string }>;
    assert.match(props.scope!.description!, /delegated scopes/);
    assert.equal(props.currency!.pattern, '^[A-Z]{3}$', "the REST body's own field checks");
    assert.ok(
      tools.every((t) => t.outputSchema?.type === 'object' && t.description && t.annotations),
      'each tool has an output schema, a description and annotations',
    );
    assert.equal(tools.find((t) => t.name === 'whoami')!.annotations!.readOnlyHint, true);
    assert.equal(checkTool.annotations!.readOnlyHint, false, 'an authority check records what it allowed');
    await client.close();
  });

  it('whoami answers what GET /api/v1/me answers the same token', async () => {
    const { grant: g, token, client } = await session();
    const me = structured(await callTool(client, 'whoami'));
    assert.deepEqual(me, (await call(server, '/api/v1/me', { token })).body);
    assert.equal(me.kind, 'agent');
    assert.equal(me.agent_identity.id, agent.id);
    assert.equal(me.delegation_grant.id, g.id);
    assert.equal(me.delegation_grant.principal_id, ada.id);
    assert.match(me.token.expires_at, /^\d{4}-\d\d-\d\dT/);
  });

  it('an allowed check is authority exercised on the audit trail, exactly like a REST one', async () => {
    const { grant: g, token, client } = await session();
    const viaMcp = structured(
      await callTool(client, 'check_authority', {
        scope: 'payments:write',
        action: 'write',
        value: 40,
        currency: 'EUR',
        jurisdiction: 'DE',
        description: 'Pay the hotel',
      }),
    );
    assert.equal(viaMcp.authority_check.outcome, 'allowed');
    assert.equal(viaMcp.authority_check.delegation_grant_id, g.id);
    assert.equal(viaMcp.authority_check.remaining_today, 9);
    assert.equal(viaMcp.retry_after_seconds, undefined);
    const viaRest = await check(server, token, {
      scope: 'payments:write',
      action: 'write',
      value: 40,
      currency: 'EUR',
      jurisdiction: 'DE',
      description: 'Pay the hotel',
    });
    assert.equal(viaRest.status, 200);
    assert.equal(viaRest.body.authority_check.remaining_today, 8, 'one daily allowance for both ways in');

    const events = (await call(server, '/api/v1/audit/events?limit=200')).body.audit_events as Json[];
    const mine = events.filter((e) => e.data.delegation_grant_id === g.id);
    assert.deepEqual(
      mine.map((e) => e.type),
      ['delegation.granted', 'authority.token_issued', 'authority.exercised', 'authority.exercised'],
    );
    const [mcpEvent, restEvent] = mine.slice(2) as [Json, Json];
    const comparable = (e: Json) => ({ ...e.data, action_id: undefined });
    assert.deepEqual(comparable(mcpEvent), comparable(restEvent), 'the same event, whichever way the agent asked');
    assert.equal(mcpEvent.data.agent_identity_id, agent.id);
    assert.ok(!JSON.stringify(mine).includes('ra_agent_'), 'the trail never holds a token');
  });

  it('is escalated above its value bound exactly as over REST; polls the escalation; the approved action passes once', async () => {
    const { token, client } = await session();
    const action = {
      scope: 'payments:write',
      action: 'write',
      value: 240,
      currency: 'EUR',
      jurisdiction: 'FR',
      description: 'Pay the flight',
    };
    const escalated = structured(await callTool(client, 'check_authority', action));
    assert.equal(escalated.authority_check.outcome, 'escalated');
    assert.equal(escalated.authority_check.bound, 'value');
    assert.equal(escalated.retry_after_seconds, 5);
    const esc = escalated.authority_check.escalation;
    assert.match(esc.id, /^esc_/);
    assert.equal(esc.status, 'pending');
    assert.equal(esc.trigger, 'value');
    assert.equal(esc.decision, undefined, 'the agent never sees the decision it could approve itself');

    // The same escalation over REST: the agent's view without the decision, the principal's with it.
    const rest = await call(server, `/api/v1/oap/escalations/${esc.id}`, { token });
    assert.equal(rest.status, 200);
    assert.deepEqual(rest.body.escalation, esc);
    assert.match(
      (await call(server, `/api/v1/oap/escalations/${esc.id}`, { token: ada.token })).body.escalation.decision.url,
      /\/decisions\/dts_/,
    );
    const polled = structured(await callTool(client, 'get_escalation', { escalation_id: esc.id }));
    assert.deepEqual(polled, { escalation: esc, retry_after_seconds: 5 });
    const early = refusal(await callTool(client, 'check_authority', { ...action, escalation_id: esc.id }));
    assert.equal(early.code, 'escalation_not_approved');

    await answer(server, esc.id, ada.token, 'approve');
    const approved = structured(await callTool(client, 'get_escalation', { escalation_id: esc.id }));
    assert.equal(approved.escalation.status, 'approved');
    assert.equal(approved.escalation.decision, undefined);
    assert.equal(approved.retry_after_seconds, undefined);
    const passes = structured(await callTool(client, 'check_authority', { ...action, escalation_id: esc.id }));
    assert.equal(passes.authority_check.outcome, 'allowed');
    assert.equal(refusal(await callTool(client, 'check_authority', { ...action, escalation_id: esc.id })).code, 'escalation_used');
  });

  it("is denied beyond a bound no one can lift, naming the bound, with the REST refusal's own body", async () => {
    const { token, client } = await session();
    const abroad = { scope: 'payments:write', action: 'write', value: 40, currency: 'EUR', jurisdiction: 'US', description: 'Pay abroad' };
    const denied = refusal(await callTool(client, 'check_authority', abroad));
    assert.equal(denied.code, 'bound_exceeded');
    assert.deepEqual(
      denied.errors.map((e: Json) => [e.path, e.code]),
      [['jurisdiction', 'jurisdiction']],
    );
    assert.match(denied.message, /jurisdiction|US/);
    const rest = await check(server, token, abroad);
    assert.equal(rest.status, 403);
    assert.deepEqual(denied, rest.body);

    const { client: closed } = await session({ bounds: { value: { max_per_transaction: 50, currency: 'EUR' } } });
    const noEscalation = refusal(
      await callTool(closed, 'check_authority', {
        scope: 'payments:write',
        action: 'write',
        value: 51,
        currency: 'EUR',
        description: 'Pay',
      }),
    );
    assert.equal(noEscalation.errors[0].code, 'value');
    assert.match(noEscalation.message, /does not allow escalation/);
    const asked = refusal(
      await callTool(closed, 'request_escalation', {
        scope: 'payments:write',
        action: 'write',
        value: 51,
        currency: 'EUR',
        description: 'More',
      }),
    );
    assert.equal(asked.code, 'bound_exceeded');
    assert.equal(asked.errors[0].code, 'escalation');
  });

  it('refuses arguments as the REST body is refused', async () => {
    const { token, client } = await session();
    const valueAlone = { scope: 'payments:write', action: 'write', value: 5, description: 'Pay' };
    const refused = refusal(await callTool(client, 'check_authority', valueAlone));
    assert.equal(refused.code, 'validation_failed');
    assert.deepEqual(
      refused.errors.map((e: Json) => e.path),
      ['currency'],
    );
    assert.deepEqual(refused.errors, (await check(server, token, valueAlone)).body.errors);
    const lower = await callTool(client, 'check_authority', {
      scope: 'payments:write',
      action: 'write',
      jurisdiction: 'de',
      description: 'Pay',
    });
    assert.equal(lower.isError, true);
    assert.match(text(lower), /jurisdiction/);
    const unknown = await callTool(client, 'check_authority', {
      scope: 'payments:write',
      action: 'write',
      description: 'Pay',
      approved: true,
    });
    assert.equal(unknown.isError, true, 'an unknown argument is refused, as an unknown field is');
  });

  it("request_escalation opens an escalation the principal sees; get_escalation shows only the grant's own", async () => {
    const { grant: g, client } = await session();
    const asked = structured(
      await callTool(client, 'request_escalation', {
        scope: 'payments:write',
        action: 'delete',
        value: 0,
        currency: 'EUR',
        jurisdiction: 'DE',
        description: 'Cancel the booking',
      }),
    );
    assert.equal(asked.escalation.status, 'pending');
    assert.equal(asked.escalation.trigger, 'escalation');
    assert.equal(asked.escalation.delegation_grant_id, g.id);
    assert.equal(asked.retry_after_seconds, 5);
    const inbox = await call(server, '/api/v1/oap/escalations?status=pending', { token: ada.token });
    assert.ok(inbox.body.escalations.some((e: Json) => e.id === asked.escalation.id));

    const { client: other } = await session();
    assert.equal(
      refusal(await callTool(other, 'get_escalation', { escalation_id: asked.escalation.id })).code,
      'not_found',
      "another grant's escalation is not found",
    );
    assert.equal(refusal(await callTool(client, 'get_escalation', { escalation_id: 'esc_AAAAAAAAAAAAAAAAAAAA' })).code, 'not_found');
  });

  it("check_consent_status answers the principal's status for one purpose, and only theirs, in their account", async () => {
    const flowId = await createActiveFlow(server);
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'ada@example.com' },
      decisions: { ...grantAll, research: { decision: 'declined' } },
    });
    await createRecord(server, { flow_id: flowId, subject: { email: 'bob@example.com' }, decisions: grantAll });
    const { client } = await session();
    const newsletter = structured(await callTool(client, 'check_consent_status', { purpose: 'newsletter' }));
    assert.deepEqual(Object.keys(newsletter.consent_status).sort(), [
      'application_id',
      'expires_at',
      'flow_id',
      'granted_at',
      'principal_id',
      'purpose',
      'status',
    ]);
    assert.equal(newsletter.consent_status.principal_id, ada.id, 'the principal the grant names');
    assert.equal(newsletter.consent_status.application_id, server.sandbox.application_id, "the grant's application by default");
    assert.equal(newsletter.consent_status.status, 'granted');
    assert.equal(newsletter.consent_status.flow_id, flowId);
    // The same status the organisation reads over REST.
    const rest = await call(server, `/api/v1/applications/${server.sandbox.application_id}/consent_status?person_id=${ada.id}`);
    const row = rest.body.purposes.find((p: Json) => p.purpose === 'newsletter');
    assert.deepEqual(
      [row.status, row.granted_at, row.expires_at],
      [newsletter.consent_status.status, newsletter.consent_status.granted_at, newsletter.consent_status.expires_at],
    );
    assert.equal(
      structured(await callTool(client, 'check_consent_status', { purpose: 'research', flow_id: flowId })).consent_status.status,
      'declined',
    );
    assert.equal(
      structured(await callTool(client, 'check_consent_status', { purpose: 'holidays' })).consent_status.status,
      'pending',
      'an undecided purpose',
    );

    const otherApp = await call(server, '/api/v1/applications', { json: { application: { name: 'Second shop' } } });
    assert.equal(otherApp.status, 201, JSON.stringify(otherApp.body));
    const elsewhere = structured(
      await callTool(client, 'check_consent_status', { purpose: 'newsletter', application_id: otherApp.body.application.id }),
    );
    assert.equal(elsewhere.consent_status.status, 'pending', 'no record with that application');
    assert.equal(
      refusal(await callTool(client, 'check_consent_status', { purpose: 'newsletter', application_id: 'tp_dev_nope' })).code,
      'not_found',
    );
    const someoneElse = await callTool(client, 'check_consent_status', { purpose: 'newsletter', person_id: 'prs_bob' });
    assert.equal(someoneElse.isError, true, 'no one but the principal can be named');
  });
});

describe('refusals', () => {
  async function refusedConnect(token: string | undefined, status: number) {
    await assert.rejects(connect(token), (err: unknown) => err instanceof StreamableHTTPError && err.code === status);
  }
  async function refusedRaw(token: string | undefined, status = 401, code?: string) {
    const res = await rawInitialize(token ? { authorization: `Bearer ${token}` } : {});
    assert.equal(res.status, status);
    const body = (await res.json()) as Json;
    assert.equal(typeof body.message, 'string');
    if (code) assert.equal(body.code, code);
    const header = res.headers.get('www-authenticate');
    if (status !== 401) assert.equal(header, null);
    // RFC 6750 §3: a refused token adds invalid_token and its reason to the challenge; no token, just the challenge.
    else if (token) assert.ok(header?.startsWith(`${challenge()}, error="invalid_token", error_description="`), header ?? '');
    else assert.equal(header, challenge());
    return body;
  }

  it("without a token, with an API token or a person's token: 401 with the resource metadata challenge; a publishable key 403", async () => {
    await refusedConnect(undefined, 401);
    await refusedRaw(undefined, 401, 'unauthorized');
    await refusedConnect(server.sandbox.api_token, 401);
    assert.match((await refusedRaw(server.sandbox.api_token, 401, 'invalid_token')).message, /only an agent token/);
    await refusedConnect(ada.token, 401);
    await refusedRaw(ada.token, 401, 'invalid_token');
    await refusedRaw('ra_agent_forged', 401, 'invalid_token');
    const key = await rawInitialize({ 'x-publishable-key': server.sandbox.publishable_key });
    assert.equal(key.status, 403, 'a publishable key is refused as on every API route that does not take one');
    assert.equal(((await key.json()) as Json).code, 'publishable_key_not_allowed');
    const basic = await rawInitialize({ authorization: 'Basic YTpi' });
    assert.equal(basic.status, 401);
    assert.equal(basic.headers.get('www-authenticate'), challenge());
  });

  it("a revoked grant's token, mid-session, and an expired token: 401; a suspended grant: 403", async () => {
    const { grant: g, token, client } = await session();
    structured(await callTool(client, 'whoami'));
    await call(server, `/api/v1/delegations/${g.id}/suspend`, { token: ada.token, method: 'POST' });
    await assert.rejects(callTool(client, 'whoami'), (err: unknown) => err instanceof StreamableHTTPError && err.code === 403);
    assert.equal((await refusedRaw(token, 403)).code, 'grant_suspended');
    await call(server, `/api/v1/delegations/${g.id}/resume`, { token: ada.token, method: 'POST' });
    structured(await callTool(client, 'whoami'));
    await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, method: 'POST' });
    await assert.rejects(
      callTool(client, 'check_authority', { scope: 'bookings:read', action: 'read', description: 'Read' }),
      (err: unknown) => err instanceof StreamableHTTPError && err.code === 401,
    );
    await refusedConnect(token, 401);
    assert.match((await refusedRaw(token, 401, 'invalid_token')).message, /revoked/);

    const later = await session();
    server.advance(3601);
    await refusedConnect(later.token, 401);
    assert.match((await refusedRaw(later.token, 401, 'invalid_token')).message, /expired/);
  });

  it('serves GET as the server-to-client event stream for an agent token, one per token; DELETE answers 405', async () => {
    const token = await freshToken();
    const open = openStreamCount(server.context);
    const listen = new AbortController();
    const stream = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'text/event-stream' }, 'GET', listen.signal);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    assert.match(stream.headers.get('cache-control') ?? '', /no-cache/);
    assert.equal(openStreamCount(server.context), open + 1);

    const second = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'text/event-stream' }, 'GET');
    assert.equal(second.status, 409, 'one stream per token');
    assert.equal(((await second.json()) as Json).code, 'stream_already_open');
    listen.abort();
    await waitUntil(() => openStreamCount(server.context) === open, 'the stream the client left to end');
    const again = new AbortController();
    const reopened = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'text/event-stream' }, 'GET', again.signal);
    assert.equal(reopened.status, 200, 'a client that went away can listen again');
    again.abort();
    await waitUntil(() => openStreamCount(server.context) === open, 'the second stream to end');

    const jsonOnly = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'application/json' }, 'GET');
    assert.equal(jsonOnly.status, 406);
    assert.equal(((await jsonOnly.json()) as Json).code, 'not_acceptable');
    const deleted = await rawInitialize({ authorization: `Bearer ${token}` }, 'DELETE');
    assert.equal(deleted.status, 405, 'no session to end');
    assert.equal(deleted.headers.get('allow'), 'GET, POST');
    assert.equal(((await deleted.json()) as Json).code, 'method_not_allowed');
    assert.equal(openStreamCount(server.context), open);
  });

  it('answers GET without an agent token as it answers POST: the challenge, whatever else the request carries', async () => {
    const sse = { accept: 'text/event-stream' };
    const open = openStreamCount(server.context);
    for (const method of ['GET', 'POST']) {
      const unauthenticated = await rawInitialize(sse, method);
      assert.equal(unauthenticated.status, 401, `${method}: the challenge comes first`);
      assert.equal(unauthenticated.headers.get('www-authenticate'), challenge());
      for (const bearer of [server.sandbox.api_token, ada.token]) {
        const res = await rawInitialize({ ...sse, authorization: `Bearer ${bearer}` }, method);
        assert.equal(res.status, 401, method);
        assert.equal(((await res.json()) as Json).code, 'invalid_token', method);
        assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      }
    }
    assert.equal(openStreamCount(server.context), open, 'no stream opened');
  });

  it('refuses a browser page of another origin (403), on POST and GET alike', async () => {
    const token = await freshToken();
    for (const method of ['POST', 'GET']) {
      const page = await rawInitialize(
        { authorization: `Bearer ${token}`, origin: 'https://evil.example', accept: 'text/event-stream' },
        method,
      );
      assert.equal(page.status, 403, method);
      assert.equal(((await page.json()) as Json).code, 'origin_not_allowed');
    }
    assert.equal((await rawInitialize({ authorization: `Bearer ${token}`, origin: new URL(server.url).origin })).status, 200);
  });

  it('lets the SDK client listen after initialize, and ends the stream when the client closes', async () => {
    const open = openStreamCount(server.context);
    const { client } = await session();
    await waitUntil(() => openStreamCount(server.context) === open + 1, "the SDK client's stream");
    await client.close();
    await waitUntil(() => openStreamCount(server.context) === open, 'the stream to end with the client');
  });

  it('closes a stream when its agent token expires', async () => {
    const token = await freshToken();
    const open = openStreamCount(server.context);
    server.advance(3600 - 1); // the token has a second left
    const res = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'text/event-stream' }, 'GET');
    assert.equal(res.status, 200);
    await res.body!.pipeTo(new WritableStream()); // ends: the server closed it
    assert.equal(openStreamCount(server.context), open);
    server.advance(1);
    const expired = await rawInitialize({ authorization: `Bearer ${token}`, accept: 'text/event-stream' }, 'GET');
    assert.equal(expired.status, 401);
  });

  it("transport errors keep their JSON-RPC error and carry the service's {message, code}", async () => {
    const { token } = await session();
    const res = await fetch(`${server.url}${GATEWAY}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as Json;
    assert.equal(body.code, 'malformed_json');
    assert.equal(body.error.code, -32700);
    assert.equal(body.message, body.error.message);
    const notAcceptable = await fetch(`${server.url}${GATEWAY}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    assert.equal(notAcceptable.status, 406);
    assert.equal(((await notAcceptable.json()) as Json).code, 'not_acceptable');
  });
});

describe('the event stream when the server stops', () => {
  it('ends every open stream, so that the server closes rather than waiting on them', async () => {
    const other = await startTestServer();
    let stream: Response | undefined;
    try {
      const person = await signIn(other, 'grace@example.com');
      const a = await newAgent(other, 'Listening agent');
      const g = await grant(other, person, a.id, paymentGrant());
      const token = await agentToken(other, g.id, a);
      stream = await fetch(`${other.url}${GATEWAY}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
      assert.equal(stream.status, 200);
      assert.equal(openStreamCount(other.context), 1);
    } finally {
      const closed = other.dispose();
      const cutOff = new Promise((_, reject) => setTimeout(() => reject(new Error('the server did not close')), 5000).unref());
      await Promise.race([closed, cutOff]);
    }
    await stream.body!.pipeTo(new WritableStream()); // the server ended it
    assert.equal(openStreamCount(other.context), 0);
  });
});

describe('discovery documents', () => {
  it('publishes RFC 9728 metadata for the gateway at the well-known URL its challenge names', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp/v1/agent`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(await res.json(), {
      resource: `${server.url}/mcp/v1/agent`,
      authorization_servers: [server.url],
      bearer_methods_supported: ['header'],
      scopes_supported: [],
      resource_name: 'svc model-context gateway',
    });
    // The authorization server it names is the OpenID provider, which hands out agent tokens by token exchange.
    const as = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Json;
    assert.equal(as.issuer, server.url);
  });

  it('describes the gateway at /.well-known/mcp-configuration: endpoint, transport, versions, auth, tools', async () => {
    const config = (await (await fetch(`${server.url}/.well-known/mcp-configuration`)).json()) as Json;
    assert.equal(config.endpoint, `${server.url}/mcp/v1/agent`);
    assert.equal(config.transport, 'streamable-http');
    assert.equal(config.stateless, true);
    assert.deepEqual(config.protocol_versions_supported, SUPPORTED_PROTOCOL_VERSIONS);
    assert.equal(config.latest_protocol_version, LATEST_PROTOCOL_VERSION);
    assert.deepEqual(config.auth, {
      type: 'bearer',
      bearer_methods_supported: ['header'],
      token: 'agent_token',
      token_prefix: 'ra_agent_',
      token_endpoint: `${server.url}/oauth/token/exchange`,
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:svc:params:oauth:token-type:delegation_grant',
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_servers: [server.url],
      resource_metadata: `${server.url}/.well-known/oauth-protected-resource/mcp/v1/agent`,
      scopes: "The delegation grant's delegated scopes; the exchange's scope parameter may narrow them.",
    });
    const { client } = await session();
    assert.deepEqual(
      config.tools,
      (await client.listTools()).tools.map((t) => t.name),
    );
  });

  it('the OpenAPI document describes the gateway and both documents', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as { paths: Record<string, Record<string, Json>> };
    assert.deepEqual(doc.paths['/mcp/v1/agent']?.post?.security, [{ agent_token: [] }]);
    assert.ok(doc.paths['/.well-known/oauth-protected-resource/mcp/v1/agent']?.get);
    assert.ok(doc.paths['/.well-known/mcp-configuration']?.get);
  });
});

describe('record_disclosure', () => {
  it('records a disclosure of the calling agent as an action under its grant (scope disclosures:write), and nothing when refused', async () => {
    const flowId = await createActiveFlow(
      server,
      { ...recordFlowConfig, agents: [{ agent_id: agent.id, role: 'Books trips' }] },
      'Travel chat',
    );
    const { client } = await session({ delegated_scopes: ['payments:write', 'disclosures:write'] });
    const at = new Date(server.context.clock.now()).toISOString();
    const done = structured(await callTool(client, 'record_disclosure', { flow_id: flowId, disclosed_at: at, jurisdiction: 'DE' }));
    assert.equal(done.authority_check.outcome, 'allowed');
    assert.equal(done.disclosure_receipt.agent_id, agent.id, 'always the calling agent');
    const receipt = (await call(server, `/api/v1/consent_receipts/${done.disclosure_receipt.record_id}`)).body.consent_receipt;
    assert.deepEqual(
      receipt.event.map((e: { event_state: string }) => e.event_state),
      ['notice shown'],
    );

    const before = (await call(server, '/api/v1/audit/events?limit=100')).body.audit_events.length;
    const future = refusal(
      await callTool(client, 'record_disclosure', {
        flow_id: flowId,
        disclosed_at: new Date(server.context.clock.now() + 60_000).toISOString(),
        jurisdiction: 'DE',
      }),
    );
    assert.equal(future.errors[0].code, 'in_the_future');
    assert.equal(
      (await call(server, '/api/v1/audit/events?limit=100')).body.audit_events.length,
      before,
      'a refused disclosure leaves no exercise',
    );

    const { client: without } = await session();
    const outside = await callTool(without, 'record_disclosure', { flow_id: flowId, disclosed_at: at, jurisdiction: 'DE' });
    const result = structured(outside);
    assert.equal(result.authority_check.outcome, 'escalated', 'without disclosures:write the principal is asked');
    assert.equal(result.disclosure_receipt, undefined);
  });
});
