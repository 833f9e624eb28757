// The people's families on the trust URL: each is one page, built from one of the SDK's elements, for the person
// signed in. Adding a family (connections, delegations, credentials, …) is one entry here once its element exists;
// a family not listed stays 404.
import type { ServerContext } from '../../infra/context.js';
import { TOKEN_PATH } from './paths.js';

/** One people's family: its page, what the person reads there, and the element that shows it. */
export interface Family {
  /** The page's path on the trust URL (`/decisions`). */
  path: string;
  /** The nav's label and the page's heading. */
  title: string;
  /** A sentence under the heading: what the page is for. */
  intro: string;
  /** The element's tag (`svc-records`); the script tag's loader defines it. */
  element: `svc-${string}`;
  /** The element's attributes (escaped when rendered). */
  attributes: (ctx: ServerContext) => Record<string, string>;
  /** What the page says without JavaScript. */
  noscript: string;
}

/** The attributes every people's element takes: the service it talks to and where it gets the person's token. */
const personElement = (ctx: ServerContext) => ({ 'trust-url': ctx.trustUrl, 'token-url': TOKEN_PATH });

export const FAMILIES: readonly Family[] = [
  {
    path: '/decisions',
    title: 'Your decisions',
    intro: 'The consents you gave organisations, and the ones you refused. Withdraw any of them here, at any time.',
    element: 'svc-records',
    attributes: personElement,
    noscript: 'Your decisions are shown with JavaScript: turn it on to see and withdraw them.',
  },
  {
    path: '/data_requests',
    title: 'Your data requests',
    intro: 'Ask an organisation for a copy of your data, or to delete, move or correct it, and see when they must answer.',
    element: 'svc-data-requests',
    attributes: personElement,
    noscript: 'Your data requests are shown with JavaScript: turn it on to see them and make a new one.',
  },
  {
    path: '/data_offers',
    title: 'Offers for your data',
    intro: 'The terms you offered organisations for your data, and their answers. Accept or decline their terms here.',
    element: 'svc-data-offers',
    attributes: personElement,
    noscript: 'The offers for your data are shown with JavaScript: turn it on to see and answer them.',
  },
  {
    path: '/data_licenses',
    title: 'Who may use your data',
    intro: 'The licences organisations hold over your data: what for, how often, under which agreement. Revoke any of them here.',
    element: 'svc-data-offers',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'licenses' }),
    noscript: 'Who may use your data is shown with JavaScript: turn it on to see and revoke it.',
  },
  {
    path: '/connections',
    title: 'Your connections',
    intro: 'The applications you are connected to, and what each holds from you. Disconnect from any of them here.',
    element: 'svc-connections',
    attributes: personElement,
    noscript: 'Your connections are shown with JavaScript: turn it on to see them and disconnect.',
  },
  {
    path: '/device_links',
    title: 'Link a device',
    intro: 'To link a device, ask for a code on it, then enter the code here. Cancel a link you did not ask for.',
    element: 'svc-connections',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'device_links' }),
    noscript: 'Your device links are shown with JavaScript: turn it on to link a device.',
  },
  {
    path: '/trust_pairings',
    title: 'Your paired devices',
    intro: 'The devices you paired with each other, and when. Unpair any of them here.',
    element: 'svc-connections',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'trust_pairings' }),
    noscript: 'Your paired devices are shown with JavaScript: turn it on to see and unpair them.',
  },
  {
    path: '/delegations',
    title: 'Who may act for you',
    intro: 'The people and agents you let act in your name, and within what bounds. Pause, resume or revoke any of them here.',
    element: 'svc-delegations',
    attributes: personElement,
    noscript: 'Who may act for you is shown with JavaScript: turn it on to see and revoke it.',
  },
  {
    path: '/authorization_receipts',
    title: 'What was done in your name',
    intro:
      'The signed receipts of what agents and people did for you: within which bounds, and each action they took. Each receipt is checked on your device; drop any receipt file to check it too.',
    element: 'svc-receipts',
    attributes: personElement,
    noscript: 'What was done in your name is shown with JavaScript: turn it on to see and check the receipts.',
  },
  {
    path: '/disclosure_receipts',
    title: 'Agents disclosed to you',
    intro:
      'The signed receipts in which organisations told you an agent takes part, and which one. Each receipt is checked on your device.',
    element: 'svc-receipts',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'disclosure' }),
    noscript: 'The agents disclosed to you are shown with JavaScript: turn it on to see and check the receipts.',
  },
  {
    path: '/credentials',
    title: 'Your credentials',
    intro: 'The credentials organisations issued you. Present one to anyone, sharing only the claims you choose.',
    element: 'svc-credentials',
    attributes: personElement,
    noscript: 'Your credentials are shown with JavaScript: turn it on to see and present them.',
  },
  {
    path: '/presentations',
    title: 'What you presented',
    intro: 'Each time you presented a credential here: to whom, when, and exactly which claims you shared.',
    element: 'svc-credentials',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'presentations' }),
    noscript: 'What you presented is shown with JavaScript: turn it on to see it.',
  },
  {
    path: '/vouches',
    title: 'Who vouches for you',
    intro:
      'The people who vouch for you, and the people and agents you vouch for. Vouch for someone you know, or withdraw a vouch you gave.',
    element: 'svc-vouches',
    attributes: personElement,
    noscript: 'Your vouches are shown with JavaScript: turn it on to see them and vouch for someone.',
  },
  {
    path: '/trust_scores',
    title: 'Your trust score',
    intro: 'How much each organisation that knows you can trust you, from 0 to 100, and what moved it.',
    element: 'svc-vouches',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'trust_scores' }),
    noscript: 'Your trust score is shown with JavaScript: turn it on to see it.',
  },
  {
    path: '/agreements',
    title: 'Your agreements',
    intro: 'The agreements organisations asked you to sign. Read each document in full, then sign or decline it yourself.',
    element: 'svc-agreements',
    attributes: personElement,
    noscript: 'Your agreements are shown with JavaScript: turn it on to read and sign them.',
  },
  {
    path: '/multi_party_agreements',
    title: 'Agreements with several parties',
    intro: 'Agreements that take more than one signature: who has signed so far, and how many signatures it still needs.',
    element: 'svc-agreements',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'multi_party' }),
    noscript: 'Your agreements with several parties are shown with JavaScript: turn it on to read and sign them.',
  },
  {
    path: '/collaborations',
    title: 'Your collaborations',
    intro: 'The collaborations you take part in and the data you share with each. Sign to join, or leave at any time.',
    element: 'svc-agreements',
    attributes: (ctx) => ({ ...personElement(ctx), view: 'collaborations' }),
    noscript: 'Your collaborations are shown with JavaScript: turn it on to see and leave them.',
  },
];

