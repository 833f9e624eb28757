// exchangeDelegationGrant against a loopback double of POST /oauth/token/exchange: the RFC 8693 form, both ways of
// authenticating the agent's OAuth client, and every way the answer can go wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from '../lib/client.js';
import {
  SvcAbortError,
  SvcConfigurationError,
  SvcNetworkError,
  SvcResponseValidationError,
  SvcServerError,
  SvcTimeoutError,
} from '../lib/errors.js';
import { SvcOAuthError } from '../oauth/errors.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { closedPort, json, loopback } from '../testing/servers.test.helper.js';
import { exchangeDelegationGrant } from './token-exchange.js';

const issued = {
  access_token: 'ra_agent_AbCdEfGhIjKlMnOpQrStUvWx',
  issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  token_type: 'Bearer',
  expires_in: 900,
  scope: 'payments:write',
};
const grant = 'dlg_dev_Ab12Cd34';

describe('exchangeDelegationGrant', () => {
  it('posts the RFC 8693 form with the client in HTTP Basic (form-encoded first) and answers the agent token', async () => {
    const server = await loopback((_req, res) => json(res, 200, issued));
    try {
      const secret = 'se:cr%et +/=';
      const answer = await exchangeDelegationGrant({
        baseUrl: `${server.url}/`,
        clientId: 'oc_dev_1',
        clientSecret: secret,
        delegationGrantId: grant,
        scope: ['payments:write'],
      });
      assert.deepEqual(answer, issued);
      const { method, url, headers, body } = server.requests[0]!;
      assert.equal(`${method} ${url}`, 'POST /oauth/token/exchange');
      assert.equal(headers['content-type'], 'application/x-www-form-urlencoded');
      const basic = Buffer.from(headers.authorization!.replace(/^Basic /, ''), 'base64').toString();
      assert.equal(basic, 'oc_dev_1:se%3Acr%25et+%2B%2F%3D');
      const [id, pass] = basic.split(':').map((part) => new URLSearchParams(`v=${part}`).get('v'));
      assert.deepEqual([id, pass], ['oc_dev_1', secret], 'the server decodes the original secret');
      assert.deepEqual(Object.fromEntries(new URLSearchParams(body)), {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: grant,
        subject_token_type: 'urn:svc:params:oauth:token-type:delegation_grant',
        scope: 'payments:write',
      });
    } finally {
      await server.close();
    }
  });

  it('sends the client in the form with client_secret_post, and no scope when none is asked for', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ...issued, scope: undefined }));
    try {
      await exchangeDelegationGrant({
        baseUrl: server.url,
        clientId: 'oc_dev_1',
        clientSecret: 's3cret',
        delegationGrantId: grant,
        authMethod: 'client_secret_post',
      });
      const { headers, body } = server.requests[0]!;
      assert.equal(headers.authorization, undefined);
      const form = Object.fromEntries(new URLSearchParams(body));
      assert.equal(form.client_id, 'oc_dev_1');
      assert.equal(form.client_secret, 's3cret');
      assert.equal(form.scope, undefined);
    } finally {
      await server.close();
    }
  });

  for (const [status, error, description] of [
    [400, 'invalid_grant', 'The delegation grant is revoked.'],
    [400, 'invalid_scope', 'payments:refund is not among the delegated scopes.'],
    [401, 'invalid_client', 'Client authentication failed.'],
  ] as const) {
    it(`fails with SvcOAuthError on ${status} ${error}: reason is the OAuth error, the message its description`, async () => {
      const server = await loopback((_req, res) => json(res, status, { error, error_description: description }));
      try {
        const err = await rejection(
          exchangeDelegationGrant({ baseUrl: server.url, clientId: 'oc_dev_1', clientSecret: 'x', delegationGrantId: grant }),
          SvcOAuthError,
        );
        assert.equal(err.code, 'ERR_SVC_OAUTH');
        assert.equal(err.reason, error);
        assert.equal(err.message, description);
        assert.equal(err.status, status);
        assert.equal(`${err.method} ${err.path}`, 'POST /oauth/token/exchange');
        assert.equal(server.requests.length, 1, 'an exchange is never repeated');
      } finally {
        await server.close();
      }
    });
  }

  it('names the OAuth error when the server gives no description', async () => {
    const server = await loopback((_req, res) => json(res, 400, { error: 'invalid_request' }));
    try {
      const err = await rejection(
        exchangeDelegationGrant({ baseUrl: server.url, clientId: 'oc_dev_1', clientSecret: 'x', delegationGrantId: grant }),
        SvcOAuthError,
      );
      assert.equal(err.message, 'The token exchange was refused: invalid_request.');
    } finally {
      await server.close();
    }
  });

  it("fails by status on a body that is not OAuth's (a proxy's 502 page), without retrying", async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    try {
      const err = await rejection(
        exchangeDelegationGrant({ baseUrl: server.url, clientId: 'oc_dev_1', clientSecret: 'x', delegationGrantId: grant }),
        SvcServerError,
      );
      assert.equal(err.status, 502);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('refuses an answer that is not an agent token', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ...issued, access_token: 'at_person_token_000000000000' }));
    try {
      const err = await rejection(
        exchangeDelegationGrant({ baseUrl: server.url, clientId: 'oc_dev_1', clientSecret: 'x', delegationGrantId: grant }),
        SvcResponseValidationError,
      );
      assert.deepEqual(
        err.errors.map((e) => e.path),
        ['access_token'],
      );
    } finally {
      await server.close();
    }
  });

  it('fails with SvcNetworkError, SvcTimeoutError and SvcAbortError as every call does', async () => {
    const port = await closedPort();
    await rejection(
      exchangeDelegationGrant({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'c', clientSecret: 'x', delegationGrantId: grant }),
      SvcNetworkError,
    );
    const slow = await loopback(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      json(res, 200, issued);
    });
    try {
      await rejection(
        exchangeDelegationGrant({ baseUrl: slow.url, clientId: 'c', clientSecret: 'x', delegationGrantId: grant, timeoutMs: 50 }),
        SvcTimeoutError,
      );
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('shutting down')), 50);
      const err = await rejection(
        exchangeDelegationGrant({
          baseUrl: slow.url,
          clientId: 'c',
          clientSecret: 'x',
          delegationGrantId: grant,
          signal: controller.signal,
        }),
        SvcAbortError,
      );
      assert.equal((err.cause as Error).message, 'shutting down');
    } finally {
      await slow.close();
    }
  });

  it('refuses bad options before sending anything', async () => {
    const base = { baseUrl: 'http://127.0.0.1:1', clientId: 'oc_dev_1', clientSecret: 'x', delegationGrantId: grant };
    for (const options of [
      { ...base, baseUrl: 'ftp://x.test' },
      { ...base, clientSecret: '' },
      { ...base, delegationGrantId: 'dlg\n' },
      { ...base, authMethod: 'private_key_jwt' as never },
    ]) {
      await rejection(exchangeDelegationGrant(options), SvcConfigurationError);
    }
  });

  it("svc.delegations.exchange uses the client's base URL and fetch, and never its own credential", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const svc = createClient({
      baseUrl: 'https://api.example.test/svc',
      accessToken: 'person_token',
      fetch: async (url, init) => {
        seen.push({ url, init });
        return new Response(JSON.stringify(issued), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const answer = await svc.delegations.exchange(grant, { clientId: 'oc_dev_1', clientSecret: 'x', scope: 'payments:write  ' });
    assert.equal(answer.access_token, issued.access_token);
    assert.equal(seen[0]!.url, 'https://api.example.test/svc/oauth/token/exchange');
    const headers = seen[0]!.init.headers as Record<string, string>;
    assert.equal(headers.authorization, `Basic ${btoa('oc_dev_1:x')}`);
    assert.equal(new URLSearchParams(seen[0]!.init.body as string).get('scope'), 'payments:write');
  });
});
