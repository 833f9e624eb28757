import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AllowedOrigin, Application } from '@svc/schemas';
import { hashSecret, newSecret } from '../../infra/ids.js';
import { startTestServer, type TestServer } from '../../testing.js';

type Body = { message: string; code?: string; errors?: { path: string; code: string; message: string }[] };
type Created = { application: Application; publishable_key: string };

describe('applications and allowed origins', () => {
  let server: TestServer;
  const createApp = async (application: Record<string, unknown>) => {
    const res = await server.api('/api/v1/applications', { method: 'POST', json: { application } });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Created;
  };
  const addOrigin = (appId: string, origin: string) =>
    server.api(`/api/v1/applications/${appId}/allowed_origins`, { method: 'POST', json: { allowed_origin: { origin } } });

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('creates a development application (tp_dev_, pk_test_) with summary fields', async () => {
    const { application, publishable_key } = await createApp({ name: 'Shop' });
    assert.match(application.id, /^tp_dev_[A-Za-z0-9]+$/);
    assert.match(publishable_key, /^pk_test_[A-Za-z0-9]+$/);
    assert.deepEqual(
      { ...application, id: '', created_at: '', updated_at: '', publishable_keys: [] },
      {
        id: '',
        name: 'Shop',
        active: true,
        application_type: 'web',
        environment: 'development',
        visibility: 'private',
        region: 'dev',
        browser_commit_enabled: false,
        home_country: 'US',
        publishable_keys: [],
        created_at: '',
        updated_at: '',
      },
    );
    // Public by design (it sits in page source): the application lists its key, for the console to show.
    assert.deepEqual(application.publishable_keys, [{ key: publishable_key, created_at: application.created_at }]);
    const read = await server.api(`/api/v1/applications/${application.id}`);
    assert.deepEqual(((await read.json()) as { application: Application }).application, application);
  });

  it('homes production applications by region: tp_us_ by default, tp_eu_ on request, with pk_live_ keys', async () => {
    const us = await createApp({ name: 'Prod', environment: 'production' });
    const eu = await createApp({ name: 'Prod EU', environment: 'production', region: 'eu' });
    assert.match(us.application.id, /^tp_us_/);
    assert.equal(us.application.region, 'us');
    assert.match(eu.application.id, /^tp_eu_/);
    assert.match(eu.publishable_key, /^pk_live_/);
    // A live key authenticates, and is held to the same three abilities as a test key.
    const res = await fetch(`${server.url}/api/v1/flows`, { headers: { 'x-publishable-key': eu.publishable_key } });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as Body).code, 'publishable_key_not_allowed');
  });

  it('patches an application; deactivating it disables its publishable key', async () => {
    const { application, publishable_key } = await createApp({ name: 'Old name' });
    const res = await server.api(`/api/v1/applications/${application.id}`, {
      method: 'PATCH',
      json: { application: { name: 'New name', browser_commit_enabled: true, active: false } },
    });
    assert.equal(res.status, 200);
    const patched = ((await res.json()) as { application: Application }).application;
    assert.equal(patched.name, 'New name');
    assert.equal(patched.browser_commit_enabled, true);
    assert.equal(patched.active, false);
    assert.equal(patched.environment, 'development');
    const withKey = await fetch(`${server.url}/api/v1/flows`, { headers: { 'x-publishable-key': publishable_key } });
    assert.equal(withKey.status, 401);
  });

  it("lists the account's applications over several pages", async () => {
    for (let i = 0; i < 3; i++) await createApp({ name: `Bulk ${i}` });
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = (await (await server.api(`/api/v1/applications${q}`)).json()) as {
        applications: Application[];
        next_cursor: string | null;
      };
      ids.push(...page.applications.map((a) => a.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(ids[0], server.sandbox.application_id, 'oldest first');
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length >= 7);
  });

  it("hides another account's application and its origins and activity (404)", async () => {
    const db = server.context.db;
    const now = new Date().toISOString();
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_other', 'Other', ?)").run(now);
    db.prepare(`INSERT INTO applications (id, account_id, name, environment, created_at, updated_at)
                VALUES ('tp_dev_other', 'acct_other', 'Theirs', 'development', ?, ?)`).run(now, now);
    const theirToken = newSecret();
    db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
                VALUES ('api_token_other', 'acct_other', 'Theirs', '["read","write","admin"]', ?, ?)`).run(hashSecret(theirToken), now);
    for (const [method, path] of [
      ['GET', '/api/v1/applications/tp_dev_other'],
      ['PATCH', '/api/v1/applications/tp_dev_other'],
      ['GET', '/api/v1/applications/tp_dev_other/allowed_origins'],
      ['POST', '/api/v1/applications/tp_dev_other/allowed_origins'],
      ['DELETE', '/api/v1/applications/tp_dev_other/allowed_origins/https%3A%2F%2Fx.example'],
      ['GET', '/api/v1/applications/tp_dev_other/activity'],
    ] as const) {
      const json =
        method === 'PATCH'
          ? { application: { name: 'x' } }
          : method === 'POST'
            ? { allowed_origin: { origin: 'https://x.example' } }
            : undefined;
      const res = await server.api(path, { method, ...(json ? { json } : {}) });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    // And the other way round: their token sees none of ours.
    const theirs = { authorization: `Bearer ${theirToken}` };
    assert.equal((await server.api(`/api/v1/applications/${server.sandbox.application_id}`, { headers: theirs })).status, 404);
    assert.equal((await server.api(`/api/v1/flows/${server.sandbox.flow_id}`, { headers: theirs })).status, 404);
    const list = (await (await server.api('/api/v1/applications', { headers: theirs })).json()) as { applications: Application[] };
    assert.deepEqual(
      list.applications.map((a) => a.id),
      ['tp_dev_other'],
    );
  });

  describe('origin validation', () => {
    let dev: string;
    let prod: string;
    before(async () => {
      dev = (await createApp({ name: 'Dev origins' })).application.id;
      prod = (await createApp({ name: 'Prod origins', environment: 'production' })).application.id;
    });

    const accepted: [env: 'dev' | 'prod', input: string, stored: string][] = [
      ['dev', 'https://shop.example.com', 'https://shop.example.com'],
      ['dev', 'https://shop.example.com:8443', 'https://shop.example.com:8443'],
      ['dev', 'http://localhost', 'http://localhost'],
      ['dev', 'http://localhost:5173', 'http://localhost:5173'],
      ['dev', 'http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['dev', 'HTTPS://Blog.Example.COM', 'https://blog.example.com'],
      ['dev', 'https://[::1]:8443', 'https://[::1]:8443'],
      ['prod', 'https://www.example.org', 'https://www.example.org'],
      ['prod', 'https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ];
    for (const [env, input, stored] of accepted) {
      it(`accepts ${input} for a ${env} application`, async () => {
        const res = await addOrigin(env === 'dev' ? dev : prod, input);
        assert.equal(res.status, 201, await res.clone().text());
        const body = (await res.json()) as { allowed_origin: AllowedOrigin };
        assert.equal(body.allowed_origin.origin, stored);
        assert.equal(body.allowed_origin.last_seen_at, null);
      });
    }

    const refused: [env: 'dev' | 'prod', input: string, reason: RegExp][] = [
      ['dev', 'https://shop.example.com/', /slash/],
      ['dev', 'https://shop.example.com/checkout', /path/],
      ['dev', 'https://shop.example.com?x=1', /query/],
      ['dev', 'https://shop.example.com?', /query/],
      ['dev', 'https://shop.example.com#top', /fragment/],
      ['dev', 'https://user:pw@shop.example.com', /userinfo/],
      ['dev', 'https://shop.example.com:443', /default port/],
      ['dev', 'http://localhost:80', /default port/],
      ['dev', 'http://shop.example.com', /localhost/],
      ['dev', 'http://[::1]:3000', /localhost/],
      ['dev', 'http://localhost.evil.example', /localhost/],
      ['dev', 'ftp://shop.example.com', /https/],
      ['dev', 'shop.example.com', /absolute URL/],
      ['dev', '//shop.example.com', /absolute URL/],
      ['dev', 'https:shop.example.com', /exactly/],
      ['dev', ' https://shop.example.com', /exactly/],
      ['dev', 'https://shop.example.com\t', /exactly/],
      ['dev', 'https://bücher.example', /xn--bcher-kva/],
      ['dev', 'https://*.example.com', /wildcard/],
      ['dev', 'https://0x7f.1', /exactly/],
      ['dev', 'null', /absolute URL/],
      ['prod', 'http://localhost:3000', /https/],
      ['prod', 'http://127.0.0.1', /https/],
      ['prod', 'http://shop.example.com', /https/],
    ];
    for (const [env, input, reason] of refused) {
      it(`refuses ${JSON.stringify(input)} for a ${env} application with a 422 naming the field`, async () => {
        const res = await addOrigin(env === 'dev' ? dev : prod, input);
        assert.equal(res.status, 422);
        const body = (await res.json()) as Body;
        assert.equal(body.code, 'invalid_origin');
        assert.equal(body.errors?.[0]?.path, 'allowed_origin.origin');
        assert.match(body.errors?.[0]?.message ?? '', reason);
      });
    }

    it('lists, re-registers idempotently and deletes by URL-encoded origin', async () => {
      assert.equal((await addOrigin(dev, 'https://shop.example.com')).status, 200, 'already there');
      const list = (await (await server.api(`/api/v1/applications/${dev}/allowed_origins`)).json()) as {
        allowed_origins: AllowedOrigin[];
        next_cursor: null;
      };
      assert.deepEqual(
        list.allowed_origins.map((o) => o.origin),
        accepted
          .filter(([e]) => e === 'dev')
          .map(([, , s]) => s)
          .filter((s, i, a) => a.indexOf(s) === i),
      );
      const del = await server.api(`/api/v1/applications/${dev}/allowed_origins/${encodeURIComponent('http://localhost:5173')}`, {
        method: 'DELETE',
      });
      assert.equal(del.status, 204);
      const again = await server.api(`/api/v1/applications/${dev}/allowed_origins/${encodeURIComponent('http://localhost:5173')}`, {
        method: 'DELETE',
      });
      assert.equal(again.status, 404);
      assert.ok(((await again.json()) as Body).message);
    });
  });
});
