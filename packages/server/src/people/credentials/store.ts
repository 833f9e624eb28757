// A person's own credentials: the credentials an organisation issued of their consent decisions (found through the
// consent record each decision made, which names the person row), how each reads for them, and what they presented.
// What an organisation's client sees stops at that organisation, as for the person's records.
import type { CredentialStatus, PersonCredential, PersonCredentialClaim, PersonPresentation, SharedClaim } from '@svc/schemas';
import { credentialClaims, disclosableClaims } from '@svc/client/credentials';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { getFlowVersion } from '../../platform/flows/store.js';
import { issuerMetadata } from '../../consent/credentials/routes.js';
import { toCredential, type CredentialRow } from '../../consent/credentials/store.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

/** A credential row with the organisation, application and person row of the consent it attests. */
export type PersonCredentialRow = CredentialRow & {
  organisation_name: string;
  application_name: string;
  person_id: string;
  flow_id: string;
  flow_version: number;
};

const SELECT = `SELECT c.*, a.name AS organisation_name, ap.name AS application_name, r.person_id, r.flow_id, r.flow_version
  FROM credentials c
  JOIN consent_records r ON r.application_id = c.application_id AND r.idempotency_key = 'decision:' || c.decision_id
  JOIN accounts a ON a.id = c.account_id JOIN applications ap ON ap.id = c.application_id`;
const WHOSE = readerPersons('r.person_id');

/** Claims about the token, not its subject: never shown to the person as something they share. */
const TOKEN_CLAIMS = new Set(['iss', 'iat', 'nbf', 'exp', 'vct', 'vct#integrity', 'status', 'cnf', '_sd_alg']);

/** What the issuer metadata says of a credential configuration: its type, its display name, its claims' names. */
interface Configuration {
  vct?: string;
  display?: { name: string }[];
  claims?: { path: string[]; display?: { name: string }[] }[];
}

const configurations = (ctx: ServerContext) => Object.values(issuerMetadata(ctx).credential_configurations_supported) as Configuration[];

/** Labels of the claims the service issues (the issuer metadata's, and those it does not describe). */
const LABELS: Record<string, string> = { jti: 'Credential id', flow_id: 'Consent flow' };