/** A people's page in the nav: the families, and the pages that are built their own way (the Trust Inbox). */
export interface NavEntry {
  path: string;
  title: string;
}

/** A heading of the nav and its pages, in the order a person looks for them. */
export interface NavGroup {
  title: string;
  entries: NavEntry[];
}

// The nav's headings: the spec's surfaces in a person's words. A family missing here is listed under "More".
const GROUPS: readonly [title: string, paths: readonly string[]][] = [
  ['Consent', ['/decisions', '/inbox']],
  ['Your data', ['/data_requests', '/data_offers', '/data_licenses']],
  ['Acting for you', ['/delegations', '/authorization_receipts', '/disclosure_receipts']],
  ['Apps and devices', ['/connections', '/device_links', '/trust_pairings']],
  ['Identity and trust', ['/credentials', '/presentations', '/trust_scores', '/vouches']],
  ['Agreements', ['/agreements', '/multi_party_agreements', '/collaborations']],
];

export const NAV: readonly NavEntry[] = [...FAMILIES.map(({ path, title }) => ({ path, title })), { path: '/inbox', title: 'Inbox' }];

/** The nav under its headings; a heading with no page yet is left out. */
export const NAV_GROUPS: readonly NavGroup[] = (() => {
  const byPath = new Map(NAV.map((entry) => [entry.path, entry]));
  const grouped = GROUPS.map(([title, paths]) => ({
    title,
    entries: paths.flatMap((path) => byPath.get(path) ?? []),
  }));
  const placed = new Set(GROUPS.flatMap(([, paths]) => paths));
  const more = NAV.filter((entry) => !placed.has(entry.path));
  return [...grouped, { title: 'More', entries: more }].filter((group) => group.entries.length);
})();
