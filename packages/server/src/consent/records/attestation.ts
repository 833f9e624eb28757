// Capture attestation rules (spec: "Capture attestation rules", Errors rules 3 and 10), shared by the Record API, the
// bulk import and the capture paths.
import type { DecisionEntry, FlowConfig, FlowPurpose, PurposeBasis, RefusalCode } from '@svc/schemas';

/** A purpose outcome at issue. */
export interface IssuedOutcome {
  key: string;
  outcome: 'granted' | 'declined' | 'noticed' | 'objected';
  basis: PurposeBasis;
}

/** One named refusal: the purpose (or null for a whole-row problem), a stable code and an English message. */
export interface Refusal {
  purpose: string | null;
  code: RefusalCode;
  message: string;
}

/** The verdict on a set of decisions: outcomes for every purpose of the flow, or the refusals. */
export type Evaluation = { ok: true; outcomes: IssuedOutcome[] } | { ok: false; refusals: Refusal[] };

const isConsent = (p: FlowPurpose) => p.basis === 'consent';
const hasRightToObject = (p: FlowPurpose) => p.basis === 'legitimate_interest' && p.mechanism === 'opt_out';

/**
 * Applies the attestation table to decisions against a flow version's purposes:
 * - consent (explicit or informed): a decision, neither default-ticked nor mandatory -> `granted` or `declined`
 *   (an unticked box is a decline); default-ticked or mandatory -> refused (`default_checked`, `mandatory`); no
 *   decision -> refused (`purpose_missing`);
 * - legitimate interest with a right to object: ticked (or no decision) -> `noticed`, unticked -> `objected`;
 *   default-ticked allowed;
 * - notice-only (contract, legal obligation, legitimate interest without a right to object): no decision needed ->
 *   `noticed`; a `declined` decision is refused (`notice_only_purpose`), since it cannot be declined;
 * - a key the flow does not resolve -> refused (`unknown_purpose`).
 * Outcomes come in the flow's purpose order.
 */
export function evaluateDecisions(config: Pick<FlowConfig, 'purposes'>, decisions: Readonly<Record<string, DecisionEntry>>): Evaluation {
  const refusals: Refusal[] = [];
  const outcomes: IssuedOutcome[] = [];
  const known = new Set(config.purposes.map((p) => p.key));
  for (const key of Object.keys(decisions)) {
    if (!known.has(key)) refusals.push({ purpose: key, code: 'unknown_purpose', message: `The flow has no purpose "${key}".` });
  }
  for (const purpose of config.purposes) {
    const entry = Object.hasOwn(decisions, purpose.key) ? decisions[purpose.key] : undefined;
    if (isConsent(purpose)) {
      if (!entry) {
        refusals.push({ purpose: purpose.key, code: 'purpose_missing', message: `Consent purpose "${purpose.key}" needs a decision.` });
      } else if (entry.default_checked) {
        refusals.push({
          purpose: purpose.key,
          code: 'default_checked',
          message: `Consent purpose "${purpose.key}" was shown ticked by default; consent must be an active choice.`,
        });
      } else if (entry.mandatory) {
        refusals.push({
          purpose: purpose.key,
          code: 'mandatory',
          message: `Consent purpose "${purpose.key}" was required to submit; consent must be optional.`,
        });
      } else {
        outcomes.push({ key: purpose.key, outcome: entry.decision, basis: purpose.basis });
      }
    } else if (hasRightToObject(purpose)) {
      outcomes.push({ key: purpose.key, outcome: entry?.decision === 'declined' ? 'objected' : 'noticed', basis: purpose.basis });
    } else if (entry?.decision === 'declined') {
      refusals.push({
        purpose: purpose.key,
        code: 'notice_only_purpose',
        message: `Purpose "${purpose.key}" (${purpose.basis}) is notice-only; it cannot be declined.`,
      });
    } else {
      outcomes.push({ key: purpose.key, outcome: 'noticed', basis: purpose.basis });
    }
  }
  return refusals.length ? { ok: false, refusals } : { ok: true, outcomes };
}

// Capture records only a decision; a sign-in, a verification or a comprehension check needs the hosted page.
const NOT_CAPTURABLE_STEPS = new Set(['sign_in', 'verify', 'comprehension_check']);

