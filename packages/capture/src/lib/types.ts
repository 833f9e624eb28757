// The capture wire shapes, declared from the spec's "Consent capture" and "Decision entry" rather than imported
// from @svc/client/schemas: the helper ships to browsers alone and depends on nothing but the platform. A unit
// test (request.test.ts) parses what the helper builds with the client's zod schema, so the two cannot drift.

/** A decision on one purpose. */
export type PurposeDecision = 'granted' | 'declined';

/** Decision entry: the decision on one purpose and how its control was presented. */
export interface DecisionEntry {
  /** `granted` when the control was ticked (or the granting choice chosen) at submit, else `declined`. */
  decision: PurposeDecision;
  /** The control was shown ticked by default. */
  default_checked?: boolean;
  /** The control was required to submit the form. */
  mandatory?: boolean;
}

/** Who the capture is about, when the page knows it. */
export interface CaptureSubject {
  /** The person's email address. */
  email?: string;
  /** The organisation's own id of the person. */
  external_id?: string;
}

/** The Consent capture request body of `POST /api/v1/captures`. */
export interface CaptureRequest {
  /** The flow whose purposes the form asks. */
  flow_id: string;
  /** Map purpose key -> decision entry. */
  decisions: Record<string, DecisionEntry>;
  /** The form's id (or name) on the page. */
  form_id?: string;
  /** The page's URL without query string and fragment. */
  page_url?: string;
  /** BCP 47 language tag of the displayed notice. */
  locale?: string;
  /** Digest of the whole displayed notice text, `sha256:<hex>`. */
  notice_hash?: string;
  /** Map purpose key -> digest of the notice text shown with that purpose, `sha256:<hex>`. */
  notice_hashes?: Record<string, string>;
  /** Sanitised HTML snapshot of the consent controls and their labels, at most 16384 bytes of UTF-8. */
  snapshot?: string;
  /** Who the capture is about. */
  subject?: CaptureSubject;
  /** Ask the service to commit the capture from the browser. */
  commit?: boolean;
}

/** The `capture` object the service answers with; the detail of the `svc-capture` event. */
export interface CaptureResult {
  /** The capture token; the organisation's server commits it within 24 hours. */
  session_token: string;
  /** Id of the attestation the service recorded. */
  attestation_id: string;
  /** True only for a browser commit. */
  committed: boolean;
  /** The consent record's id once committed, else null. */
  record_id?: string | null;
  /** How the displayed notice compared with the published wording. */
  wording_verdict?: 'match' | 'wording_drift' | null;
}
