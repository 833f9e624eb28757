// The DPV 2.3 terms the dpv receipt flavor may use, kept in the repository (dpv-2.3-terms.txt) so that the check
// needs no file outside it, and the reader of the DPV 2.3 Turtle that the list is checked against.
import { readFileSync } from 'node:fs';

/** The checked-in list: every term DPV 2.3 defines in the `dpv:` namespace and has not sunset, one a line. */
export const DPV_TERMS_FILE = new URL('./dpv-2.3-terms.txt', import.meta.url);

/** The DPV 2.3 Turtle, in `shared/vocab/` beside the repository's folder. */
export const DPV_TTL_FILE = new URL('../../../../../../shared/vocab/dpv-2.3.ttl', import.meta.url);

/** The terms of {@link DPV_TERMS_FILE}. */
export function dpv23Terms(): ReadonlySet<string> {
  return new Set(
    readFileSync(DPV_TERMS_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/**
 * The `dpv:` terms a DPV Turtle defines (a subject block `dpv:Term a …`) whose `sw:term_status` is not "sunset",
 * sorted; and the file's `owl:versionInfo`.
 */
export function dpvTermsDefinedBy(ttl: string): { version: string | undefined; terms: string[] } {
  const terms = ttl.split(/\n\s*\n/).flatMap((block) => {
    const term = /^dpv:([A-Za-z0-9_-]+) a /.exec(block.trimStart())?.[1];
    if (term === undefined || /sw:term_status "sunset"/.test(block)) return [];
    return [term];
  });
  return { version: /owl:versionInfo "([^"]+)"/.exec(ttl)?.[1], terms: [...new Set(terms)].sort() };
}

/** The `dpv:` terms named in a text (a document's JSON, a module's source). */
export const dpvTermsIn = (text: string): string[] => [...new Set(text.match(/\bdpv:[A-Za-z0-9_-]+/g) ?? [])].map((t) => t.slice(4)).sort();
