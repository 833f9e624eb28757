import { z } from 'zod/mini';
import { countryCode } from './countries.js';

/**
 * The capture snapshot limit: 16 KB, counted as 16384 bytes of the snapshot's UTF-8 encoding (a limit on what
 * travels and is stored is a limit on bytes; counting characters would let a multi-byte snapshot reach 64 KB).
 */
export const CAPTURE_SNAPSHOT_MAX_BYTES = 16384;

/** Most purposes one capture may name (a flow declares at most 50). */
export const CAPTURE_MAX_PURPOSES = 50;

let encoder: TextEncoder | undefined;
const utf8ByteLength = (text: string): number => (encoder ??= new TextEncoder()).encode(text).length;

// A purpose key as a capture names it. Not the flow's key pattern: a key the flow does not resolve is refused by
// name by the server (Errors rule 3), not rejected here as malformed; keys longer than a flow key never resolve.
const purposeKey = z.string().check(z.minLength(1), z.maxLength(64));

const maxPurposes = <T extends object>(what: string) =>
  z.refine<T>((map) => Object.keys(map).length <= CAPTURE_MAX_PURPOSES, `${what} may name at most ${CAPTURE_MAX_PURPOSES} purposes`);

/**
 * A notice digest: `sha256:<64 hex>` from the capture helper, or whatever printable digest the render endpoint
 * published; the server compares it with the published wording and records match or drift, never refuses it.
 */
export const noticeDigest = z.string().check(z.regex(/^[A-Za-z0-9+/=_:.-]{1,200}$/, 'must be a digest string such as sha256:<hex>'));

/** A decision on one purpose: `granted` or `declined`. */
export const purposeDecision = z.enum(['granted', 'declined']);
export type PurposeDecision = z.infer<typeof purposeDecision>;

/**
 * Decision entry (per purpose key): the decision and how the control was presented. A consent purpose attested
 * as default-ticked or mandatory is refused by the server.
 */
export const decisionEntry = z.strictObject({
  decision: purposeDecision,
  /** The control was shown ticked by default. */
  default_checked: z.optional(z.boolean()),
  /** The control was required to submit the form. */
  mandatory: z.optional(z.boolean()),
});
export type DecisionEntry = z.infer<typeof decisionEntry>;

/** Who the capture is about, when the page knows it; the commit (`authorize`) binds the person by email. */
export const captureSubject = z.strictObject({
  email: z.optional(z.email().check(z.maxLength(320))),
  /** The organisation's own id of the person; stored on the record, never on the person. */
  external_id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  /** The person's home country: the capture and its record live only in its cell. Default the application's. */
  country: z.optional(countryCode),
});
export type CaptureSubject = z.infer<typeof captureSubject>;

/**
 * `POST /api/v1/captures` (publishable key): the Consent capture request, no additional properties. The consent
 * field sends its render proof in the `X-Svc-Render-Proof` header, since the body admits nothing else.
 */
export const captureRequest = z.strictObject({
  /** The flow whose purposes the form asks (the same id passed when creating a decision). */
  flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
  /** Map purpose key -> Decision entry. */
  decisions: z.record(purposeKey, decisionEntry).check(maxPurposes('decisions')),
  /** The form's id on the page. */
  form_id: z.optional(z.string().check(z.maxLength(200))),
  /** The page the form was on. */
  page_url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2000))),
  /** BCP 47 language tag of the displayed notice. */
  locale: z.optional(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag'))),
  /** Digest of the whole displayed notice text. */
  notice_hash: z.optional(noticeDigest),
  /** Map purpose key -> digest of the notice text shown with that purpose's control. */
  notice_hashes: z.optional(z.record(purposeKey, noticeDigest).check(maxPurposes('notice_hashes'))),
  /** Sanitised snapshot of the consent controls and their labels only, at most 16 KB of UTF-8. */
  snapshot: z.optional(
    // maxLength is the bound a JSON Schema can state (characters never outnumber bytes); the refine is the limit.
    z.string().check(
      z.maxLength(CAPTURE_SNAPSHOT_MAX_BYTES),
      z.refine(
        (s) => utf8ByteLength(s) <= CAPTURE_SNAPSHOT_MAX_BYTES,
        `snapshot must be at most ${CAPTURE_SNAPSHOT_MAX_BYTES} bytes of UTF-8 (16 KB)`,
      ),
    ),
  ),
  subject: z.optional(captureSubject),
  /** Browser commit: refused with 422 `browser_commit_not_allowed` unless the application allows it from this origin. */
  commit: z.optional(z.boolean()),
});
export type CaptureRequest = z.infer<typeof captureRequest>;

/** How the displayed notice compared with the published wording; null when no digest was sent. */
export const wordingVerdict = z.nullable(z.enum(['match', 'wording_drift']));
export type WordingVerdict = z.infer<typeof wordingVerdict>;

/** A capture as the service answers it. */
export const captureResult = z.object({
  /** The capture token: commit it with `POST /api/v1/decisions/{session_token}/authorize` within 24 hours. */
  session_token: z.string(),
  attestation_id: z.string(),
  /** True only for a browser commit. */
  committed: z.boolean(),
  /** The consent record's id once committed, else null. */
  record_id: z.optional(z.nullable(z.string())),
  wording_verdict: z.optional(wordingVerdict),
});
export type CaptureResult = z.infer<typeof captureResult>;

/** `{capture}` envelope: the response of `POST /api/v1/captures`. */
export const captureResponse = z.object({ capture: captureResult });
export type CaptureResponse = z.infer<typeof captureResponse>;
