// The person's side of an OAuth authorization, on the service's own hosted pages: sign in (an email, then the
// 6-digit code mailed to it; without an SMTP server the page shows the code too, as the decision pages do), then
// consent to what the application asks. The forms post to these routes; each answer hands the interaction back to
// oidc-provider, which finishes the authorization. The interaction cookie binds every step to the browser that
// started it.
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Hono } from 'hono';
import type { InteractionResults, default as Provider } from 'oidc-provider';
import type { Env, ServerContext } from '../../infra/context.js';
import { isoNow } from '../../infra/clock.js';
import { stmt } from '../../infra/db.js';
import { hashSecret } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { ApiError } from '../../infra/errors.js';
import { sendsMail } from '../../infra/mail/index.js';
import { mailSignInCode } from '../../people/mail/sign-in.js';
import { messagePage, PAGE_HEADERS, pageCsp, pageShell } from '../../hosted/pages/render.js';
import { personFor } from '../../consent/records/person.js';
import { recordVerifiedSignIn } from '../../authority/delegations/trust-score.js';
import { findClient } from './clients.js';
import { guessLimits, tooManyGuesses, waitText, type Limited, type Target } from './guessing.js';
import { OTHER_ORGANISATION, personForClient } from './people.js';
import type { OAuthPageData, OAuthScope } from './page-data.js';

const CODE_TTL_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** What each scope lets the application do, in the words the consent screen uses. */
const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (a stable identifier for you)',
  profile: 'See your basic profile',
  email: 'See your email address',
  offline_access: 'Keep access while you are away (until you revoke it)',
  'audit:verify': 'Read the receipts of authorizations made for you',
  'disclosures:write': 'Record that an agent was disclosed to you',
  'inbox:read': 'See the decisions that wait for you, from every organisation (your Trust Inbox)',
  'records:read': 'See the consent you have given this organisation (your consent records)',
  'records:write': 'Withdraw consent you have given this organisation',
  'data_requests:read': 'See the requests you made about your data (access, erasure, …) and their answers',
  'data_requests:write': 'Ask an organisation for your data, or to erase or correct it, in your name',
  'delegations:read': 'See who you let act for you at this organisation (your delegations)',
  'delegations:write': 'Pause, resume or revoke who you let act for you at this organisation',
  'credentials:read': 'See the credentials this organisation issued you and what you presented of them',
  'credentials:write': 'Present your credentials, sharing only the claims you choose',
  'agreements:read': 'See the agreements you are asked to sign and the collaborations you are part of',
  'agreements:write': 'Sign or decline agreements, and sign or leave collaborations, yourself',
  'connections:read': 'See the applications you are connected to at this organisation, and your paired devices',
  'connections:write': 'Disconnect from applications, and pair or unpair your devices',
  'receipts:read': 'See the signed receipts of what agents did in your name and of the agents disclosed to you',
  'vouches:read': 'See your trust score and the vouches you gave and received',
  'vouches:write': 'Vouch for someone in your name, or withdraw a vouch you gave',
  'data_offers:read': 'See the offers you negotiate for your data and the licences organisations hold over it',
  'data_offers:write': 'Accept or decline offers for your data, and revoke licences over it, in your name',
};

interface SignIn {
  email: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
}

const codeHash = (uid: string, code: string) => hashSecret(`${uid}:${code}`);

function sendPage(c: Context<Env>, html: string, status = 200, formTargets: readonly string[] = []) {
  return c.body(html, status as 200, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([], formTargets) });
}

/** The 429 page of an email with no sign-in code guesses left: `Retry-After` says when it has some again. */
function limitedPage(c: Context<Env>, limited: Limited) {
  const html = messagePage({
    title: 'Too many wrong codes',
    message: `Too many wrong codes were entered for this email. Ask for a new code ${waitText(limited)}.`,
  });
  const headers = tooManyGuesses('Too many wrong sign-in codes.', limited).headers;
  return c.body(html, 429, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([], []), ...headers });
}

/** The 429 page of an email that was sent as many codes as its window allows. */
function mailLimitedPage(c: Context<Env>, error: ApiError) {
  const seconds = Number(error.headers?.['retry-after'] ?? 60);
  const html = messagePage({
    title: 'Too many codes sent',
    message: `Too many sign-in codes were sent to this email. Ask for a new code ${waitText({ retryAfterMs: seconds * 1000 } as Limited)}.`,
  });
  return c.body(html, 429, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([], []), ...error.headers });
}

