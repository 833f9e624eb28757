// A person presents one of their credentials with the claims they chose: the presentation is made by the holder's
// own function (`presentCredential` of @svc/client/credentials, the SD-JWT library's `present`), checked by the
// service's verifier (`POST /api/v1/presentations`'s function), and what was shared with whom is kept for the person.
import type { CreatedPersonPresentation, CreatePersonPresentationRequest, SharedClaim } from '@svc/schemas';
import { presentCredential } from '@svc/client/credentials';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { toCredential } from '../../consent/credentials/store.js';
import { verifyPresentation } from '../../consent/credentials/verify.js';
import { claimLabeller, claimsOf, recordPresentation, type PersonCredentialRow } from './store.js';

const refuse = (path: string, code: string, message: string): ApiError => unprocessable(message, code, [{ path, code, message }]);

/** Refuses a credential the service cannot present for the person: revoked, expired, or bound to their wallet's key. */
function assertPresentable(ctx: ServerContext, row: PersonCredentialRow): void {
  const { status, holder_bound } = toCredential(ctx, row);
  if (status !== 'active') throw refuse('id', 'credential_not_active', `This credential is ${status}: it can no longer be presented.`);
  if (holder_bound) {
    throw refuse(
      'id',
      'holder_key_required',
      'This credential is bound to a key your wallet holds: present it from that wallet, which proves you hold the key.',
    );
  }
}

/**
 * The paths to disclose: the chosen ones the credential lets the person withhold (the always-shared ones need no
 * choosing). A path the credential does not have is a 422 naming it.
 */
async function chosenPaths(
  ctx: ServerContext,
  row: PersonCredentialRow,
  disclose: readonly string[],
): Promise<{ shared: SharedClaim[]; selective: string[] }> {
  const claims = await claimsOf(ctx, row);
  const byPath = new Map(claims.map((c) => [c.path, c]));
  for (const [index, path] of disclose.entries()) {
    if (!byPath.has(path)) {
      throw unprocessable(`This credential has no claim ${JSON.stringify(path)}.`, 'unknown_claim', [
        { path: `disclose.${index}`, code: 'unknown_claim', message: `no claim ${path} in this credential` },
      ]);
    }
  }
  const chosen = new Set(disclose);
  const label = claimLabeller(ctx, row);
  const shared = claims.filter((c) => c.required || chosen.has(c.path));
  return {
    shared: shared.map((c) => ({ path: c.path, label: label(c.path) })),
    selective: shared.filter((c) => !c.required).map((c) => c.path),
  };
}

/**
 * Makes a presentation of the person's credential `row` that discloses exactly the chosen claims (and those the
 * issuer always shows), has the service's verifier check it, and records what was shared with `audience`.
 */
export async function presentForPerson(
  ctx: ServerContext,
  row: PersonCredentialRow,
  input: CreatePersonPresentationRequest,
): Promise<CreatedPersonPresentation> {
  assertPresentable(ctx, row);
  const { shared, selective: disclose } = await chosenPaths(ctx, row, input.disclose);
  const presentation = await presentCredential(row.credential, { disclose });
  let verification: CreatedPersonPresentation['verification'] = null;
  try {
    verification = await verifyPresentation(ctx, row.account_id, { presentation });
  } catch (err) {
    // The status list out of reach says nothing about the presentation: it is still made, unchecked for now.
    if (!(err instanceof ApiError) || err.status < 500) throw err;
  }
  const recorded = recordPresentation(ctx, {
    id: homedId(ctx.country, 'prs_', 20),
    row,
    audience: input.audience,
    nonce: input.nonce ?? null,
    disclosed: shared,
    at: isoNow(ctx.clock),
  });
  ctx.metrics.increment('credentials.person_presentations_total', {});
  return { ...recorded, presentation, verification };
}
