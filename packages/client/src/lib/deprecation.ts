import type { SvcWarning } from './options.js';

/** The target of the first `Link` entry whose `rel` includes `successor-version` (RFC 8288, RFC 5829). */
export function successorLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const match of link.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('successor-version')) return match[1];
  }
  return undefined;
}

/**
 * The warning for a response carrying `Deprecation` or `Sunset` (RFC 8594, RFC 9745), or undefined when it
 * carries neither.
 */
export function deprecationWarning(method: string, path: string, headers: Headers): SvcWarning | undefined {
  const deprecation = headers.get('deprecation');
  const sunset = headers.get('sunset') ?? undefined;
  if (deprecation === null && sunset === undefined) return undefined;
  const successor = successorLink(headers.get('link'));
  const when = sunset ? `; it stops working after ${sunset}` : '';
  const instead = successor ? `; use ${successor} instead` : '';
  return {
    code: 'SVC_DEPRECATED_ENDPOINT',
    message: `svc: ${method} ${path} is deprecated${when}${instead}.`,
    path,
    sunset,
    successor,
  };
}
