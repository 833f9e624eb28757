// An id that names a country no cell serves points nowhere: it is answered like any id that names nothing (404,
// or 422 for a subject's country in a body), never with a 421 sending the client to a country that does not exist.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, type TestCells } from '../../testing.js';

const NOWHERE_SESSION = `dts_zz_${'A'.repeat(43)}`;
const DE_SESSION = `dts_de_${'A'.repeat(43)}`;

describe('ids of a country no cell serves', () => {
  let server: TestCells;
  before(async () => {
    server = await startTestCells(['US', 'DE']);
  });
  after(() => server.dispose());

  async function notFound(res: Response): Promise<void> {
    const body = (await res.json()) as { message?: string; code?: string; home_country?: string };
    assert.equal(res.status, 404, JSON.stringify(body));
    assert.ok(body.message && body.code, JSON.stringify(body));
    assert.equal(body.home_country, undefined);
  }

  for (const [method, path] of [
    ['GET', `/api/v1/decisions/${NOWHERE_SESSION}`],
    ['GET', `/api/v1/consent_sessions/${NOWHERE_SESSION}`],
    ['POST', `/api/v1/decisions/${NOWHERE_SESSION}/exchange`],
    ['GET', '/api/v1/consent_records/cr_zz_AAAAAAAAAAAAAAAAAAAA'],
    ['POST', '/api/v1/consent_records/cr_zz_AAAAAAAAAAAAAAAAAAAA/withdraw'],
  ] as const) {
    it(`${method} ${path.replace(/A{10,}/, '…')} is 404, through every cell, with or without an Origin`, async () => {
      for (const cell of Object.values(server.cells)) {
        const json = method === 'POST' ? (path.endsWith('/exchange') ? { exchange_token: 'A'.repeat(43) } : {}) : undefined;
        await notFound(await cell.api(path, { method, ...(json ? { json } : {}) }));
        await notFound(
          await cell.api(path, {
            method,
            ...(json ? { json } : {}),
            headers: { authorization: `Bearer ${server.first.sandbox.api_token}`, origin: new URL(cell.url).origin },
          }),
        );
      }
    });
  }

  it("the hosted page of such a session is the page's 404, not a redirect or a 421", async () => {
    const res = await fetch(`${server.first.url}/decisions/${NOWHERE_SESSION}`, { redirect: 'manual' });
    assert.equal(res.status, 404);
  });

  it('a record whose subject is homed in such a country is refused by name (422), not sent there', async () => {
    const res = await server.first.api('/api/v1/consent_records', {
      method: 'POST',
      json: {
        flow_id: server.first.sandbox.flow_id,
        subject: { email: 'zed@example.com', country: 'ZZ' },
        decisions: { newsletter: { decision: 'granted' } },
      },
    });
    const body = (await res.json()) as { code: string; errors: { path: string; code: string }[]; home_country?: string };
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.deepEqual(
      body.errors.map((e) => [e.path, e.code]),
      [['subject.country', 'unknown_country']],
    );
    assert.equal(body.home_country, undefined);
  });

  it('a session of a country that has a cell is still the 421 naming it', async () => {
    const res = await server.cells.US!.api(`/api/v1/decisions/${DE_SESSION}`);
    assert.equal(res.status, 421);
    assert.equal(((await res.json()) as { home_country: string }).home_country, 'DE');
  });
});
