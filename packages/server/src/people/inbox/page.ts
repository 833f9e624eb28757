// The `/inbox` page as plain server-rendered HTML: no script at all (it works without JavaScript, and the strict CSP
// has nothing to allow), a GET form for the filters and the order, a list of links to the hosted decision pages, and a
// link to the next page. Everything shown is escaped here.
import {
  decisionKind,
  ESCALATION_TRIGGERS,
  escalationTrigger,
  inboxSort,
  type DecisionKind,
  type EscalationTrigger,
  type InboxDecision,
  type InboxSort,
} from '@svc/schemas';
import { escapeHtml } from '../../hosted/pages/render.js';
import { NAV_GROUPS } from '../pages/families.js';
import { peopleHeader } from '../pages/page.js';
import { PEOPLE_CSS_PATH } from '../pages/paths.js';

/** The page's query: filters, order and page, each ignored when it is not one the page knows. */
export interface PageQuery {
  kind?: DecisionKind | undefined;
  trigger?: EscalationTrigger | undefined;
  application_id?: string | undefined;
  sort: InboxSort;
  cursor?: string | undefined;
}

const KIND_LABEL: Record<DecisionKind, string> = { consent: 'Consent', approval: 'Approval', signature_request: 'Signature request' };
const TRIGGER_LABEL: Record<EscalationTrigger, string> = {
  scope: 'Scope: beyond what the agent may touch',
  action: 'Action: a kind of action the agent may not take',
  value: "Value: above the agent's amount limit",
  time: "Time: outside the agent's hours",
  escalation: 'Escalation: the agent asked',
  reputation: "Reputation: the agent's trust score is too low",
};
const SORT_LABEL: Record<InboxSort, string> = { deadline: 'Deadline, soonest first', newest: 'Newest first' };

/** Reads the page's query leniently: a value the page does not know is left out, never an error. */
export function pageQueryOf(params: Record<string, string | undefined>): PageQuery {
  const pick = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, value: string | undefined) => {
    if (!value) return undefined;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  const application = params.application_id;
  return {
    kind: pick(decisionKind, params.kind),
    trigger: pick(escalationTrigger, params.trigger),
    application_id: application && /^[A-Za-z0-9_]{1,100}$/.test(application) ? application : undefined,
    sort: pick(inboxSort, params.sort) ?? 'deadline',
    cursor: params.cursor && /^[A-Za-z0-9_-]{1,200}$/.test(params.cursor) ? params.cursor : undefined,
  };
}

