import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '@svc/client';
import { startTestCells, type TestCells } from '../../testing.js';
import { createActiveFlow, grantAll } from '../../consent/records/test-support.js';
import { createEndpoint, startReceiver } from '../../platform/webhooks/test-support.js';

let server: TestCells;
before(async () => {
  server = await startTestCells(['US', 'DE']);
});
after(() => server.dispose());

describe('country cells', () => {
  it('runs a cell per country, each on its own URL and database, naming itself on every answer', async () => {
    const { US: us, DE: de } = server.cells;
    assert.notEqual(us!.url, de!.url);
    assert.notEqual(us!.context.db.name, de!.context.db.name);
    assert.notEqual(us!.context.keys.kid, de!.context.keys.kid);
    for (const [country, cell] of Object.entries(server.cells)) {
      const res = await cell.api('/api/v1/countries');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('svc-country'), country);
      const body = (await res.json()) as { country: string; countries: { country: string; base_url: string }[] };
      assert.equal(body.country, country);
      assert.deepEqual(
        body.countries.map((c) => [c.country, c.base_url]),
        [
          ['US', us!.url],
          ['DE', de!.url],
        ],
      );
    }
  });

  it('writes every cell into sandbox.json', () => {
    const file = JSON.parse(readFileSync(join(server.first.dataDir, 'sandbox.json'), 'utf8')) as {
      base_url: string;
      countries: Record<string, { base_url: string }>;
    };
    assert.equal(file.base_url, server.cells.US!.url);
    assert.deepEqual(Object.keys(file.countries), ['US', 'DE']);
    assert.equal(file.countries.DE!.base_url, server.cells.DE!.url);
  });

  it('shares the control plane: a token, application or flow made in one cell works in every cell', async () => {
    const made = await server.cells.DE!.api('/api/v1/api_tokens', {
      method: 'POST',
      json: { api_token: { name: 'made in DE', permissions: ['read'] } },
    });
    assert.equal(made.status, 201);
    const { api_token } = (await made.json()) as { api_token: { id: string; token: string } };
    const me = await server.cells.US!.api('/api/v1/me', { headers: { authorization: `Bearer ${api_token.token}` } });
    assert.equal(me.status, 200);
    const app = await server.cells.US!.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'made in US' } } });
    assert.equal(app.status, 201);
    const { application } = (await app.json()) as { application: { id: string } };
    const read = await server.cells.DE!.api(`/api/v1/applications/${application.id}`);
    assert.equal(read.status, 200);
  });

  it("answers 421 with the home country for another cell's id, the same for one that does not exist", async () => {
    for (const path of ['/api/v1/consent_records/cr_de_AAAAAAAAAAAAAAAAAAAA', '/api/v1/consent_records/cr_de_doesnotexist']) {
      const res = await server.cells.US!.api(path);
      assert.equal(res.status, 421);
      assert.deepEqual(await res.json(), {
        message: 'This resource is served from its home country, DE. Re-issue the request there.',
        code: 'wrong_country',
        home_country: 'DE',
      });
    }
    // Ids minted before cells belong to the first country.
    const legacy = await server.cells.DE!.api('/api/v1/consent_records/cr_AAAAAAAAAAAAAAAAAAAA');
    assert.equal(legacy.status, 421);
    assert.equal(((await legacy.json()) as { home_country: string }).home_country, 'US');
  });

  it("delivers a DE record's webhook, signed with the secret of the endpoint registered through US", async () => {
    const receiver = await startReceiver(200);
    try {
      const endpoint = await createEndpoint(server.cells.US!, receiver.url, ['consent.granted']);
      const flowId = await createActiveFlow(server.cells.US!);
      const made = await server.cells.DE!.api('/api/v1/consent_records', {
        method: 'POST',
        json: { flow_id: flowId, subject: { email: 'dora@example.de', country: 'DE' }, decisions: grantAll },
      });
      assert.equal(made.status, 201);
      const { consent_record } = (await made.json()) as { consent_record: { id: string } };
      const deadline = Date.now() + 10_000;
      while (!receiver.received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(receiver.received.length > 0, 'the DE cell delivered nothing');
      const event = await verifyWebhook(receiver.received[0]!.body, receiver.received[0]!.headers, endpoint.secret, {
        now: server.cells.DE!.context.clock.now(),
      });
      assert.match(JSON.stringify(event), new RegExp(consent_record.id));
    } finally {
      await receiver.close();
    }
  });
});
