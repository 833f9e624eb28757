// Render proofs: a JWS the render endpoint signs with the server's key, which the consent field sends back with its
// capture (`X-Svc-Render-Proof`). A valid proof is what makes a capture `embedded_field`: it shows the service
// rendered this flow version's wording for this origin, recently.
import { RENDER_PROOF_LIFETIME_SECONDS, RENDER_PROOF_TYP, type RenderProofClaims } from '@svc/schemas';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { CellInfo } from '../../infra/cells/directory.js';
import type { ServerContext } from '../../infra/context.js';
import { ApiError } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';

/** The request header that carries a render proof. */
export const RENDER_PROOF_HEADER = 'X-Svc-Render-Proof';

/** The audience of every render proof: the capture endpoint it is meant for. */
export const renderProofAudience = (ctx: Pick<ServerContext, 'baseUrl'>) => `${ctx.baseUrl}/api/v1/captures`;

/** Another cell's published keys as jose's resolver, made once per cell. */
const cellKeySets = new WeakMap<CellInfo, ReturnType<typeof createLocalJWKSet>>();

/**
 * The cell that signed a proof, by its claimed issuer: the field renders at one cell and captures at the person's
 * home cell, which verifies the proof with the signing cell's published keys (no call to it).
 */
function signingCell(ctx: ServerContext, token: string): { baseUrl: string; keySet: ReturnType<typeof createLocalJWKSet> } {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    issuer = undefined;
  }
  const cell = ctx.cells.list().find((c) => c.base_url === issuer && c.country !== ctx.country);
  if (!cell) return { baseUrl: ctx.baseUrl, keySet: ctx.keys.keySet };
  let keySet = cellKeySets.get(cell);
  if (!keySet) cellKeySets.set(cell, (keySet = createLocalJWKSet(cell.jwks)));
  return { baseUrl: cell.base_url, keySet };
}

/** What a render proof binds. */
export interface RenderBinding {
  application_id: string;
  flow_id: string;
  flow_version: number;
  origin: string;
  /** `sha256:<hex>`, the privacy_notice hash of the version's wording. */
  notice_hash: string;
}

/** An issued proof. */
export interface IssuedProof {
  token: string;
  jti: string;
  issued_at: string;
  expires_at: string;
}

/** Signs a render proof (ES256, the server's current key) valid for one hour of the server clock. */
export async function issueRenderProof(ctx: ServerContext, binding: RenderBinding): Promise<IssuedProof> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const exp = iat + RENDER_PROOF_LIFETIME_SECONDS;
  const jti = newId('rp_', 22);
  const token = await new SignJWT({ ...binding })
    .setProtectedHeader({ alg: ctx.keys.alg, kid: ctx.keys.kid, typ: RENDER_PROOF_TYP })
    .setIssuer(ctx.baseUrl)
    .setAudience(renderProofAudience(ctx))
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(ctx.keys.privateKey);
  return { token, jti, issued_at: new Date(iat * 1000).toISOString(), expires_at: new Date(exp * 1000).toISOString() };
}

/** A refusal of a render proof: 422 with a stable code and the header named as the path. */
function refuse(code: string, message: string, options?: ErrorOptions): ApiError {
  return new ApiError(422, message, { code, errors: [{ path: RENDER_PROOF_HEADER, code, message }], ...options });
}

const COMPACT_JWS = /^[A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{1,4000}\.[A-Za-z0-9_-]{1,200}$/;

/**
 * Verifies a render proof against the keys of the cell that issued it (this cell's or another's, as the cell
 * directory publishes them; every key in a JWKS, so a proof survives a key rotation) and the server clock, then checks it was issued for `expected`. Refusals (422):
 * `render_proof_invalid` (malformed, bad signature, wrong typ, issuer or audience, missing claims),
 * `render_proof_expired`, `render_proof_mismatch` (another application, flow, origin or wording) and
 * `render_proof_stale` (the flow has published a newer version since the field rendered).
 */
export async function verifyRenderProof(
  ctx: ServerContext,
  token: string,
  expected: Omit<RenderBinding, 'origin'> & { origin: string | undefined },
): Promise<RenderProofClaims> {
  if (!COMPACT_JWS.test(token)) throw refuse('render_proof_invalid', 'The render proof is not a compact JWS.');
  let payload: Record<string, unknown>;
  const signer = signingCell(ctx, token);
  try {
    ({ payload } = await jwtVerify(token, signer.keySet, {
      algorithms: ['ES256'],
      typ: RENDER_PROOF_TYP,
      issuer: signer.baseUrl,
      audience: renderProofAudience(signer),
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['jti', 'iat', 'exp'],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      throw refuse('render_proof_expired', 'The render proof has expired: fetch the render data again.', { cause: err });
    throw refuse('render_proof_invalid', 'The render proof is not valid: it was not issued by this service for captures.', { cause: err });
  }
  const claims = payload as Partial<RenderProofClaims>;
  const str = (v: unknown): v is string => typeof v === 'string';
  if (
    !str(claims.application_id) ||
    !str(claims.flow_id) ||
    !Number.isInteger(claims.flow_version) ||
    !str(claims.origin) ||
    !str(claims.notice_hash)
  ) {
    throw refuse('render_proof_invalid', 'The render proof lacks its binding claims.');
  }
  if (claims.application_id !== expected.application_id) {
    throw refuse('render_proof_mismatch', 'The render proof was issued for another application.');
  }
  if (claims.flow_id !== expected.flow_id) throw refuse('render_proof_mismatch', 'The render proof was issued for another flow.');
  if (expected.origin === undefined || claims.origin !== expected.origin) {
    throw refuse('render_proof_mismatch', 'The render proof was issued for another origin than the one this capture comes from.');
  }
  if (claims.flow_version !== expected.flow_version) {
    throw refuse(
      'render_proof_stale',
      `The flow has published version ${expected.flow_version} since the field rendered version ${claims.flow_version}: render it again.`,
    );
  }
  if (claims.notice_hash !== expected.notice_hash) {
    throw refuse('render_proof_mismatch', 'The render proof names other wording than the flow version publishes.');
  }
  return claims as RenderProofClaims;
}
