import { z } from 'zod/mini';
import { dateTime } from './common.js';
import { purposeBasis, purposeMechanism } from './flows.js';

/** The JOSE `typ` of a render proof. */
export const RENDER_PROOF_TYP = 'svc-render-proof+jwt';

/** How long a render proof is valid after it is issued: one hour of the server's clock. */
export const RENDER_PROOF_LIFETIME_SECONDS = 3600;

/** `GET /api/v1/flows/{id}/render` query: the locale the page would like (the flow's own wording is served). */
export const renderQuery = z.object({
  locale: z.optional(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag'))),
});
export type RenderQuery = z.infer<typeof renderQuery>;

/** One purpose row as the consent field shows it. */
export const renderPurpose = z.object({
  key: z.string(),
  label: z.string(),
  description: z.nullable(z.string()),
  basis: purposeBasis,
  /** `explicit`/`informed` get a control that is never pre-ticked, `opt_out` a right-to-object control, `notice` only text. */
  mechanism: purposeMechanism,
  required: z.boolean(),
});
export type RenderPurpose = z.infer<typeof renderPurpose>;

/**
 * What the consent field must show for a flow, and the proof that the service rendered it: `GET
 * /api/v1/flows/{id}/render` (publishable key, from an allowed origin). Send `render_proof` back with the capture
 * in the `X-Svc-Render-Proof` header.
 */
export const flowRender = z.object({
  flow_id: z.string(),
  /** The flow version whose terms these are. */
  version: z.int(),
  /** Locale of the wording (the flow's; a requested locale the flow does not have is not translated). */
  locale: z.string(),
  title: z.string(),
  description: z.nullable(z.string()),
  policy_url: z.nullable(z.string()),
  purposes: z.array(renderPurpose),
  /** `sha256:<hex>`: the receipt's privacy_notice hash of this wording (JCS of the notice document). */
  notice_hash: z.string(),
  /** Compact JWS (ES256, `typ` `svc-render-proof+jwt`, `kid` in `/.well-known/jwks.json`). */
  render_proof: z.string(),
  /** When the proof stops being accepted; fetch a new one before then. */
  render_proof_expires_at: dateTime(),
});
export type FlowRender = z.infer<typeof flowRender>;

/** The claims a render proof carries (its payload). */
export const renderProofClaims = z.object({
  iss: z.string(),
  aud: z.string(),
  jti: z.string(),
  iat: z.int(),
  exp: z.int(),
  application_id: z.string(),
  flow_id: z.string(),
  flow_version: z.int(),
  /** The browser origin the field was rendered for. */
  origin: z.string(),
  notice_hash: z.string(),
});
export type RenderProofClaims = z.infer<typeof renderProofClaims>;