/**
 * Why a flow version cannot take captured or attested consent, or an empty list when it can. A flow is capturable
 * only when its consent needs just a decision (no sign-in, verification or comprehension step) and it declares a
 * consent duration.
 */

export function capturabilityProblems(config: Pick<FlowConfig, 'consent_duration' | 'steps' | 'purposes'>): string[] {
  const problems: string[] = [];
  if (!config.consent_duration) problems.push('the flow declares no consent_duration');
  for (const step of new Set(config.steps.map((s) => s.type))) {
    if (NOT_CAPTURABLE_STEPS.has(step)) problems.push(`the flow has a ${step} step, so its consent needs more than a decision`);
  }
  if (config.purposes.length === 0) problems.push('the flow has no purposes');
  return problems;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
// ISO 8601 dates and times are digits with separators too; they are removed before looking for phone numbers.
const DATE_TIME = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{2}:\d{2}(?::\d{2})?/g;
// A run of digits, spaces, hyphens and brackets that is not part of a longer token (an id, a UUID, a version).
const PHONE_CANDIDATE = /(?<![\w.+-])(?:\+|\b00)?\d[\d ()-]{5,}\d(?![\w.])/g;
const PERSONAL_KEYS = /^(e[-_]?mail(_?address)?|phone(_?number)?|mobile(_?number)?|tel(ephone)?|cell(_?phone)?|msisdn)$/i;

/**
 * Whether text holds something shaped like a phone number: 7 to 15 digits (E.164) written with a `+` or `00` prefix,
 * or grouped with spaces, hyphens or brackets, or a bare national number (a leading 0 and 10 or 11 digits). Ids,
 * UUIDs, timestamps, versions and amounts with a decimal point do not count.
 */
export function looksLikePhone(text: string): boolean {
  for (const match of text.replace(DATE_TIME, ' ').matchAll(PHONE_CANDIDATE)) {
    const candidate = match[0].trim();
    const digits = candidate.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    const international = candidate.startsWith('+') || candidate.startsWith('00');
    const grouped = /[ ()-]/.test(candidate);
    const national = /^0\d{9,10}$/.test(candidate);
    if (international || grouped || national) return true;
  }
  return false;
}

/**
 * Where `client_facts` holds personal data: an email address or a phone number in any string (at any depth), or a
 * key named like one (`email`, `phone`, `mobile`, ...) with a value. Returns dotted paths under `client_facts`.
 */
export function personalDataPaths(value: unknown, path = 'client_facts'): { path: string; kind: 'email' | 'phone' }[] {
  if (typeof value === 'string') {
    if (EMAIL.test(value)) return [{ path, kind: 'email' }];
    if (looksLikePhone(value)) return [{ path, kind: 'phone' }];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => personalDataPaths(v, `${path}.${i}`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => {
      const inKey = personalDataPaths(k, `${path}.${k}`);
      if (inKey.length) return inKey;
      if (PERSONAL_KEYS.test(k) && v !== null && v !== '' && v !== false) {
        return [{ path: `${path}.${k}`, kind: /mail/i.test(k) ? ('email' as const) : ('phone' as const) }];
      }
      return personalDataPaths(v, `${path}.${k}`);
    });
  }
  return [];
}

/**
 * Adds an ISO 8601 duration (`P1Y2M10DT2H30M`, `P2W`, fractional seconds) to an instant, in UTC, calendar-wise for
 * years and months (31 January plus P1M is 3 March in a non-leap year, as JavaScript dates roll over).
 */
export function addDuration(isoInstant: string, duration: string): string {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!m) throw new RangeError(`not an ISO 8601 duration: ${duration}`);
  const [, y, mo, w, d, h, mi, s] = m.map((v) => (v === undefined ? 0 : Number(v))) as number[];
  const date = new Date(isoInstant);
  date.setUTCFullYear(date.getUTCFullYear() + y!, date.getUTCMonth() + mo!);
  date.setUTCDate(date.getUTCDate() + w! * 7 + d!);
  return new Date(date.getTime() + ((h! * 60 + mi!) * 60 + s!) * 1000).toISOString();
}
