// A person's OAuth access token on the REST client, end to end: the token comes from the reference server's
// sandbox client (PAR, PKCE, the hosted sign-in and consent pages walked in Node), then `accessToken` and
// `getAccessToken` clients read the person from /api/v1/me.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { createClient } from './client.js';
import { SvcAuthenticationError, SvcPermissionError } from './errors.js';
import { insecure, sandboxOAuth, signInPerson } from '../testing/oauth.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

describe("a person's access token on createClient (real server)", () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('accessToken: me() answers the person and the client acting for them', async () => {
    const tokens = await signInPerson(server, 'Ada@Example.com', 'openid email');
    const me = await createClient({ baseUrl: server.url, accessToken: tokens.access_token }).me();
    assert.equal(me.kind, 'person');
    if (me.kind !== 'person') return;
    assert.match(me.person.id, /^prs_/);
    assert.equal(me.person.email, 'ada@example.com');
    assert.equal(me.client.client_id, server.sandbox.oauth_client_id);
    assert.deepEqual([...me.scopes].sort(), ['email', 'openid']);
  });

  it('getAccessToken: asked before each request, it refreshes; a revoked token is a 401 until it hands out a new one', async () => {
    const { as, client, auth } = await sandboxOAuth(server);
    let tokens = await signInPerson(server, 'grace@example.com');
    let stale = true;
    let refreshed = 0;
    const svc = createClient({
      baseUrl: server.url,
      // The app's refresh-before-expiry logic, reduced to a flag: refresh once the current token is known stale.
      getAccessToken: async () => {
        if (stale) {
          const res = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
          tokens = await oauth.processRefreshTokenResponse(as, client, res);
          refreshed += 1;
          stale = false;
        }
        return tokens.access_token;
      },
    });
    const first = tokens.access_token;
    assert.equal((await svc.me()).kind, 'person');
    assert.equal(refreshed, 1);
    assert.notEqual(tokens.access_token, first);

    assert.equal((await svc.me()).kind, 'person');
    assert.equal(refreshed, 1, 'a token still good is not refreshed');

    // Revoked at the service (which ends its grant too): the call fails as any 401 does, until the provider hands
    // out a token of a new sign-in.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, tokens.access_token, insecure));
    await assert.rejects(svc.me(), SvcAuthenticationError);
    tokens = await signInPerson(server, 'grace@example.com');
    const me = await svc.me();
    assert.equal(me.kind === 'person' && me.person.email, 'grace@example.com');
  });

  it("refuses a person's token on an organisation's endpoint with SvcPermissionError", async () => {
    const tokens = await signInPerson(server, 'linus@example.com', 'openid');
    const svc = createClient({ baseUrl: server.url, getAccessToken: () => tokens.access_token });
    await assert.rejects(
      svc.apiTokens.list().page(),
      (err: unknown) => err instanceof SvcPermissionError && err.status === 403 && err.reason === 'person_token_not_allowed',
    );
  });
});
