// Comparing the notice digests a capture sends with the flow version's published wording. Two digests of the
// same wording exist: the render endpoint's `notice_hash` (the receipt's privacy_notice hash, JCS of the notice
// document), which the consent field echoes, and the capture helper's text digests (`sha256:` of the NFC,
// whitespace-collapsed text shown next to each control), which the snippet sends. A digest matching either is a
// match; anything else is drift. Drift is recorded, never refused.
import { createHash } from 'node:crypto';
import type { FlowPurpose, WordingVerdict } from '@svc/schemas';
import type { FlowVersionRecord } from '../../platform/flows/store.js';
import { noticeDigest } from '../receipts/notice.js';

/** How each submitted digest compared; `wording_verdict` is `match` only when every one matched. */
export interface WordingComparison {
  wording_verdict: WordingVerdict;
  /** Verdict of the whole-notice digest, when one was sent. */
  notice_hash?: 'match' | 'wording_drift';
  /** Verdict per purpose key of `notice_hashes`, when sent. */
  notice_hashes?: Record<string, 'match' | 'wording_drift'>;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The capture helper's text normalisation: NFC, lone surrogates as U+FFFD, white space runs as one space, trimmed. */
export function normalizeNoticeText(text: string): string {
  return text.normalize('NFC').replace(LONE_SURROGATE, '\uFFFD').replace(/\s+/g, ' ').trim();
}

/** `sha256:<hex>` of a text's UTF-8 bytes, as the capture helper writes it. */
export function textDigest(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * The published notice text of one purpose as a page showing the flow's wording would hash it: its label and its
 * description, joined by one space (the helper joins the texts it finds for a purpose with one space), normalised.
 */
export function purposeNoticeText(purpose: Pick<FlowPurpose, 'label' | 'description'>): string {
  return normalizeNoticeText([purpose.label, purpose.description ?? ''].filter((t) => t.trim() !== '').join(' '));
}

/** Accepts `sha256:<hex>` or bare hex in any case, as the Record API does. */
function canonicalDigest(submitted: string): string {
  const hex = submitted.toLowerCase().replace(/^sha256:/, '');
  return `sha256:${hex}`;
}

/**
 * Compares a capture's `notice_hash` and `notice_hashes` with the version's wording. The whole-notice digest
 * matches the privacy_notice digest, or the helper's digest of the purposes' texts joined by `\n` in the order the
 * page showed them: the order of `notice_hashes` (the helper writes them in document order), the order of
 * `decisions`, or the flow's order. Per-purpose digests match the purpose's text digest; a key the flow does not
 * have is drift (the attestation rules name it separately when it is also a decision).
 */
export function compareWording(
  version: Pick<FlowVersionRecord, 'title' | 'description' | 'config'>,
  submitted: {
    notice_hash?: string | undefined;
    notice_hashes?: Readonly<Record<string, string>> | undefined;
    decisions: Readonly<Record<string, unknown>>;
  },
): WordingComparison {
  const byKey = new Map(version.config.purposes.map((p) => [p.key, p]));
  const textOf = (key: string) => {
    const purpose = byKey.get(key);
    return purpose ? purposeNoticeText(purpose) : undefined;
  };
  const result: WordingComparison = { wording_verdict: null };
  const verdicts: ('match' | 'wording_drift')[] = [];

  if (submitted.notice_hash !== undefined) {
    const digest = canonicalDigest(submitted.notice_hash);
    const orders = [
      Object.keys(submitted.notice_hashes ?? {}),
      Object.keys(submitted.decisions),
      version.config.purposes.map((p) => p.key),
    ].filter((keys) => keys.length > 0 && keys.every((k) => byKey.has(k)));
    const candidates = new Set([noticeDigest(version), ...orders.map((keys) => textDigest(keys.map((k) => textOf(k)!).join('\n')))]);
    result.notice_hash = candidates.has(digest) ? 'match' : 'wording_drift';
    verdicts.push(result.notice_hash);
  }
  if (submitted.notice_hashes !== undefined && Object.keys(submitted.notice_hashes).length > 0) {
    result.notice_hashes = {};
    for (const [key, value] of Object.entries(submitted.notice_hashes)) {
      const text = textOf(key);
      const verdict = text !== undefined && canonicalDigest(value) === textDigest(text) ? 'match' : 'wording_drift';
      result.notice_hashes[key] = verdict;
      verdicts.push(verdict);
    }
  }
  if (verdicts.length) result.wording_verdict = verdicts.every((v) => v === 'match') ? 'match' : 'wording_drift';
  return result;
}
