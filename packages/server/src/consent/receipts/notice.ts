// The notice hash: what a receipt's privacy_notice carries and what the render endpoint publishes, so a capture's
// digest can be compared with the published wording. Same notice content, same hash (and notice version).
import type { FlowConfig } from '@svc/schemas';
import { jcs, sha256Hex } from '../audit/hash.js';

/** The parts of a flow version that make up its notice. */
export interface NoticeSource {
  title: string;
  description: string | null;
  config: Pick<FlowConfig, 'locale' | 'policy_url' | 'purposes'>;
}

/**
 * The canonical notice object: locale, presentation title and description, policy URL, and the flow-visible purpose
 * rows (name, label, description, mechanism, required) sorted by name. Absent texts are null.
 */
export function noticeDocument(source: NoticeSource) {
  return {
    locale: source.config.locale,
    title: source.title,
    description: source.description ?? null,
    policy_url: source.config.policy_url ?? null,
    purposes: [...source.config.purposes]
      .map((p) => ({
        name: p.key,
        label: p.label,
        description: p.description ?? null,
        mechanism: p.mechanism,
        required: p.required ?? false,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/**
 * The notice hash of a flow version: lower-case hex SHA-256 over the RFC 8785 (JCS, deep-sorted) bytes of
 * {@link noticeDocument}. The receipt's `privacy_notice.sha256` is this value.
 *
 * @example
 * noticeHash(getActiveFlowVersion(ctx, flowId)!) // 'e3b0c442...'
 */
export function noticeHash(source: NoticeSource): string {
  let hash = memo.get(source);
  if (hash === undefined) {
    hash = sha256Hex(jcs(noticeDocument(source)));
    memo.set(source, hash);
  }
  return hash;
}

// Flow version records are immutable once activated; an import hashes the same one thousands of times.
const memo = new WeakMap<NoticeSource, string>();

/** The notice hash as a digest string, `sha256:<hex>`: what the render endpoint publishes as `notice_hash`. */
export function noticeDigest(source: NoticeSource): string {
  return `sha256:${noticeHash(source)}`;
}

/** The versioned notice reference of a flow: the same content gives the same reference. */
export function noticeReference(flowId: string, hash: string): string {
  return `urn:svc:notice:${flowId}:${hash.slice(0, 16)}`;
}

/**
 * How a submitted notice digest compares with the published wording: `match`, `wording_drift`, or null when none was
 * sent. Accepts `sha256:<hex>` or bare hex, any case; anything else is drift (never refused).
 */
export function wordingVerdictOf(submitted: string | undefined | null, source: NoticeSource): 'match' | 'wording_drift' | null {
  if (submitted === undefined || submitted === null) return null;
  const hex = submitted.toLowerCase().replace(/^sha256:/, '');
  return hex === noticeHash(source) ? 'match' : 'wording_drift';
}
