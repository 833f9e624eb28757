// A person and an agent acting for them, as the organisation's systems make them: the person's access token from the
// sandbox's confidential client (signed in through the service's hosted pages), and an agent identity of the
// sandbox that the person grants bounded authority, with the agent token its runtime gets for that grant.
// Needs `pnpm run build` first (the server comes from dist/).
import { createClient, exchangeDelegationGrant } from '@svc/client';
import * as oauth from 'oauth4webapi';
import { expect, type Service } from './fixtures.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * A person's access token from the sandbox's confidential client, as its backend would get one: PAR with PKCE, the
 * hosted sign-in (email, the sandbox code the page shows) and consent walked with a cookie jar, the code exchanged.
 */
export async function personToken(svc: Service, email: string, scope = 'openid email'): Promise<{ token: string; personId: string }> {
  const { sandbox } = svc.server;
  const issuer = new URL(svc.server.url);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client = { client_id: sandbox.oauth_client_id! };
  const auth = oauth.ClientSecretBasic(sandbox.oauth_client_secret!);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const pushed = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        redirect_uri: sandbox.oauth_redirect_uri!,
        response_type: 'code',
        scope,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      insecure,
    ),
  );
  const cookies = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(new URL(url, issuer), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    return res;
  };
  let res = await go(`${as.authorization_endpoint}?client_id=${client.client_id}&request_uri=${encodeURIComponent(pushed.request_uri)}`);
  let at = new URL(as.authorization_endpoint!);
  for (let hop = 0; hop < 20; hop += 1) {
    if (res.status >= 300 && res.status < 400) {
      at = new URL(res.headers.get('location')!, at);
      if (!at.pathname.startsWith('/oauth/')) break;
      res = await go(at.href);
      continue;
    }
    const data = JSON.parse(/<script type="application\/json" id="svc-oauth-data">(.*?)<\/script>/s.exec(await res.text())![1]!) as {
      uid: string;
      step: string;
      sandbox_code: string;
    };
    const step =
      data.step === 'email'
        ? ['sign_in', { email }]
        : data.step === 'code'
          ? ['verify', { code: data.sandbox_code }]
          : ['consent', { decision: 'allow' }];
    res = await go(`/oauth/interaction/${data.uid}/${step[0]}`, step[1] as Record<string, string>);
  }
  const params = oauth.validateAuthResponse(as, client, at, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, auth, params, sandbox.oauth_redirect_uri!, verifier, insecure),
  );
  const me = await createClient({ baseUrl: svc.server.url, accessToken: tokens.access_token }).me();
  if (me.kind !== 'person') throw new Error('not a person');
  return { token: tokens.access_token, personId: me.person.id };
}

/**
 * An agent ("Errand agent", an identity of the sandbox with its own token-exchange client) that the person `email`
 * grants `payments:write` up to 100 EUR per transaction, with escalation allowed; the grant's id and the agent's token.
 */
export async function agentGrant(svc: Service, email: string): Promise<{ grantId: string; agentToken: string }> {
  const person = await personToken(svc, email);
  const org = createClient({ baseUrl: svc.server.url, apiToken: svc.server.sandbox.api_token });
  const runtime = await svc.api<{ oauth_client: { client_id: string; client_secret: string } }>(
    `/api/v1/applications/${svc.server.sandbox.application_id}/oauth_clients`,
    {
      json: {
        oauth_client: {
          name: 'Errand agent runtime',
          client_type: 'confidential',
          redirect_uris: ['https://agent.example/cb'],
          grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        },
      },
    },
  );
  expect(runtime.status).toBe(201);
  const agent = await org.agentIdentities.create({
    display_name: 'Errand agent',
    agent_type: 'autonomous',
    oauth_application_id: runtime.body.oauth_client.client_id,
  });
  const grant = await createClient({ baseUrl: svc.server.url, accessToken: person.token }).delegations.create({
    delegate_id: agent.id,
    delegation_grant: {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { actions: ['write'], value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
    },
  });
  const { access_token } = await exchangeDelegationGrant({
    baseUrl: svc.server.url,
    delegationGrantId: grant.id,
    clientId: runtime.body.oauth_client.client_id,
    clientSecret: runtime.body.oauth_client.client_secret,
  });
  return { grantId: grant.id, agentToken: access_token };
}
