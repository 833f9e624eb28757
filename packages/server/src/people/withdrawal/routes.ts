// The credential-free withdrawal pages on the trust URL: `/withdraw/{token}` (a receipt's `withdrawal_method`, one
// record) and `/manage/{token}` (a receipt email's management link, one person's records with one organisation).
// The token in the URL is the capability, so the pages pass no referrer, are never cached or framed, and act only
// for forms posted from themselves. A token the service did not make and a record that is not there read the same.
import { createHash } from 'node:crypto';
import { RECORD_MAX_PURPOSES, type EventChannel } from '@svc/schemas';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod/mini';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError } from '../../infra/errors.js';
import { routes } from '../../infra/http/route.js';
import { sameOrigin } from '../../infra/http/same-origin.js';
import { messagePage, PAGE_HEADERS, pageCsp } from '../../hosted/pages/render.js';
import { withdrawConsentRecord } from '../../consent/records/withdrawals.js';
import {
  MANAGE_PATH,
  managementUrl,
  personOfManagementToken,
  recordOfWithdrawalToken,
  recordWithdrawalUrl,
  WITHDRAW_PATH,
} from './links.js';
import { managementPage, recordPage, WITHDRAWAL_CSS, WITHDRAWAL_CSS_PATH } from './page.js';
import { personRecords, personRecordView, recordView } from './store.js';

/** Sends a page: the hosted pages' headers (no referrer, no cache) and strict CSP, never framed. */
function send(c: Context<Env>, html: string, status: ContentfulStatusCode = 200) {
  return c.body(html, status, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([]), 'X-Frame-Options': 'DENY' });
}

/** After a withdrawal, the page again (303), with the same headers: its URL is the capability. */
function seeOther(c: Context<Env>, location: string) {
  return c.body(null, 303, { Location: location, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });
}

const NOT_FOUND = messagePage({
  title: 'Link not found',
  message: 'This link opens no consent record. Check that the whole link was copied from your receipt or its email.',
});
const notFound = (c: Context<Env>) => send(c, NOT_FOUND, 404);
const CROSS_SITE = messagePage({
  title: 'Nothing was withdrawn',
  message: 'A withdrawal is made from its own page only. Open the link from your receipt or its email and withdraw there.',
});

const purposeKey = z.string().check(z.minLength(1), z.maxLength(64));
const purposes = z.optional(z.union([purposeKey, z.array(purposeKey).check(z.maxLength(RECORD_MAX_PURPOSES))]));
const recordForm = z.strictObject({ purposes });
const manageForm = z.strictObject({ record: z.string().check(z.regex(/^[A-Za-z0-9_]{1,64}$/)), purposes });

/** The posted form, or the page that refuses it (415 for a body that is no form, 400 for one the page never sends). */
async function readForm<T>(c: Context<Env>, schema: z.ZodMiniType<T>): Promise<T | Response> {
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(c.req.header('content-type') ?? '')) {
    return send(c, messagePage({ title: 'Nothing was withdrawn', message: 'The page sends a form; this request was no form.' }), 415);
  }
  const parsed = schema.safeParse(await c.req.parseBody({ all: true }).catch(() => undefined));
  if (parsed.success) return parsed.data;
  return send(c, messagePage({ title: 'Nothing was withdrawn', message: 'The form was not one this page sends.' }), 400);
}

/** Withdraws through the Record API's own path; a refusal (an ended term, a purpose not there) is a 4xx page. */
function withdraw(
  ctx: ServerContext,
  c: Context<Env>,
  target: { accountId: string; recordId: string; purposes: string | string[] | undefined; channel: EventChannel },
): Response | undefined {
  const keys = typeof target.purposes === 'string' ? [target.purposes] : target.purposes;
  try {
    withdrawConsentRecord(ctx, target.accountId, target.recordId, { purposes: keys, eventChannel: target.channel });
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return send(c, messagePage({ title: 'Nothing was withdrawn', message: error.message }), error.status);
  }
}

/** `GET|POST /withdraw/{token}`, `GET|POST /manage/{token}` and the pages' stylesheet. */
export const withdrawalRoutes = routes((app, ctx) => {
  // Read per request: the trust URL is known only once the server listens.
  const fromPage = (c: Context<Env>) => sameOrigin(c, new URL(ctx.trustUrl).origin);
  const limit = limitBody(16 * 1024);
  const cssEtag = `"${createHash('sha256').update(WITHDRAWAL_CSS).digest('base64url').slice(0, 27)}"`;
  // Before the token routes, whose parameter would otherwise take the file's name.
  app.get(WITHDRAWAL_CSS_PATH, (c) => {
    const headers = {
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ETag: cssEtag,
    };
    if (c.req.header('if-none-match') === cssEtag) return c.body(null, 304, headers);
    return c.body(WITHDRAWAL_CSS, 200, headers);
  });

  app.get(`${WITHDRAW_PATH}/:token`, (c) => {
    const id = recordOfWithdrawalToken(ctx, c.req.param('token'));
    const record = id === undefined ? undefined : recordView(ctx, id);
    if (!record) return notFound(c);
    return send(c, recordPage(record, recordWithdrawalUrl(ctx, record.id), c.req.query('withdrawn') !== undefined));
  });

  app.post(`${WITHDRAW_PATH}/:token`, limit, async (c) => {
    if (!fromPage(c)) return send(c, CROSS_SITE, 403);
    const id = recordOfWithdrawalToken(ctx, c.req.param('token'));
    const record = id === undefined ? undefined : recordView(ctx, id);
    if (!record) return notFound(c);
    const form = await readForm(c, recordForm);
    if (form instanceof Response) return form;
    const target = { accountId: record.accountId, recordId: record.id, purposes: form.purposes };
    const refused = withdraw(ctx, c, { ...target, channel: 'receipt_record_link' });
    return refused ?? seeOther(c, `${recordWithdrawalUrl(ctx, record.id)}?withdrawn`);
  });

  app.get(`${MANAGE_PATH}/:token`, (c) => {
    const owner = personOfManagementToken(ctx, c.req.param('token'));
    const found = owner && personRecords(ctx, owner.accountId, owner.personId);
    if (!owner || !found) return notFound(c);
    const action = managementUrl(ctx, owner.accountId, owner.personId);
    return send(c, managementPage({ ...found, action, done: c.req.query('withdrawn') !== undefined }));
  });

  app.post(`${MANAGE_PATH}/:token`, limit, async (c) => {
    if (!fromPage(c)) return send(c, CROSS_SITE, 403);
    const owner = personOfManagementToken(ctx, c.req.param('token'));
    if (!owner) return notFound(c);
    const form = await readForm(c, manageForm);
    if (form instanceof Response) return form;
    // Only the person's own record with this organisation: any other id reads as not there.
    if (!personRecordView(ctx, owner.accountId, owner.personId, form.record)) return notFound(c);
    const refused = withdraw(ctx, c, { ...owner, recordId: form.record, purposes: form.purposes, channel: 'email_management_link' });
    return refused ?? seeOther(c, `${managementUrl(ctx, owner.accountId, owner.personId)}?withdrawn#${form.record}`);
  });
});
