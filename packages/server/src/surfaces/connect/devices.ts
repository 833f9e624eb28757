// Device links and trust pairings, homed in the person's cell. On the first device the person makes a link
// (`POST /api/v1/device_links`, their access token) and is shown a short code: eight characters of an unambiguous
// alphabet (about 40 bits), valid ten minutes, single use, stored only as SHA-256 of "<link id>:<code>". On the
// second device the same person, signed in there, claims it (`POST /api/v1/device_links/claim`) with their own
// access token: the code is compared in constant time against that person's recent links only, so a code is no
// credential on its own and guessing needs the person's token. Each wrong code counts against every pending link of
// the person; a link locks after five; and against the person's guessing limit, which fresh links do not reset (ten
// wrong codes a quarter hour, then 429). A claim makes a trust pairing of the two devices.
import { randomInt } from 'node:crypto';
import {
  DEVICE_CODE_ALPHABET,
  DEVICE_CODE_LENGTH,
  DEVICE_LINK_MAX_ATTEMPTS,
  DEVICE_LINK_TTL_SECONDS,
  type DeviceLink,
  type DeviceLinkStatus,
  type TrustPairing,
} from '@svc/schemas';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, notFound, unprocessable } from '../../infra/errors.js';
import { hashSecret, homedId, safeEqual } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { guessLimits, tooManyGuesses, waitText, type Target } from '../../platform/oauth/guessing.js';

/** How many links a person may have pending at once. */
export const MAX_PENDING_DEVICE_LINKS = 5;
/** How far back a claim looks for the person's links (to tell an expired or used code from a wrong one). */
const CLAIM_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The most links a claim compares against. */
const CLAIM_CANDIDATES = 100;

interface LinkRow {
  seq: number;
  id: string;
  account_id: string;
  person_id: string;
  code_hash: string;
  device_name: string | null;
  client_id: string;
  token_hash: string;
  status: 'pending' | 'claimed' | 'locked' | 'cancelled';
  attempts: number;
  created_at: string;
  expires_at: string;
  claimed_at: string | null;
  cancelled_at: string | null;
  trust_pairing_id: string | null;
}

interface PairingRow {
  seq: number;
  id: string;
  account_id: string;
  person_id: string;
  device_link_id: string;
  initiator_device_name: string | null;
  initiator_client_id: string;
  claimant_device_name: string | null;
  claimant_client_id: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

type Person = Extract<Principal, { kind: 'person' }>;

const codeHash = (linkId: string, code: string) => hashSecret(`${linkId}:${code}`);
const CODE = new RegExp(`^[${DEVICE_CODE_ALPHABET}]{${DEVICE_CODE_LENGTH}}$`);

/** A fresh code, each character drawn uniformly from the alphabet by the CSPRNG. */
function newCode(): string {
  let code = '';
  for (let i = 0; i < DEVICE_CODE_LENGTH; i += 1) code += DEVICE_CODE_ALPHABET[randomInt(DEVICE_CODE_ALPHABET.length)];
  return code;
}

/** The code as typed, normalised (upper case; spaces and hyphens dropped), or undefined when it cannot be a code. */
export function normaliseCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return CODE.test(code) ? code : undefined;
}

/** `ABCD-EFGH`: how a code is shown. */
const display = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function statusOf(row: LinkRow, now: string): DeviceLinkStatus {
  return row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;
}

function toDeviceLink(row: LinkRow, now: string, code?: string): DeviceLink {
  const status = statusOf(row, now);
  return {
    id: row.id,
    status,
    device_name: row.device_name,
    ...(code ? { code: display(code) } : {}),
    attempts_remaining: status === 'pending' ? Math.max(0, DEVICE_LINK_MAX_ATTEMPTS - row.attempts) : 0,
    created_at: row.created_at,
    expires_at: row.expires_at,
    claimed_at: row.claimed_at,
    trust_pairing_id: row.trust_pairing_id,
  };
}

/** The bearer token of the request, hashed: a claim must come from another sign-in than the one that made the link. */
export function bearerHash(authorization: string | undefined): string {
  return hashSecret(authorization?.replace(/^Bearer /, '') ?? '');
}