/**
 * Where the client's redirect URIs are, as CSP sources: the last step's form ends there after the provider's
 * redirects, and `form-action` governs those redirects too. A native app's scheme is a source of its own.
 */
function redirectTargets(redirectUris: string): string[] {
  const sources = (JSON.parse(redirectUris) as string[]).map((uri) => {
    const url = new URL(uri);
    return /^https?:$/.test(url.protocol) ? url.origin : url.protocol;
  });
  return [...new Set(sources)];
}

/** The interaction routes, handing back to `provider` (made on first use, once the server knows its URL). */
export function interactionRoutes(app: Hono<Env>, ctx: ServerContext, provider: () => Promise<Provider>): void {
  const node = (c: Context<Env>) => c.env as unknown as HttpBindings;
  // An interaction that is unknown, expired or started in another browser: say so, and how to start again.
  const lost = (c: Context<Env>) =>
    sendPage(
      c,
      messagePage({
        title: 'This sign-in has expired',
        message: 'Go back to the application and start again.',
      }),
      400,
    );
  // Ends the interaction with `result`; the provider answers the browser itself.
  const finish = async (c: Context<Env>, result: InteractionResults, merge = false) => {
    await (await provider()).interactionFinished(node(c).incoming, node(c).outgoing, result, { mergeWithLastSubmission: merge });
    return RESPONSE_ALREADY_SENT;
  };
  const details = async (c: Context<Env>) => {
    try {
      const found = await (await provider()).interactionDetails(node(c).incoming, node(c).outgoing);
      return found.uid === c.req.param('uid') ? found : undefined;
    } catch {
      return undefined;
    }
  };

  app.get('/oauth/interaction/:uid', async (c) => {
    const interaction = await details(c);
    if (!interaction) return lost(c);
    const client = findClient(ctx, String(interaction.params.client_id));
    if (!client) return lost(c);
    if (interaction.prompt.name === 'login' && interaction.prompt.reasons.includes(OTHER_ORGANISATION) && interaction.session?.accountId) {
      // Signed in already, as another organisation's person: this organisation's person with the same verified email
      // signs in instead, as of the same sign-in (the provider ends the other person's session first).
      const accountId = personForClient(ctx, interaction.session.accountId, client.id);
      if (accountId) {
        const session = interaction.session.uid ? await (await provider()).Session.findByUid(interaction.session.uid) : undefined;
        const login = { accountId, ...(session?.loginTs ? { ts: session.loginTs } : {}), ...(session?.amr ? { amr: session.amr } : {}) };
        return finish(c, { login });
      }
    }
    const signIn = stmt<[string], SignIn>(ctx.db, 'SELECT email, code_hash, attempts, expires_at FROM oauth_sign_ins WHERE uid = ?').get(
      interaction.uid,
    );
    const error = c.req.query('error');
    const base: Pick<OAuthPageData, 'uid' | 'client_name' | 'error'> = {
      uid: interaction.uid,
      client_name: client.name,
      error: error ? errorText(error) : null,
    };
    let data: OAuthPageData;
    if (interaction.prompt.name === 'login') {
      data = signIn
        ? { ...base, step: 'code', email: signIn.email, sandbox_code: sendsMail(ctx) ? null : (c.req.query('code') ?? null), scopes: [] }
        : { ...base, step: 'email', email: null, sandbox_code: null, scopes: [] };
    } else {
      const requested = String(interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const scopes: OAuthScope[] = requested.map((name) => ({ name, description: SCOPE_TEXT[name] ?? name }));
      data = { ...base, step: 'consent', email: null, sandbox_code: null, scopes };
    }
    return sendPage(
      c,
      pageShell({
        lang: 'en',
        title: data.step === 'consent' ? `Allow ${client.name}` : 'Sign in',
        bodyClass: 'mode-full',
        dataId: 'svc-oauth-data',
        data,
        script: '/assets/oauth-page.js',
        element: 'svc-oauth-page',
        noscript: 'Signing in needs JavaScript.',
      }),
      200,
      redirectTargets(client.redirect_uris),
    );
  });

  // Step 1: the email. A fresh code replaces any earlier one.
  app.post('/oauth/interaction/:uid/sign_in', async (c) => {
    const interaction = await details(c);
    if (!interaction || interaction.prompt.name !== 'login') return lost(c);
    const form = await c.req.parseBody();
    const email = typeof form.email === 'string' ? form.email.trim().toLowerCase() : '';
    if (!EMAIL.test(email)) return c.redirect(`/oauth/interaction/${interaction.uid}?error=email`, 303);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const asker = findClient(ctx, String(interaction.params.client_id))?.name ?? 'the service';
    try {
      transaction(ctx.db, () => {
        stmt(
          ctx.db,
          `INSERT INTO oauth_sign_ins (uid, email, code_hash, attempts, expires_at) VALUES (?, ?, ?, 0, ?)
      ON CONFLICT (uid) DO UPDATE SET email = excluded.email, code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at`,
        ).run(interaction.uid, email, codeHash(interaction.uid, code), new Date(ctx.clock.now() + CODE_TTL_MS).toISOString());
        mailSignInCode(ctx, email, code, asker);
      });
    } catch (error) {
      // Past the address's limit of codes sent: nothing is written, and the page says when to ask again.
      if (error instanceof ApiError && error.status === 429) return mailLimitedPage(c, error);
      throw error;
    }
    if (sendsMail(ctx)) return c.redirect(`/oauth/interaction/${interaction.uid}`, 303);
    // Without SMTP, the sandbox's stand-in for the email: the code travels to the page (its own origin, no referrer) once.
    return c.redirect(`/oauth/interaction/${interaction.uid}?code=${code}`, 303);
  });

  // Step 2: the code. Five wrong answers, or ten minutes, and the person starts again with a new code; past the
  // email's guessing limit (across codes) every answer is the 429 page until its window ends, the right code too.
  app.post('/oauth/interaction/:uid/verify', async (c) => {
    const interaction = await details(c);
    if (!interaction || interaction.prompt.name !== 'login') return lost(c);
    const form = await c.req.parseBody();
    const uid = interaction.uid;
    const signIn = stmt<[string], SignIn>(ctx.db, 'SELECT email, code_hash, attempts, expires_at FROM oauth_sign_ins WHERE uid = ?').get(
      uid,
    );
    const client = findClient(ctx, String(interaction.params.client_id));
    if (!signIn || !client) return c.redirect(`/oauth/interaction/${uid}`, 303);
    const guesses: Target[] = [['sign_in_code', signIn.email]];
    const limited = await guessLimits(ctx).limited(guesses);
    if (limited) return limitedPage(c, limited);
    const expired = signIn.expires_at <= isoNow(ctx.clock) || signIn.attempts >= MAX_ATTEMPTS;
    const given = Buffer.from(codeHash(uid, typeof form.code === 'string' ? form.code.trim() : ''), 'hex');
    if (expired || !timingSafeEqual(given, Buffer.from(signIn.code_hash, 'hex'))) {
      transaction(ctx.db, () => {
        if (expired) stmt(ctx.db, 'DELETE FROM oauth_sign_ins WHERE uid = ?').run(uid);
        else stmt(ctx.db, 'UPDATE oauth_sign_ins SET attempts = attempts + 1 WHERE uid = ?').run(uid);
      });
      if (!expired) await guessLimits(ctx).missed(guesses);
      return c.redirect(`/oauth/interaction/${uid}?error=${expired ? 'expired' : 'code'}`, 303);
    }
    // The person is the account's person with this email: the same `sub` as the consent records that know them.
    const accountId = transaction(ctx.db, () => {
      stmt(ctx.db, 'DELETE FROM oauth_sign_ins WHERE uid = ?').run(uid);
      const personId = personFor(ctx, client.account_id, signIn.email, isoNow(ctx.clock));
      recordVerifiedSignIn(ctx, personId); // a verified sign-in counts in the person's trust score
      return personId;
    });
    return finish(c, { login: { accountId } });
  });

  // Consent: allow grants exactly what is missing; deny ends the authorization with access_denied.
  app.post('/oauth/interaction/:uid/consent', async (c) => {
    const interaction = await details(c);
    if (!interaction || interaction.prompt.name !== 'consent' || !interaction.session?.accountId) return lost(c);
    const form = await c.req.parseBody();
    if (form.decision !== 'allow') {
      return finish(c, { error: 'access_denied', error_description: 'The person did not allow the request.' });
    }
    const { Grant } = await provider();
    const missing = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = interaction.grantId
      ? await Grant.find(interaction.grantId)
      : new Grant({ accountId: interaction.session.accountId, clientId: String(interaction.params.client_id) });
    if (!grant) return lost(c);
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    return finish(c, { consent: { grantId } }, true);
  });
}

function errorText(code: string): string {
  switch (code) {
    case 'email':
      return 'Enter an email address such as ada@example.com.';
    case 'code':
      return 'That code is not the one we sent. Check it and try again.';
    case 'expired':
      return 'That code has expired. Enter your email again for a new one.';
    default:
      return 'Something went wrong. Try again.';
  }
}
