import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { countryCode } from './countries.js';

/**
 * The format of the credentials the service issues: an IETF SD-JWT VC (`typ: dc+sd-jwt`, the media type of the
 * current SD-JWT VC drafts; older drafts named it `vc+sd-jwt`, which presentations may still carry).
 */
export const CREDENTIAL_FORMAT = 'dc+sd-jwt';

/** How long a credential is valid when the request names no `validity_days`, and the most it may name. */
export const CREDENTIAL_DEFAULT_VALIDITY_DAYS = 90;
export const CREDENTIAL_MAX_VALIDITY_DAYS = 365;

/** The most a presentation (SD-JWT with its disclosures and key binding JWT) may weigh, in characters. */
export const PRESENTATION_MAX_LENGTH = 64 * 1024;

/**
 * A credential type, the credential's `vct`: a name (`ConsentCredential`) or a URI, at most 200 characters of
 * letters, digits and `_ . : / # -`.
 */
export const credentialType = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z][A-Za-z0-9_.:/#-]{0,199}$/,
      'must be a name or URI of at most 200 characters (letters, digits, _ . : / # -), starting with a letter',
    ),
  );

/**
 * A holder's public key (a P-256 JWK, no private part) the credential is bound to: its `cnf.jwk`. A presentation of a
 * bound credential must then carry a key binding JWT signed with the matching private key over the verifier's nonce.
 */
export const holderJwk = z
  .looseObject({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 coordinate')),
    y: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 coordinate')),
  })
  .check(z.refine((jwk) => !('d' in jwk), 'holder_jwk must be a public key: it has a private part ("d")'));
export type HolderJwk = z.infer<typeof holderJwk>;

/**
 * `POST /api/v1/credentials` (the spec's CreateCredentialRequest): a verifiable credential of a fulfilled consent
 * decision of this cell, named by its `consent_transaction_id`. `holder_jwk` (additive) binds it to a holder's key.
 */
export const createCredentialRequest = z.strictObject({
  consent_transaction_id: z.string().check(z.minLength(1), z.maxLength(64)),
  credential_type: credentialType,
  /** Days until the credential expires (default 90, at most 365); never later than the consent itself expires. */
  validity_days: z.optional(z.int().check(z.gte(1), z.lte(CREDENTIAL_MAX_VALIDITY_DAYS))),
  holder_jwk: z.optional(holderJwk),
});
export type CreateCredentialRequest = z.input<typeof createCredentialRequest>;

/** A credential's status: `active`, `revoked` (its bit set in the status list), or `expired` (past `expires_at`). */
export const credentialStatus = z.enum(['active', 'revoked', 'expired']);
export type CredentialStatus = z.infer<typeof credentialStatus>;

/** Where a credential's status is published: the `status.status_list` claim (IETF Token Status List). */
export const statusListReference = z.object({ idx: z.int(), uri: z.string() });
export type StatusListReference = z.infer<typeof statusListReference>;

/**
 * An issued credential. `credential` is the SD-JWT VC itself (issuer-signed JWT, then every disclosure, `~`
 * separated): the holder keeps it and presents it with only the disclosures they choose (`presentCredential` in
 * `@svc/client/credentials`).
 */
export const credential = z.object({
  id: z.string(),
  credential_type: z.string(),
  format: z.literal(CREDENTIAL_FORMAT),
  status: credentialStatus,
  issued_at: dateTime(),
  expires_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
  /** The country cell that issued it (and whose published key verifies it). */
  home_country: countryCode,
  application_id: z.string(),
  consent_transaction_id: z.string(),
  /** The granted purposes it attests, each a selectively disclosable claim `purposes.<key>`. */
  purposes: z.array(z.string()),
  /** Whether it is bound to a holder key (`cnf.jwk`). */
  holder_bound: z.boolean(),
  status_list: statusListReference,
  credential: z.string(),
});
export type Credential = z.infer<typeof credential>;

export const credentialEnvelope = z.object({ credential });
export const credentialList = listOf('credentials', credential);
export const credentialListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(credentialStatus),
  consent_transaction_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type CredentialListQuery = z.input<typeof credentialListQuery>;

/**
 * `POST /api/v1/presentations`: a presented SD-JWT VC (the issuer-signed JWT, the disclosures the holder chose, and a
 * key binding JWT when the credential is bound). `nonce` is the verifier's challenge the key binding JWT must carry
 * (required for a bound credential); `audience` what its `aud` must be (default: this cell's base URL).
 * `application_id` names the verifying application a cross-border transfer is recorded for (default: the account's
 * first application).
 */
export const verifyPresentationRequest = z.strictObject({
  presentation: z.string().check(z.minLength(1), z.maxLength(PRESENTATION_MAX_LENGTH)),
  nonce: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  audience: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
  application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type VerifyPresentationRequest = z.input<typeof verifyPresentationRequest>;

/**
 * What a verified presentation proves. `valid` is true when the issuer's signature, every disclosure and the key
 * binding (if any) check out and the credential is neither expired nor revoked. `disclosed_claims` holds what the
 * holder disclosed plus the claims that are always visible (`home_country`); `undisclosed_count` how many selectively
 * disclosable claims stayed hidden. `status_checked_at` is when the status list the answer used was fetched (a list
 * is cached until its `ttl`, so a revocation shows once it is refreshed).
 */
export const presentationVerification = z.object({
  valid: z.boolean(),
  credential_id: z.optional(z.string()),
  credential_type: z.string(),
  issuer: z.string(),
  issuer_country: countryCode,
  disclosed_claims: z.record(z.string(), z.unknown()),
  undisclosed_count: z.int(),
  key_bound: z.boolean(),
  revoked: z.boolean(),
  status_checked_at: dateTime(),
  issued_at: z.nullable(dateTime()),
  expires_at: dateTime(),
});
export type PresentationVerification = z.infer<typeof presentationVerification>;
export const presentationEnvelope = z.object({ presentation: presentationVerification });

/** One credential configuration of the issuer metadata (OpenID4VCI `credential_configurations_supported`). */
export const credentialConfiguration = z.looseObject({
  format: z.string(),
  vct: z.string(),
  scope: z.optional(z.string()),
  cryptographic_binding_methods_supported: z.optional(z.array(z.string())),
  credential_signing_alg_values_supported: z.optional(z.array(z.string())),
  proof_types_supported: z.optional(z.record(z.string(), z.unknown())),
  display: z.optional(z.array(z.record(z.string(), z.unknown()))),
});

/** `GET /.well-known/openid-credential-issuer`: the cell's OpenID4VCI issuer metadata. */
export const credentialIssuerMetadata = z.looseObject({
  credential_issuer: z.string(),
  credential_endpoint: z.string(),
  jwks_uri: z.optional(z.string()),
  display: z.optional(z.array(z.record(z.string(), z.unknown()))),
  credential_configurations_supported: z.record(z.string(), credentialConfiguration),
});
export type CredentialIssuerMetadata = z.infer<typeof credentialIssuerMetadata>;