/**
 * Makes a pending device link for the calling person and answers it with its code (shown this once). At most
 * {@link MAX_PENDING_DEVICE_LINKS} pending at once (409 `too_many_device_links`).
 */
export function createDeviceLink(
  ctx: ServerContext,
  person: Person,
  input: { device_name?: string | undefined },
  tokenHash: string,
): DeviceLink {
  assertHomedHere(ctx, person.personId);
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const pending = stmt<[string, string], number>(
      ctx.db,
      "SELECT count(*) FROM device_links WHERE person_id = ? AND status = 'pending' AND expires_at > ?",
    )
      .pluck()
      .get(person.personId, now) as number;
    if (pending >= MAX_PENDING_DEVICE_LINKS) {
      throw new ApiError(
        409,
        `You have ${pending} device links waiting to be claimed; claim or cancel one, or wait for one to expire (${DEVICE_LINK_TTL_SECONDS / 60} minutes).`,
        'too_many_device_links',
      );
    }
    const id = homedId(ctx.country, 'dlk_', 20);
    const code = newCode();
    const expiresAt = new Date(Date.parse(now) + DEVICE_LINK_TTL_SECONDS * 1000).toISOString();
    stmt(
      ctx.db,
      `INSERT INTO device_links (id, account_id, person_id, code_hash, device_name, client_id, token_hash, status, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(id, person.accountId, person.personId, codeHash(id, code), input.device_name ?? null, person.clientId, tokenHash, now, expiresAt);
    return toDeviceLink(findLink(ctx, id)!, now, code);
  });
}

const findLink = (ctx: ServerContext, id: string) => stmt<[string], LinkRow>(ctx.db, 'SELECT * FROM device_links WHERE id = ?').get(id);

/** The person's own link `id`, or the 404 (another person's, another account's); another cell's id is the 421. */
function ownLink(ctx: ServerContext, person: Person, id: string): LinkRow {
  assertHomedHere(ctx, id);
  const row = findLink(ctx, id);
  if (!row || row.person_id !== person.personId || row.account_id !== person.accountId) throw notFound('No such device link.');
  return row;
}

/** The person's link, as they may read it (never its code). */
export function getDeviceLink(ctx: ServerContext, person: Person, id: string): DeviceLink {
  return toDeviceLink(ownLink(ctx, person, id), isoNow(ctx.clock));
}

/** A page of the person's links, newest last, optionally of one status. */
export function listDeviceLinks(
  ctx: ServerContext,
  person: Person,
  query: { limit: number; cursor?: string | undefined; status?: DeviceLinkStatus | undefined },
) {
  const now = isoNow(ctx.clock);
  const status = query.status ?? null;
  const rows = stmt<unknown[], LinkRow>(
    ctx.db,
    `
    SELECT * FROM device_links WHERE person_id = ? AND account_id = ? AND seq > ?
      AND (? IS NULL
        OR (? = 'expired' AND status = 'pending' AND expires_at <= ?)
        OR (? = 'pending' AND status = 'pending' AND expires_at > ?)
        OR (? NOT IN ('expired', 'pending') AND status = ?))
    ORDER BY seq LIMIT ?`,
  ).all(person.personId, person.accountId, decodeCursor(query.cursor), status, status, now, status, now, status, status, query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { device_links: items.map((row) => toDeviceLink(row, now)), next_cursor };
}

/** Cancels a pending link; any other status is the 409 naming the transition. */
export function cancelDeviceLink(ctx: ServerContext, person: Person, id: string): DeviceLink {
  return transaction(ctx.db, () => {
    const row = ownLink(ctx, person, id);
    const now = isoNow(ctx.clock);
    const status = statusOf(row, now);
    if (status !== 'pending') {
      throw new ApiError(409, `Device link ${row.id} cannot go from ${status} to cancelled.`, 'illegal_transition', [
        { path: 'status', code: 'illegal_transition', message: `from ${status} to cancelled is not allowed` },
      ]);
    }
    stmt(ctx.db, "UPDATE device_links SET status = 'cancelled', cancelled_at = ? WHERE id = ?").run(now, row.id);
    return toDeviceLink(findLink(ctx, row.id)!, now);
  });
}

const invalidCode = (message: string) => unprocessable(message, 'invalid_code', [{ path: 'code', code: 'invalid_code', message }]);

/**
 * Claims a link with its code, on the person's second device: a trust pairing of the two devices. The code is
 * compared in constant time with each of the person's links of the last day (every one, whatever matched). A wrong
 * code is 422 `invalid_code` and counts against each pending link, locking those that reach five; a right code of
 * an expired link is 410 `device_link_expired`, of a cancelled one 410 `device_link_cancelled`, of a claimed one 409
 * `device_link_used`, of a locked one 409 `device_link_locked`; the sign-in that made the link cannot claim it (409
 * `same_device`). Past the person's guessing limit every claim is 429 `rate_limited` with `Retry-After`, the right
 * code too, until the window ends.
 */
export async function claimDeviceLink(
  ctx: ServerContext,
  person: Person,
  input: { code: string; device_name: string },
  tokenHash: string,
): Promise<TrustPairing> {
  assertHomedHere(ctx, person.personId);
  const code = normaliseCode(input.code);
  if (!code)
    throw invalidCode(
      `A device link code is ${DEVICE_CODE_LENGTH} characters of ${DEVICE_CODE_ALPHABET} (hyphens and spaces are ignored).`,
    );
  const guesses: Target[] = [['device_link_code', person.personId]];
  const limited = await guessLimits(ctx).limited(guesses);
  if (limited) throw tooManyGuesses(`Too many wrong device link codes: try again ${waitText(limited)}.`, limited);
  const outcome = matchCode(ctx, person, code, input.device_name, tokenHash);
  if ('error' in outcome) {
    if (outcome.missed) await guessLimits(ctx).missed(guesses);
    throw outcome.error;
  }
  return toTrustPairing(outcome.pairing);
}

/** The claim's transaction: the link the code matches, paired; or the error, and whether the code matched nothing. */
function matchCode(
  ctx: ServerContext,
  person: Person,
  code: string,
  deviceName: string,
  tokenHash: string,
): { pairing: PairingRow } | { error: ApiError; missed?: boolean } {
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const since = new Date(Date.parse(now) - CLAIM_WINDOW_MS).toISOString();
    const candidates = stmt<[string, string, string, number], LinkRow>(
      ctx.db,
      'SELECT * FROM device_links WHERE person_id = ? AND account_id = ? AND created_at >= ? ORDER BY seq DESC LIMIT ?',
    ).all(person.personId, person.accountId, since, CLAIM_CANDIDATES);
    let match: LinkRow | undefined;
    for (const candidate of candidates) {
      // Every candidate is compared, so how long a claim takes does not say which one matched.
      const equal = safeEqual(codeHash(candidate.id, code), candidate.code_hash);
      if (equal && !match) match = candidate;
    }
    if (!match) {
      const pending = candidates.filter((c) => statusOf(c, now) === 'pending');
      let left = DEVICE_LINK_MAX_ATTEMPTS;
      for (const link of pending) {
        const attempts = link.attempts + 1;
        left = Math.min(left, DEVICE_LINK_MAX_ATTEMPTS - attempts);
        stmt(ctx.db, 'UPDATE device_links SET attempts = ?, status = ? WHERE id = ?').run(
          attempts,
          attempts >= DEVICE_LINK_MAX_ATTEMPTS ? 'locked' : 'pending',
          link.id,
        );
      }
      // Committed: the count of wrong codes must stand although the answer is an error.
      return {
        missed: true,
        error: invalidCode(
          `The code matches no device link of yours.${
            pending.length === 0
              ? ''
              : left > 0
                ? ` ${left} more wrong code${left === 1 ? '' : 's'} lock${left === 1 ? 's' : ''} your pending device links.`
                : ' Your pending device links are now locked: make a new one.'
          }`,
        ),
      };
    }
    const status = statusOf(match, now);
    if (status === 'expired')
      return {
        error: new ApiError(
          410,
          `That code expired at ${match.expires_at}: make a new device link on your first device.`,
          'device_link_expired',
        ),
      };
    if (status === 'cancelled')
      return { error: new ApiError(410, 'That device link was cancelled: make a new one on your first device.', 'device_link_cancelled') };
    if (status === 'claimed')
      return { error: new ApiError(409, 'That code was already used: a code pairs one device, once.', 'device_link_used') };
    if (status === 'locked')
      return { error: new ApiError(409, 'That device link is locked after too many wrong codes: make a new one.', 'device_link_locked') };
    if (safeEqual(tokenHash, match.token_hash)) {
      return { error: new ApiError(409, 'Enter the code on your other device: this sign-in made the device link.', 'same_device') };
    }
    const pairingId = homedId(ctx.country, 'pair_', 20);
    stmt(
      ctx.db,
      `INSERT INTO trust_pairings (id, account_id, person_id, device_link_id, initiator_device_name, initiator_client_id,
        claimant_device_name, claimant_client_id, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
    ).run(pairingId, match.account_id, match.person_id, match.id, match.device_name, match.client_id, deviceName, person.clientId, now);
    stmt(ctx.db, "UPDATE device_links SET status = 'claimed', claimed_at = ?, trust_pairing_id = ? WHERE id = ?").run(
      now,
      pairingId,
      match.id,
    );
    return { pairing: findPairing(ctx, pairingId)! };
  });
}

