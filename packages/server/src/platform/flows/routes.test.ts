import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Flow, FlowConfigInput, FlowVersion } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { sandboxInformedFlowId } from './sandbox.js';
import { getActiveFlowVersion, getFlow, getFlowVersion } from './store.js';

type Body = { message: string; code?: string; errors?: { path: string; message: string }[] };

const config: FlowConfigInput = {
  locale: 'en',
  policy_url: 'https://shop.example.com/privacy',
  consent_duration: 'P6M',
  purposes: [
    { key: 'newsletter', label: 'Newsletter', basis: 'consent', mechanism: 'explicit', required: false },
    { key: 'delivery', label: 'Delivering your order', basis: 'contract', mechanism: 'notice', required: true },
  ],
  steps: [{ type: 'review' }],
};

describe('flows', () => {
  let server: TestServer;
  let accountId: string;
  const create = async (flow: Record<string, unknown>) => {
    const res = await server.api('/api/v1/flows', { method: 'POST', json: { flow } });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { flow: Flow }).flow;
  };
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await server.api(path, { method, ...(json !== undefined ? { json } : {}) });
    return { status: res.status, body: (await res.json()) as { flow: Flow } & Body };
  };

  before(async () => {
    server = await startTestServer();
    accountId = server.context.db
      .prepare('SELECT account_id FROM applications WHERE id = ?')
      .pluck()
      .get(server.sandbox.application_id) as string;
  });
  after(() => server.dispose());

  it("creates a draft flow in the account's first application, with defaults filled in", async () => {
    const flow = await create({ pattern: 'standard', title: 'Checkout', description: 'At checkout', config });
    assert.match(flow.id, /^flw_dev_[A-Za-z0-9]+$/);
    assert.equal(flow.application_id, server.sandbox.application_id);
    assert.equal(flow.status, 'draft');
    assert.equal(flow.version, 1);
    assert.equal(flow.active_version, null);
    assert.equal(flow.activated_at, null);
    assert.equal(flow.config.consent_duration, 'P6M');
    assert.deepEqual(
      flow.config.purposes.map((p) => p.key),
      ['newsletter', 'delivery'],
    );
    const read = await call('GET', `/api/v1/flows/${flow.id}`);
    assert.deepEqual(read.body.flow, flow);
  });

  it("puts a flow into a named application and takes that application's region in the id", async () => {
    const app = await server.api('/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'EU', environment: 'production', region: 'eu' } },
    });
    const appId = ((await app.json()) as { application: { id: string } }).application.id;
    const flow = await create({ pattern: 'recurring', title: 'EU flow', config, application_id: appId });
    assert.match(flow.id, /^flw_eu_/);
    assert.equal(flow.application_id, appId);
  });

  it('keeps a draft out of reach of sessions: getActiveFlowVersion is undefined until activation', async () => {
    const flow = await create({ pattern: 'standard', title: 'Not yet', config });
    assert.equal(getActiveFlowVersion(server.context, flow.id), undefined);
    assert.equal(getFlow(server.context, accountId, flow.id)?.status, 'draft');
    assert.equal(getFlow(server.context, 'acct_someone_else', flow.id), undefined);
  });

  it('edits a draft in place, then activation freezes version 1', async () => {
    const flow = await create({ pattern: 'standard', title: 'Draft title', config });
    const edited = await call('PATCH', `/api/v1/flows/${flow.id}`, { flow: { title: 'Final title' } });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.flow.version, 1);
    assert.equal(edited.body.flow.title, 'Final title');

    const active = await call('POST', `/api/v1/flows/${flow.id}/activate`);
    assert.equal(active.status, 200);
    assert.equal(active.body.flow.status, 'active');
    assert.equal(active.body.flow.active_version, 1);
    assert.ok(active.body.flow.activated_at);
    const again = await call('POST', `/api/v1/flows/${flow.id}/activate`);
    assert.deepEqual(again.body.flow, active.body.flow, 'activating twice changes nothing');

    const record = getActiveFlowVersion(server.context, flow.id);
    assert.equal(record?.version, 1);
    assert.equal(record?.status, 'active');
    assert.equal(record?.title, 'Final title');
    assert.equal(record?.application_id, server.sandbox.application_id);
    assert.equal(record?.account_id, accountId);
  });

  it('publishes a new version on change of an active flow; earlier versions stay readable and unchanged', async () => {
    const flow = await create({ pattern: 'standard', title: 'Versioned', config });
    await call('POST', `/api/v1/flows/${flow.id}/activate`);
    const v1 = getFlowVersion(server.context, flow.id, 1);

    const changed = {
      ...config,
      purposes: [...config.purposes!, { key: 'analytics', label: 'Analytics', basis: 'legitimate_interest', mechanism: 'opt_out' }],
    };
    const res = await call('POST', `/api/v1/flows/${flow.id}/versions`, { flow: { config: changed } });
    assert.equal(res.status, 200);
    assert.equal(res.body.flow.version, 2);
    assert.equal(res.body.flow.active_version, 2);
    assert.equal(res.body.flow.status, 'active');
    assert.equal(res.body.flow.config.purposes.length, 3);

    const viaPatch = await call('PATCH', `/api/v1/flows/${flow.id}`, { flow: { title: 'Versioned, renamed' } });
    assert.equal(viaPatch.body.flow.version, 3, 'PATCH on an active flow publishes too');

    const old = await server.api(`/api/v1/flows/${flow.id}/versions/1`);
    assert.equal(old.status, 200);
    const oldVersion = ((await old.json()) as { flow_version: FlowVersion }).flow_version;
    assert.equal(oldVersion.status, 'superseded');
    assert.equal(oldVersion.title, 'Versioned');
    assert.equal(oldVersion.config.purposes.length, 2, 'version 1 terms are frozen');
    assert.deepEqual(
      { ...getFlowVersion(server.context, flow.id, 1), status: 'active', superseded_at: null },
      { ...v1, status: 'active', superseded_at: null },
    );
    assert.ok(oldVersion.superseded_at);

    const list = await server.api(`/api/v1/flows/${flow.id}/versions`);
    const versions = ((await list.json()) as { flow_versions: FlowVersion[] }).flow_versions;
    assert.deepEqual(
      versions.map((v) => [v.version, v.status]),
      [
        [1, 'superseded'],
        [2, 'superseded'],
        [3, 'active'],
      ],
    );
    assert.equal(getActiveFlowVersion(server.context, flow.id)?.version, 3);
  });

  it('publishes nothing when the terms are the same', async () => {
    const flow = await create({ pattern: 'standard', title: 'Same', config });
    await call('POST', `/api/v1/flows/${flow.id}/activate`);
    const res = await call('POST', `/api/v1/flows/${flow.id}/versions`, { flow: { title: 'Same', config } });
    assert.equal(res.body.flow.version, 1);
  });

  it('refuses to activate a flow without purposes (422)', async () => {
    const flow = await create({ pattern: 'standard', title: 'Empty' });
    assert.deepEqual(flow.config.purposes, []);
    const res = await call('POST', `/api/v1/flows/${flow.id}/activate`);
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'flow_incomplete');
    assert.equal(res.body.errors?.[0]?.path, 'flow.config.purposes');
  });

  it('validates the config and names each failing path', async () => {
    const res = await call('POST', '/api/v1/flows', {
      flow: {
        pattern: 'standard',
        title: 'Bad',
        config: {
          consent_duration: 'one year',
          purposes: [
            { key: 'a', label: 'A', basis: 'contract', mechanism: 'explicit' },
            { key: 'a', label: 'A', basis: 'consent', mechanism: 'explicit' },
          ],
        },
      },
    });
    assert.equal(res.status, 422);
    const paths = res.body.errors?.map((e) => e.path) ?? [];
    assert.ok(paths.includes('flow.config.consent_duration'), paths.join());
    assert.ok(paths.includes('flow.config.purposes.0.mechanism'), paths.join());
    assert.ok(paths.includes('flow.config.purposes.1.key'), paths.join());
  });

  it('answers 404 for unknown flows and versions', async () => {
    for (const path of [
      '/api/v1/flows/flw_dev_nope',
      '/api/v1/flows/flw_dev_nope/versions',
      `/api/v1/flows/${server.sandbox.flow_id}/versions/99`,
    ]) {
      const res = await server.api(path);
      assert.equal(res.status, 404, path);
      assert.ok(((await res.json()) as Body).message);
    }
    assert.equal((await call('POST', '/api/v1/flows/flw_dev_nope/activate')).status, 404);
    assert.equal((await call('POST', '/api/v1/flows/flw_dev_nope/versions', { flow: { title: 'x' } })).status, 404);
  });

  it('lists flows over several pages in creation order', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
      const page = (await (await server.api(`/api/v1/flows${q}`)).json()) as { flows: Flow[]; next_cursor: string | null };
      ids.push(...page.flows.map((f) => f.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.ok(pages >= 3, `${ids.length} flows in ${pages} pages`);
    assert.equal(ids[0], server.sandbox.flow_id, 'the sandbox demo flow came first');
    assert.equal(new Set(ids).size, ids.length);
  });

  it('seeds an active demo flow with one purpose of each kind, and an informed-consent flow', async () => {
    const demo = (await call('GET', `/api/v1/flows/${server.sandbox.flow_id}`)).body.flow;
    assert.match(demo.id, /^flw_dev_/);
    assert.equal(demo.status, 'active');
    assert.equal(demo.config.locale, 'en');
    assert.equal(demo.config.consent_duration, 'P1Y');
    assert.ok(demo.config.policy_url);
    assert.deepEqual(
      demo.config.purposes.map((p) => [p.basis, p.mechanism]),
      [
        ['consent', 'explicit'],
        ['legitimate_interest', 'opt_out'],
        ['contract', 'notice'],
        ['legal_obligation', 'notice'],
      ],
    );
    assert.deepEqual(
      demo.config.steps.map((s) => s.type),
      ['sign_in', 'verify', 'review'],
    );

    const informedId = sandboxInformedFlowId(server.context);
    assert.equal(server.sandbox.informed_flow_id, informedId);
    const informed = (await call('GET', `/api/v1/flows/${informedId}`)).body.flow;
    assert.equal(informed.status, 'active');
    assert.deepEqual(
      informed.config.steps.map((s) => s.type),
      ['disclosure', 'comprehension_check'],
    );
    assert.ok(informed.config.purposes.some((p) => p.mechanism === 'informed'));
  });
});
