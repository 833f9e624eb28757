import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AllowedOrigin, ApiToken, Application, Flow } from '@svc/schemas';
import { startTestServer } from './testing.js';

describe('restart on the same data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps tokens, applications, origins, flows, the sandbox token and the JWKS', async () => {
    const first = await startTestServer({ dataDir });
    const jwks = await (await fetch(`${first.url}/.well-known/jwks.json`)).text();
    const token = (
      (await (
        await first.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'kept', permissions: ['read', 'write'] } } })
      ).json()) as { api_token: ApiToken & { token: string } }
    ).api_token;
    const app = (await (
      await first.api('/api/v1/applications', {
        method: 'POST',
        json: { application: { name: 'Kept', environment: 'production', region: 'eu' } },
      })
    ).json()) as { application: Application; publishable_key: string };
    await first.api(`/api/v1/applications/${app.application.id}/allowed_origins`, {
      method: 'POST',
      json: { allowed_origin: { origin: 'https://kept.example' } },
    });
    const flow = (
      (await (
        await first.api('/api/v1/flows', {
          method: 'POST',
          json: {
            flow: {
              pattern: 'standard',
              title: 'Kept',
              config: { purposes: [{ key: 'a', label: 'A', basis: 'consent', mechanism: 'explicit' }] },
            },
          },
        })
      ).json()) as { flow: Flow }
    ).flow;
    await first.api(`/api/v1/flows/${flow.id}/activate`, { method: 'POST' });
    await first.api(`/api/v1/flows/${flow.id}/versions`, { method: 'POST', json: { flow: { title: 'Kept v2' } } });
    const sandbox = first.sandbox;
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      assert.equal(await (await fetch(`${second.url}/.well-known/jwks.json`)).text(), jwks, 'same signing keys');
      assert.equal(second.sandbox.api_token, sandbox.api_token, 'the sandbox token is unchanged');
      assert.equal(second.sandbox.application_id, sandbox.application_id);
      assert.equal(second.sandbox.flow_id, sandbox.flow_id);
      assert.equal(second.sandbox.informed_flow_id, sandbox.informed_flow_id);
      const onDisk = JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as { base_url: string; api_token: string };
      assert.equal(onDisk.base_url, second.url, 'sandbox.json follows the new port');
      assert.equal(onDisk.api_token, sandbox.api_token);

      assert.equal((await second.api('/api/v1/me')).status, 200, 'the sandbox admin token still works');
      const me = await second.api('/api/v1/me', { headers: { authorization: `Bearer ${token.token}` } });
      assert.equal(me.status, 200, 'a created token still works');

      const readApp = ((await (await second.api(`/api/v1/applications/${app.application.id}`)).json()) as { application: Application })
        .application;
      assert.deepEqual(readApp, app.application);
      const origins = (
        (await (await second.api(`/api/v1/applications/${app.application.id}/allowed_origins`)).json()) as {
          allowed_origins: AllowedOrigin[];
        }
      ).allowed_origins;
      assert.deepEqual(
        origins.map((o) => o.origin),
        ['https://kept.example'],
      );
      const key = await fetch(`${second.url}/api/v1/me`, { headers: { 'x-publishable-key': app.publishable_key } });
      assert.equal(key.status, 403, 'the publishable key still authenticates (and is still only a publishable key)');

      const readFlow = ((await (await second.api(`/api/v1/flows/${flow.id}`)).json()) as { flow: Flow }).flow;
      assert.equal(readFlow.status, 'active');
      assert.equal(readFlow.version, 2);
      assert.equal(readFlow.title, 'Kept v2');
      assert.equal((await second.api(`/api/v1/flows/${flow.id}/versions/1`)).status, 200);

      const flows = ((await (await second.api('/api/v1/flows?limit=100')).json()) as { flows: Flow[] }).flows;
      assert.equal(flows.filter((f) => f.id === sandbox.flow_id).length, 1, 'the demo flow is not seeded twice');
    } finally {
      await second.close();
    }
  });
});