// ---- Trust pairings ---------------------------------------------------------------------------------------------

const findPairing = (ctx: ServerContext, id: string) =>
  stmt<[string], PairingRow>(ctx.db, 'SELECT * FROM trust_pairings WHERE id = ?').get(id);

export function toTrustPairing(row: PairingRow): TrustPairing {
  return {
    id: row.id,
    status: row.status,
    user_id: row.person_id,
    device_link_id: row.device_link_id,
    initiator: { device_name: row.initiator_device_name, client_id: row.initiator_client_id },
    claimant: { device_name: row.claimant_device_name, client_id: row.claimant_client_id },
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** The pairing `id` as `principal` may see it (the person's own; the account's for an API token), or the 404. */
export function visiblePairing(ctx: ServerContext, principal: Principal, id: string): PairingRow {
  assertHomedHere(ctx, id);
  const row = findPairing(ctx, id);
  if (!row || row.account_id !== principal.accountId || (principal.kind === 'person' && row.person_id !== principal.personId)) {
    throw notFound('No such trust pairing.');
  }
  return row;
}

/** A page of the pairings `principal` sees, oldest first. */
export function listTrustPairings(
  ctx: ServerContext,
  principal: Principal,
  query: { limit: number; cursor?: string | undefined; status?: 'active' | 'revoked' | undefined },
) {
  const person = principal.kind === 'person' ? principal.personId : null;
  const rows = stmt<[string, string | null, string | null, number, string | null, string | null, number], PairingRow>(
    ctx.db,
    `
    SELECT * FROM trust_pairings WHERE account_id = ? AND (? IS NULL OR person_id = ?) AND seq > ? AND (? IS NULL OR status = ?)
    ORDER BY seq LIMIT ?`,
  ).all(principal.accountId, person, person, decodeCursor(query.cursor), query.status ?? null, query.status ?? null, query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { trust_pairings: items.map(toTrustPairing), next_cursor };
}

/** Revokes an active pairing (the person, or the organisation with `write`); a revoked one is the 409. */
export function revokeTrustPairing(ctx: ServerContext, row: PairingRow): TrustPairing {
  return transaction(ctx.db, () => {
    const current = findPairing(ctx, row.id)!;
    if (current.status !== 'active') {
      throw new ApiError(
        409,
        `Trust pairing ${current.id} is already revoked: it cannot go from revoked to revoked.`,
        'illegal_transition',
        [{ path: 'status', code: 'illegal_transition', message: 'from revoked to revoked is not allowed' }],
      );
    }
    stmt(ctx.db, "UPDATE trust_pairings SET status = 'revoked', revoked_at = ? WHERE id = ?").run(isoNow(ctx.clock), current.id);
    return toTrustPairing(findPairing(ctx, current.id)!);
  });
}