/** `?kind=…&…` of a query (only what differs from the defaults); `''` for none. */
export function queryStringOf(query: PageQuery): string {
  const params = new URLSearchParams();
  if (query.kind) params.set('kind', query.kind);
  if (query.trigger) params.set('trigger', query.trigger);
  if (query.application_id) params.set('application_id', query.application_id);
  if (query.sort !== 'deadline') params.set('sort', query.sort);
  if (query.cursor) params.set('cursor', query.cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A time as a person reads it (UTC, since the page knows no time zone), in a `<time>` element. */
function timeOf(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(DATE.format(new Date(iso)))} UTC</time>`;
}

/** How long until `iso`, roughly: "in 40 minutes", "in 5 hours", "in 3 days". */
function untilOf(iso: string, now: number): string {
  const minutes = Math.max(1, Math.round((Date.parse(iso) - now) / 60_000));
  if (minutes < 60) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  return `in ${Math.round(hours / 24)} days`;
}

function head(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
<link rel="stylesheet" href="${PEOPLE_CSS_PATH}">
<link rel="stylesheet" href="${INBOX_CSS_PATH}">
</head>
`;
}

const options = <T extends string>(values: readonly T[], selected: T | undefined, label: (value: T) => string) =>
  values
    .map((value) => `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label(value))}</option>`)
    .join('');

/** The page of a person who is not signed in: what the inbox is, and a button that signs them in. */
export function signInPage(query: PageQuery, signedOut: boolean): string {
  const hidden = new URLSearchParams(queryStringOf({ ...query, cursor: undefined }).slice(1));
  return `${head('Sign in · Trust Inbox')}<body class="inbox">
<main>
<h1>Trust Inbox</h1>
${signedOut ? '<p role="status" class="notice">You are signed out.</p>\n' : ''}<p>The consents, approvals and signatures that organisations ask of you, in one place, whoever asks.</p>
<p>Sign in with your email address to see what waits for you.</p>
<form method="post" action="/inbox/sign_in">
${[...hidden].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n')}
<button type="submit" class="primary">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

/** One row: a link to the decision's hosted page, what it asks, who asks and by when. */
function rowOf(row: InboxDecision, now: number, from: string): string {
  // The link says where it came from, so the decision page offers the way back ("Back to inbox") once answered.
  const href = `${row.url}?${new URLSearchParams({ from })}`;
  return `<li class="inbox-row">
<h3><a href="${escapeHtml(href)}">${escapeHtml(row.title)}</a></h3>
${row.summary ? `<p class="inbox-summary">${escapeHtml(row.summary)}</p>\n` : ''}<dl class="inbox-facts">
<div><dt>Kind</dt><dd>${escapeHtml(KIND_LABEL[row.kind])}</dd></div>
<div><dt>From</dt><dd>${escapeHtml(row.application_name)}</dd></div>
${row.trigger ? `<div><dt>Trigger</dt><dd>${escapeHtml(row.trigger)}</dd></div>\n` : ''}<div><dt>Answer by</dt><dd>${timeOf(row.deadline_at)} (${untilOf(row.deadline_at, now)})</dd></div>
<div><dt>Asked</dt><dd>${timeOf(row.created_at)}</dd></div>
</dl>
</li>`;
}

/** The signed-in page: who, the filters, the rows or plainly that nothing waits, and the next page's link. */
export function inboxPage(options_: {
  email: string;
  query: PageQuery;
  applications: { id: string; name: string }[];
  decisions: InboxDecision[];
  nextCursor: string | null;
  now: number;
}): string {
  const { email, query, decisions, nextCursor, now } = options_;
  const filtered = Boolean(query.kind || query.trigger || query.application_id);
  const applications = [...options_.applications];
  if (query.application_id && !applications.some((a) => a.id === query.application_id))
    applications.push({ id: query.application_id, name: query.application_id });
  const empty = decisions.length === 0;
  const heading = empty ? (query.cursor ? 'Nothing more waits for you' : 'Nothing waits for you') : 'Waiting for you';
  const title = empty ? 'Nothing waits for you · Trust Inbox' : 'Trust Inbox';
  let list: string;
  if (!empty) {
    list = `<ol class="inbox-list" aria-labelledby="results">\n${decisions.map((row) => rowOf(row, now, `/inbox${queryStringOf(query)}`)).join('\n')}\n</ol>`;
  } else if (filtered) {
    list = '<p>No open decision matches these filters. <a href="/inbox">Show everything that waits for you</a>.</p>';
  } else {
    list =
      '<p>No organisation is waiting for a decision from you. When one asks for your consent, approval or signature, it appears here.</p>';
  }
  const next = nextCursor
    ? `<nav aria-label="More decisions"><a href="/inbox${escapeHtml(queryStringOf({ ...query, cursor: nextCursor }))}">Next page</a></nav>`
    : '';
  return `${head(title)}<body class="inbox">
${peopleHeader({ email, nav: NAV_GROUPS, current: '/inbox', signOut: '/inbox/sign_out' })}
<main>
<h1>Trust Inbox</h1>
<p>The consents, approvals and signatures that organisations ask of you, addressed to ${escapeHtml(email)}.</p>
<form class="inbox-filters" method="get" action="/inbox" aria-label="Filter and sort">
<div class="field"><label for="kind">Kind</label>
<select id="kind" name="kind"><option value="">All kinds</option>${options(decisionKind.options, query.kind, (k) => KIND_LABEL[k])}</select></div>
<div class="field"><label for="trigger">Approval trigger</label>
<select id="trigger" name="trigger"><option value="">Any trigger</option>${options(ESCALATION_TRIGGERS, query.trigger, (t) => TRIGGER_LABEL[t])}</select></div>
<div class="field"><label for="application">Application</label>
<select id="application" name="application_id"><option value="">All applications</option>${applications
    .map((a) => `<option value="${escapeHtml(a.id)}"${a.id === query.application_id ? ' selected' : ''}>${escapeHtml(a.name)}</option>`)
    .join('')}</select></div>
<div class="field"><label for="sort">Order</label>
<select id="sort" name="sort">${options(inboxSort.options, query.sort, (s) => SORT_LABEL[s])}</select></div>
<div class="actions"><button type="submit" class="primary">Apply</button></div>
</form>
<h2 id="results">${heading}</h2>
${list}
${next}
</main>
</body>
</html>
`;
}

/** Where the page's stylesheet is served. */
export const INBOX_CSS_PATH = '/inbox/inbox.css';

/** The page's own layout, beside the hosted pages' `/assets/page.css` (whose tokens and buttons it uses). */
export const INBOX_CSS = `body.inbox { display: block; }
body.inbox > main, body.inbox > .people-header { width: min(48rem, calc(100% - 2rem)); margin: 1rem auto; }
.inbox h1 { margin: 0.5rem 0; font-size: 1.75rem; }
.inbox h2 { font-size: 1.25rem; margin: 1.5rem 0 0.5rem; }
.inbox-filters { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: flex-end; padding: var(--svc-space-3); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); }
.inbox-filters .field { display: flex; flex-direction: column; gap: var(--svc-space-1); }
.inbox-filters .field, .inbox-filters select { max-width: 100%; }
.inbox-filters .actions { margin-top: 0; }
.inbox-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.75rem; }
.inbox-row { padding: 0.75rem 1rem; border: 1px solid var(--svc-border); border-radius: var(--svc-radius); }
.inbox-row h3 { margin: 0 0 0.25rem; font-size: 1.1rem; }
.inbox-summary { margin: 0 0 0.5rem; }
.inbox-facts { display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; margin: 0; color: var(--svc-muted); }
.inbox-facts div { display: flex; gap: 0.375rem; }
.inbox-facts dt { font-weight: 600; }
.inbox-facts dt::after { content: ":"; }
.inbox-facts dd { margin: 0; }
.inbox a { color: var(--svc-accent); }
.inbox nav { margin: 1rem 0; }
.inbox .notice { padding: 0.5rem 0.75rem; border-left: 4px solid var(--svc-accent); }
`;