/** A page of the reader's credentials, most recently issued first, optionally of one status now. */
export async function listPersonCredentials(
  ctx: ServerContext,
  reader: PersonReader,
  page: { limit?: number | undefined; cursor?: string | undefined; status?: CredentialStatus | undefined },
): Promise<{ credentials: PersonCredential[]; next_cursor: string | null }> {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const now = new Date(ctx.clock.now()).toISOString();
  const status = {
    revoked: ['c.revoked_at IS NOT NULL', []],
    expired: ['c.revoked_at IS NULL AND c.expires_at <= ?', [now]],
    active: ['c.revoked_at IS NULL AND c.expires_at > ?', [now]],
  } as const;
  const [condition, params] = page.status ? status[page.status] : ['1', []];
  const rows = stmt<unknown[], PersonCredentialRow>(
    ctx.db,
    `${SELECT} WHERE ${WHOSE} AND c.credential <> '' AND c.seq < ? AND ${condition} ORDER BY c.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, ...params, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { credentials: await Promise.all(items.map((row) => toPersonCredential(ctx, row))), next_cursor };
}

/** The reader's credential `id`, or undefined: another person's (or organisation's, for its client) is not there. */
export function findPersonCredential(ctx: ServerContext, reader: PersonReader, id: string): PersonCredentialRow | undefined {
  return stmt<unknown[], PersonCredentialRow>(ctx.db, `${SELECT} WHERE c.id = ? AND c.credential <> '' AND ${WHOSE}`).get(
    id,
    ...readerParams(reader),
  );
}

/** The label of a claim path: a purpose's label in the terms the person agreed to, else the issuer's display name. */
export function claimLabeller(ctx: ServerContext, row: PersonCredentialRow): (path: string) => string {
  const purposes = new Map(getFlowVersion(ctx, row.flow_id, row.flow_version)?.config.purposes.map((p) => [p.key, p.label]));
  const config = configurations(ctx).find((c) => c.vct === row.credential_type) ?? configurations(ctx)[0];
  const display = new Map(config?.claims?.map((c) => [c.path.join('.'), c.display?.[0]?.name ?? c.path.join('.')]));
  return (path) => {
    if (path.startsWith('purposes.')) {
      const key = path.slice('purposes.'.length);
      return `Purpose: ${purposes.get(key) ?? key}`;
    }
    return display.get(path) ?? LABELS[path] ?? path;
  };
}

/** Every claim of a credential as its holder reads it (dotted paths, scalar values), with whether it is always shown. */
export async function claimsOf(ctx: ServerContext, row: PersonCredentialRow): Promise<PersonCredentialClaim[]> {
  const label = claimLabeller(ctx, row);
  const disclosable = new Set(await disclosableClaims(row.credential));
  const claims: PersonCredentialClaim[] = [];
  const visit = (value: unknown, path: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, member] of Object.entries(value)) visit(member, path ? `${path}.${key}` : key);
      return;
    }
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
    claims.push({ path, label: label(path), value: scalar, required: !disclosable.has(path) });
  };
  const all = await credentialClaims(row.credential);
  for (const [key, value] of Object.entries(all)) if (!TOKEN_CLAIMS.has(key)) visit(value, key);
  // The always-shared claims first, then the ones the person chooses, in the credential's order.
  return [...claims.filter((c) => c.required), ...claims.filter((c) => !c.required)];
}

/** The credential's name: its type's display name in the issuer metadata, else the type. */
function nameOf(ctx: ServerContext, type: string): string {
  const config = configurations(ctx).find((c) => c.vct === type);
  return config?.display?.[0]?.name ?? type;
}

/** A credential as the person reads it: never the SD-JWT itself. */
export async function toPersonCredential(ctx: ServerContext, row: PersonCredentialRow): Promise<PersonCredential> {
  const credential = toCredential(ctx, row);
  return {
    id: row.id,
    credential_type: row.credential_type,
    name: nameOf(ctx, row.credential_type),
    status: credential.status,
    issued_at: row.issued_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    home_country: ctx.country,
    organisation: { id: row.account_id, name: row.organisation_name },
    application: { id: row.application_id, name: row.application_name },
    holder_bound: credential.holder_bound,
    presentable: credential.status === 'active' && !credential.holder_bound,
    claims: await claimsOf(ctx, row),
  };
}

// ---- what the person presented ------------------------------------------------------------------------------

interface PresentationRow {
  seq: number;
  id: string;
  credential_id: string;
  audience: string;
  nonce: string | null;
  disclosed: string;
  presented_at: string;
  credential_type: string;
  account_id: string;
  organisation_name: string;
}

const PRESENTATIONS = `SELECT p.*, c.credential_type, c.account_id, a.name AS organisation_name
  FROM person_presentations p JOIN credentials c ON c.id = p.credential_id JOIN accounts a ON a.id = c.account_id`;

/** Records what the person presented (in the transaction of nothing else: presenting changes no other state). */
export function recordPresentation(
  ctx: ServerContext,
  input: { id: string; row: PersonCredentialRow; audience: string; nonce: string | null; disclosed: SharedClaim[]; at: string },
): PersonPresentation {
  stmt(
    ctx.db,
    `INSERT INTO person_presentations (id, credential_id, person_id, audience, nonce, disclosed, presented_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(input.id, input.row.id, input.row.person_id, input.audience, input.nonce, JSON.stringify(input.disclosed), input.at);
  const saved = stmt<[string], PresentationRow>(ctx.db, `${PRESENTATIONS} WHERE p.id = ?`).get(input.id)!;
  return toPersonPresentation(ctx, saved);
}

/** A page of what the reader presented, most recent first, optionally of one credential. */
export function listPersonPresentations(
  ctx: ServerContext,
  reader: PersonReader,
  page: { limit?: number | undefined; cursor?: string | undefined; credential_id?: string | undefined },
): { presentations: PersonPresentation[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const credential = page.credential_id ?? null;
  const rows = stmt<unknown[], PresentationRow>(
    ctx.db,
    `${PRESENTATIONS} WHERE ${readerPersons('p.person_id')} AND (? IS NULL OR p.credential_id = ?) AND p.seq < ?
      ORDER BY p.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), credential, credential, before, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { presentations: items.map((row) => toPersonPresentation(ctx, row)), next_cursor };
}

function toPersonPresentation(ctx: ServerContext, row: PresentationRow): PersonPresentation {
  return {
    id: row.id,
    credential_id: row.credential_id,
    credential_name: nameOf(ctx, row.credential_type),
    organisation: { id: row.account_id, name: row.organisation_name },
    audience: row.audience,
    nonce: row.nonce,
    disclosed: JSON.parse(row.disclosed) as SharedClaim[],
    presented_at: row.presented_at,
  };
}
