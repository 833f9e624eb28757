import { z } from 'zod/mini';
import { answerAuthentication, dateTime, listOf, listQuery } from './common.js';
import { httpUri, webOrigin } from './decisions.js';
import { countryCode } from './countries.js';

/**
 * An agreement's status: `pending` until a party signs, `partially_signed` while signatures are fewer than the quorum,
 * `active` once the quorum is reached (the spec's state table; a quorum of one goes from pending to active at once).
 */
export const agreementStatus = z.enum(['pending', 'partially_signed', 'active']);
export type AgreementStatus = z.infer<typeof agreementStatus>;

/**
 * Where the quorum stands: `open` (it can still be reached), `reached`, or `unreachable` (too many parties declined,
 * countered or ran out of time for the quorum ever to be reached).
 */
export const quorumStatus = z.enum(['open', 'reached', 'unreachable']);
export type QuorumStatus = z.infer<typeof quorumStatus>;

/** A party's signing outcome so far (the spec's signing decision outcomes, `pending` before one). */
export const partyStatus = z.enum(['pending', 'signed', 'declined', 'countered', 'expired']);
export type PartyStatus = z.infer<typeof partyStatus>;

/** The most a document to sign may hold, in UTF-8 bytes. */
export const AGREEMENT_DOCUMENT_MAX_BYTES = 200 * 1024;

/** How long the parties have to sign when the request names no `expires_at`: seven days. */
export const AGREEMENT_DEFAULT_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** The furthest `expires_at` may lie ahead: ninety days. */
export const AGREEMENT_MAX_LIFETIME_SECONDS = 90 * 24 * 60 * 60;

const sha256Hex = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256 digest'));

/**
 * `POST /api/v1/agreements`: the document (its text, shown to each party, and its SHA-256, which the server checks),
 * the parties by email with each one's home country, and the quorum (how many signatures make it active).
 */
export const createAgreementRequest = z.strictObject({
  agreement: z
    .strictObject({
      title: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
      document: z.strictObject({
        text: z.string().check(
          z.minLength(1),
          z.refine(
            (t) => new TextEncoder().encode(t).length <= AGREEMENT_DOCUMENT_MAX_BYTES,
            `text must be at most ${AGREEMENT_DOCUMENT_MAX_BYTES} bytes`,
          ),
        ),
        sha256: sha256Hex,
      }),
      parties: z
        .array(
          z.strictObject({
            email: z.email().check(z.maxLength(254)),
            home_country: countryCode,
            name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
          }),
        )
        .check(
          z.minLength(1),
          z.maxLength(50),
          z.refine((parties) => new Set(parties.map((p) => p.email.toLowerCase())).size === parties.length, 'a party appears once'),
        ),
      quorum: z.int().check(z.gte(1)),
      /** The application the agreement belongs to (default: the account's oldest). */
      application_id: z.optional(z.string().check(z.maxLength(64))),
      /**
       * How each party's signing session is delivered (default `redirect`, the full hosted page each party opens from
       * their link). `embed_origin` (required for `embed`) and `redirect_uri` are checked as for decisions: an allowed
       * origin of the application, and an http(s) URL (https for a production application).
       */
      delivery_mode: z.optional(z.enum(['embed', 'popup', 'redirect'])),
      embed_origin: z.optional(webOrigin),
      redirect_uri: z.optional(httpUri),
      /**
       * Until when the parties can sign (default seven days from now, at most ninety): each party's signing session
       * ends `expired` then, and the agreement's webhook endpoints receive `signature.expired` for each party that had
       * not decided.
       */
      expires_at: z.optional(dateTime()),
    })
    .check(
      z.refine((a) => a.quorum <= a.parties.length, { message: 'quorum cannot be more than the number of parties', path: ['quorum'] }),
      z.refine((a) => a.delivery_mode !== 'embed' || a.embed_origin !== undefined, {
        message: 'embed_origin is required when delivery_mode is embed',
        path: ['embed_origin'],
      }),
    ),
});
export type CreateAgreementRequest = z.input<typeof createAgreementRequest>;

/** One party of an agreement, with its signing session while the organisation may hand it out. */
export const agreementParty = z.object({
  id: z.string(),
  email: z.string(),
  name: z.nullable(z.string()),
  home_country: z.string(),
  status: partyStatus,
  /** The party's quorum vote (approve when they signed, deny when they declined or countered), once cast. */
  vote: z.nullable(z.enum(['approve', 'deny'])),
  comment: z.nullable(z.string()),
  decided_at: z.nullable(dateTime()),
  /** The party's signing session: a decision of kind `signature_request` (the server infers the kind). */
  session_token: z.string(),
  url: z.string(),
});
export type AgreementParty = z.infer<typeof agreementParty>;

/** The spec's Agreement, with the document's digest, the quorum and the parties in detail. */
export const agreement = z.object({
  id: z.string(),
  title: z.string(),
  status: agreementStatus,
  quorum_status: quorumStatus,
  /** The parties' ids (the spec's array of strings); `party_details` has each one. */
  parties: z.array(z.string()),
  party_details: z.array(agreementParty),
  quorum: z.int(),
  document_sha256: z.string(),
  application_id: z.string(),
  created_at: dateTime(),
  activated_at: z.nullable(dateTime()),
  /** When the parties' signing sessions end (those still open end `expired`). */
  expires_at: z.nullable(dateTime()),
});
export type Agreement = z.infer<typeof agreement>;

