// The organisation's families on the trust URL: the console of an account's users. Each page is built from the
// SDK's own elements (an organisation can embed the same ones in its own account pages), each element given the
// console's token URL for the account shown and, for a viewer, `readonly`. Adding a page is one entry here.

/** One element of a console page: its tag and its own attributes (`view`), beside the ones every element gets. */
export interface ConsoleElement {
  tag: `svc-${string}`;
  attributes?: Record<string, string>;
}

/** One organisation family: its page, what it is for, and the elements that show it. */
export interface ConsoleFamily {
  path: string;
  title: string;
  intro: string;
  elements: readonly ConsoleElement[];
  noscript: string;
}

const noscript = (what: string) => `${what} are shown with JavaScript: turn it on to see and manage them.`;

export const CONSOLE_FAMILIES: readonly ConsoleFamily[] = [
  {
    path: '/applications',
    title: 'Applications',
    intro:
      'Your applications with their publishable keys, allowed origins and OAuth clients; the API tokens of your account; and the webhook endpoints with every delivery.',
    elements: [{ tag: 'svc-applications' }, { tag: 'svc-applications', attributes: { view: 'api_tokens' } }, { tag: 'svc-webhooks' }],
    noscript: noscript('Your applications'),
  },
  {
    path: '/agent_identities',
    title: 'Agents',
    intro: 'The software agents your organisation runs: their pinned capability manifests and trust scores. Suspend or revoke any of them.',
    elements: [{ tag: 'svc-agents' }],
    noscript: noscript('Your agents'),
  },
  {
    path: '/application_agents',
    title: 'What agents may do',
    intro: 'The delegation grants your agents act under: for whom, within which scopes and bounds, and until when.',
    elements: [{ tag: 'svc-agents', attributes: { view: 'application_agents' } }],
    noscript: noscript('Delegation grants'),
  },
  {
    path: '/authorities',
    title: 'Authorities and escalations',
    intro: 'What your agents asked to do beyond their bounds, and how each escalation was answered.',
    elements: [{ tag: 'svc-agents', attributes: { view: 'authorities' } }],
    noscript: noscript('Escalations'),
  },
  {
    path: '/policies',
    title: 'Policies and licences',
    intro: 'Your data policies and the licences granted over personal data; and consent given, refused and withdrawn per purpose.',
    elements: [{ tag: 'svc-policies' }, { tag: 'svc-policies', attributes: { view: 'consent_activity' } }],
    noscript: noscript('Your policies'),
  },
  {
    path: '/clean_rooms',
    title: 'Clean rooms',
    intro: 'The clean rooms you share data in, their participants, and the privacy budget each has left.',
    elements: [{ tag: 'svc-policies', attributes: { view: 'clean_rooms' } }],
    noscript: noscript('Your clean rooms'),
  },
  {
    path: '/transfer_register',
    title: 'Transfer register',
    intro: 'Where personal data crosses borders, on which lawful basis, and the adequacy verdict of each route.',
    elements: [{ tag: 'svc-evidence', attributes: { view: 'transfer_register' } }],
    noscript: noscript('Your transfers'),
  },
  {
    path: '/residency_posture',
    title: 'Residency posture',
    intro: "Where each country's subjects' data is stored, and how sure that is.",
    elements: [{ tag: 'svc-evidence', attributes: { view: 'residency_posture' } }],
    noscript: noscript('Your residency posture'),
  },
  {
    path: '/evidence_packages',
    title: 'Evidence packages',
    intro: 'The signed evidence packages you drew. Download one for a regulator, or check one here, offline, against the published keys.',
    elements: [{ tag: 'svc-evidence', attributes: { view: 'evidence_packages' } }],
    noscript: noscript('Your evidence packages'),
  },
  {
    path: '/modules',
    title: 'Modules',
    intro: 'The parts of the service your organisation has turned on.',
    elements: [{ tag: 'svc-governance', attributes: { view: 'modules' } }],
    noscript: noscript('Your modules'),
  },
  {
    path: '/governance',
    title: 'Governance and audit',
    intro: 'Your governance settings and who changed them; and the audit trail, whose chain you can check here, offline.',
    elements: [{ tag: 'svc-governance' }, { tag: 'svc-governance', attributes: { view: 'audit' } }],
    noscript: noscript('Your governance settings'),
  },
];

/** The console's nav under its headings, in the order an account user looks for them. */
export const CONSOLE_NAV: readonly { title: string; paths: readonly string[] }[] = [
  { title: 'Applications', paths: ['/applications'] },
  { title: 'Agents', paths: ['/agent_identities', '/application_agents', '/authorities'] },
  { title: 'Data', paths: ['/policies', '/clean_rooms'] },
  { title: 'Compliance', paths: ['/transfer_register', '/residency_posture', '/evidence_packages'] },
  { title: 'Governance', paths: ['/modules', '/governance'] },
];

/** Where the console's elements get their token for the account shown. */
export const CONSOLE_TOKEN_PATH = '/console/access_token';
