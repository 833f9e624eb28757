// What <svc-evidence> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { EvidenceVerdict, EvidenceView } from './events.js';

const COMMON = {
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was drawn: the service could not be reached or refused. Try again.',
  signedOut: 'Sign in to the console to see this.',
  signInAgain: 'Sign in to the console again to see this.',
};

const plural = (count: number, one: string, many: string) => (count === 1 ? `One ${one}.` : `${count} ${many}.`);

/** What each view's list says. */
export const LISTS: Record<EvidenceView, PersonListStrings> = {
  evidence_packages: {
    ...COMMON,
    loading: 'Loading the evidence packages…',
    empty: 'No evidence package has been drawn yet. Draw one from the transfer register or the residency posture.',
    shown: (count, more) => (more ? `${count} or more evidence packages.` : plural(count, 'evidence package', 'evidence packages')),
  },
  transfer_register: {
    ...COMMON,
    loading: 'Loading the transfer register…',
    empty: 'No data has crossed a border: the register is empty.',
    shown: (count, more) => (more ? `${count} or more transfers.` : plural(count, 'transfer', 'transfers')),
  },
  residency_posture: {
    ...COMMON,
    loading: 'Loading the residency posture…',
    empty: 'No country stores data for this organisation yet.',
    shown: (count) => plural(count, 'country', 'countries'),
  },
};

/** The kinds of package, by format type. */
const KINDS: Record<string, string> = {
  'svc.transfer_register.v1': 'Transfer register',
  'svc.residency_posture.v1': 'Residency posture',
  'svc.breach_scope.v1': 'Breach scope',
};

const ADEQUACY: Record<string, string> = {
  intra_eea: 'Within the EEA: no safeguard needed',
  adequacy_decision: 'Covered by an adequacy decision',
  standard_contractual_clauses: 'Needs standard contractual clauses',
  none: 'No adequacy framework covers this route',
};

const BASES: Record<string, string> = {
  gdpr_free_movement_eea: 'Free movement within the EEA',
  gdpr_art45_adequacy_decision: 'Adequacy decision (GDPR Art. 45)',
  gdpr_art46_standard_contractual_clauses: 'Standard contractual clauses (GDPR Art. 46)',
  controller_instruction: "The organisation's instruction (no transfer safeguard applies)",
};

/** A code as words when nothing better is known: `consent_proof` → `Consent proof`. */
const words = (code: string) => {
  const text = code.replace(/[_.]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const NOT_VERIFIED: Record<Exclude<EvidenceVerdict, { verified: true }>['check'], string> = {
  format: 'Does not verify: this is not an evidence package (not a signed package of this format).',
  key: 'Does not verify: none of the keys this service publishes signed it. It may come from another service or country.',
  signature: 'Does not verify: it was changed after the service signed it.',
  invalid: 'Does not verify: it is signed, but what it says is not what the package claims to be.',
  keys: "Could not verify: the service's published keys could not be read. Try again.",
  file: 'Could not check the file: it could not be read.',
};

/** Every sentence and label of `<svc-evidence>` besides its lists' own. */
export const EN = {
  lists: LISTS,
  kind: (formatType: string) => KINDS[formatType] ?? formatType,
  adequacy: (code: string) => ADEQUACY[code] ?? words(code),
  basis: (code: string) => BASES[code] ?? words(code),
  category: words,
  route: (from: string, to: string) => `From ${from} to ${to}`,
  basisLabel: 'Lawful basis:',
  adequacyLabel: 'Adequacy:',
  application: (id: string) => html`Application <code>${id}</code>`,
  recorded: (date: TemplateResult) => html`Recorded ${date}`,
  drawnOn: (date: TemplateResult) => html`Drawn ${date}`,
  overall: { verified: 'Residency: verified in every country.', attention: 'Residency: needs attention.' } as Record<string, string>,
  assurance: (assurance: string, elsewhere: number) =>
    assurance === 'verified'
      ? 'Verified: every personal row stored here is homed here.'
      : `Needs attention: ${elsewhere} ${elsewhere === 1 ? 'row' : 'rows'} stored here ${elsewhere === 1 ? 'is' : 'are'} homed in another country.`,
  storedIn: (countries: string) => `Stored in ${countries}`,
  counts: (c: { subjects: number; consent_records: number; receipts: number; decisions: number; delegation_grants: number }) =>
    `${c.subjects} people, ${c.consent_records} consent records, ${c.receipts} receipts, ${c.decisions} decisions, ${c.delegation_grants} delegation grants`,
  draw: 'Draw an evidence package',
  drawing: 'Drawing an evidence package…',
  drawn: (kind: string, id: string) => `Drawn: a signed ${kind.toLowerCase()} evidence package, ${id}.`,
  refused: (message: string) => `Nothing was drawn: ${message}`,
  download: 'Download',
  downloadNamed: (kind: string, id: string) => `Download the ${kind.toLowerCase()} package ${id}`,
  downloaded: (id: string) => `${id}.json is downloading.`,
  cannotRead: (message: string) => `The package could not be read: ${message}`,
  verify: 'Verify',
  verifyNamed: (kind: string, id: string) => `Verify the ${kind.toLowerCase()} package ${id}`,
  verifying: 'Verifying the signature…',
  verified: (v: Extract<EvidenceVerdict, { verified: true }>) =>
    `Verified: ${v.evidence_package_id} was signed by this service (key ${v.kid}) and has not changed since it was drawn${
      v.drawn_at ? ` on ${new Date(v.drawn_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}` : ''
    }.`,
  notVerified: (v: Exclude<EvidenceVerdict, { verified: true }>) => NOT_VERIFIED[v.check],
  checkTitle: 'Check a package file',
  checkHint:
    'A package downloaded before, as a .json file. It is checked here, in your browser, against the keys this service publishes; nothing is uploaded.',
  checking: (name: string) => `Checking ${name}…`,
  fileResult: (name: string, said: string) => `${name}: ${said}`,
  tooLarge: 'Could not check the file: it is too large to be an evidence package.',
};
