// The device grant's code page (RFC 8628) posted without the session its form was made in: a cross-site post, an
// expired or forged session cookie. It is a 400 page that leads back to a fresh form, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../../hostile-cases.js';
import { startTestServer, type TestServer } from '../../testing.js';

describe('posting the device code form without its session', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  for (const [name, cookie] of [
    ['no cookie', undefined],
    ['a forged session cookie', '_session=forged; _session.sig=forged'],
    ['an unsigned session id', '_session=kSSDJxszVbcFkzfcAAjghd2KBPoF2Tev7IvsAA6yjlh'],
  ] as const) {
    it(`with ${name}: 400, a page linking to a fresh form`, async () => {
      const res = await rawRequest(
        server.url,
        'POST',
        '/oauth/device',
        { ...form, ...(cookie ? { cookie } : {}) },
        'user_code=ABCD-EFGH&xsrf=whatever',
      );
      assert.equal(res.status, 400, res.text);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.match(res.text, /href="\/oauth\/device"/);
    });
  }

  it('the form opened here still works: a wrong code is the form again with its message', async () => {
    const page = await fetch(`${server.url}/oauth/device`);
    assert.equal(page.status, 200);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await page.text())?.[1];
    assert.ok(cookie && xsrf);
    const res = await rawRequest(server.url, 'POST', '/oauth/device', { ...form, cookie }, `user_code=ABCD-EFGH&xsrf=${xsrf}`);
    assert.equal(res.status, 200, 'the form again');
    assert.match(res.text, /not valid or has expired/);
  });
});