export const agreementEnvelope = z.object({ agreement });
export const agreementList = listOf('agreements', agreement);
export const agreementListQuery = z.object({ ...listQuery.shape, status: z.optional(agreementStatus) });
export type AgreementListQuery = z.input<typeof agreementListQuery>;
/** Path parameter of the agreement endpoints. */
export const agreementPath = z.object({ id: z.string().check(z.maxLength(64)) });

/**
 * One signature: a compact JWS (ES256, `typ: svc-signature+jwt`, `kid` in `/.well-known/jwks.json`) whose payload is
 * `{agreement_id, document_sha256, party_id, party_email, signed_name, signed_at}`.
 */
export const agreementSignature = z.object({
  party_id: z.string(),
  signed_at: dateTime(),
  jws: z.string().check(z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be a compact JWS')),
});
export type AgreementSignature = z.infer<typeof agreementSignature>;

/** The payload each signature's JWS carries. */
export const signaturePayload = z.object({
  agreement_id: z.string(),
  document_sha256: sha256Hex,
  party_id: z.string(),
  party_email: z.string(),
  signed_name: z.string(),
  signed_at: dateTime(),
  /** How the party proved it was them before signing, and when (signatures made before this was recorded lack it). */
  authentication: z.optional(answerAuthentication),
});
export type SignaturePayload = z.infer<typeof signaturePayload>;

/**
 * `GET /api/v1/agreements/{id}/receipt`: "the receipt is the set of signatures". The bundle names the agreement, the
 * document digest and the quorum, and holds each signature's JWS; a verifier checks every JWS against the JWKS and
 * that each payload names this agreement and this document.
 */
export const agreementReceipt = z.object({
  agreement_id: z.string(),
  title: z.string(),
  document_sha256: sha256Hex,
  quorum: z.int(),
  status: agreementStatus,
  signatures: z.array(agreementSignature),
  issued_at: dateTime(),
});
export type AgreementReceipt = z.infer<typeof agreementReceipt>;
export const agreementReceiptEnvelope = z.object({ agreement_receipt: agreementReceipt });

/**
 * The signed receipt `GET /api/v1/agreements/{id}/receipt` answers: `signature` is a compact JWS with detached
 * payload over the RFC 8785 bytes of `agreement_receipt`, like a signed consent receipt (`verifyAgreementReceipt`).
 */
export const signedAgreementReceipt = z.object({ agreement_receipt: agreementReceipt, signature: z.string() });
export type SignedAgreementReceipt = z.infer<typeof signedAgreementReceipt>;

/** A quorum vote: the spec's Cast quorum vote request's fields, per party. */
export const quorumVote = z.object({
  party_id: z.string(),
  vote: z.enum(['approve', 'deny']),
  comment: z.nullable(z.string()),
  cast_at: dateTime(),
});
export type QuorumVote = z.infer<typeof quorumVote>;
/** `GET /api/v1/agreements/{id}/quorum_votes`: every vote cast so far, in the order they were cast. */
export const quorumVoteList = z.object({ quorum_votes: z.array(quorumVote) });

/**
 * The spec's Cast quorum vote request, `POST /api/v1/agreements/{id}/quorum_votes` with a party's own access token (the
 * person whose email is a party's): `approve` signs the document (the same signature a signing session makes), `deny`
 * declines it; either ends the party's signing session. A party votes once.
 */
export const castQuorumVoteRequest = z.strictObject({
  vote: z.enum(['approve', 'deny']),
  comment: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))),
});
export type CastQuorumVoteRequest = z.input<typeof castQuorumVoteRequest>;
/** The vote cast and the agreement after it (its status and quorum status). */
export const quorumVoteCast = z.object({ quorum_vote: quorumVote, agreement });
export type QuorumVoteCast = z.infer<typeof quorumVoteCast>;

/**
 * Agree's multi-party agreement: an agreement whose quorum is two or more (several parties must sign before it is
 * active), with its signatures counted and the quorum votes cast so far. The same resource as
 * `/api/v1/agreements/{id}`, under the same id.
 */
export const multiPartyAgreement = z.extend(agreement, {
  /** Signatures so far (quorum votes `approve`). */
  signed_count: z.int(),
  quorum_votes: z.array(quorumVote),
});
export type MultiPartyAgreement = z.infer<typeof multiPartyAgreement>;
export const multiPartyAgreementEnvelope = z.object({ multi_party_agreement: multiPartyAgreement });
export const multiPartyAgreementList = listOf('multi_party_agreements', multiPartyAgreement);

/** `POST /api/v1/multi_party_agreements`: an agreement's request whose quorum is at least two. */
export const createMultiPartyAgreementRequest = z.strictObject({
  multi_party_agreement: createAgreementRequest.shape.agreement.check(
    z.refine((a) => a.quorum >= 2, { message: 'a multi-party agreement needs a quorum of at least two', path: ['quorum'] }),
  ),
});
export type CreateMultiPartyAgreementRequest = z.input<typeof createMultiPartyAgreementRequest>;
