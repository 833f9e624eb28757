// The withdrawal pages as plain server-rendered HTML: no script (the strict CSP has nothing to allow), one form per
// button, the hosted pages' stylesheet and buttons plus a little layout of their own. Everything shown is escaped here.
import { escapeHtml } from '../../hosted/pages/render.js';
import type { PurposeView, RecordView } from './store.js';

/** Where the pages' own layout is served (beside `/assets/page.css`, whose tokens and buttons it uses). */
export const WITHDRAWAL_CSS_PATH = '/withdraw/withdrawal.css';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A time as a person reads it (UTC, since the page knows no time zone), in a `<time>` element. */
const timeOf = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(DATE.format(new Date(iso)))} UTC</time>`;

const BASIS_LABEL: Record<string, string> = {
  consent: 'your consent',
  legitimate_interest: "the organisation's legitimate interest",
  contract: 'a contract with you',
  legal_obligation: 'a legal obligation',
};

/** What became of a purpose, in words. */
function outcomeOf(p: PurposeView): string {
  const on = p.withdrawnAt ? ` on ${timeOf(p.withdrawnAt)}` : '';
  switch (p.outcome) {
    case 'granted':
      return 'You consented.';
    case 'declined':
      return 'You declined.';
    case 'revoked':
      return `You withdrew your consent${on}.`;
    case 'objected':
      return `You objected${on}.`;
    default: {
      const basis = escapeHtml(BASIS_LABEL[p.basis ?? ''] ?? p.basis ?? 'another lawful basis');
      return p.withdrawable ? `Used on ${basis}; you may object.` : `Based on ${basis}, not on consent: nothing to withdraw here.`;
    }
  }
}

/** One form that withdraws: the record (on a management page) and the purposes it names (none: everything). */
function withdrawForm(
  action: string,
  recordField: string | undefined,
  recordName: string,
  purpose: PurposeView | undefined,
  primary: boolean,
): string {
  const hidden = [
    recordField === undefined ? '' : `<input type="hidden" name="record" value="${escapeHtml(recordField)}">`,
    purpose ? `<input type="hidden" name="purposes" value="${escapeHtml(purpose.key)}">` : '',
  ].join('');
  const text = purpose ? (purpose.outcome === 'granted' ? 'Withdraw consent' : 'Object') : 'Withdraw everything';
  // The visible words start the accessible name, which says which purpose the button is for.
  const named = purpose ? purpose.label : recordField === undefined ? undefined : recordName;
  const label = named === undefined ? '' : ` aria-label="${escapeHtml(`${text}: ${named}`)}"`;
  return `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit"${primary ? ' class="primary"' : ''}${label}>${text}</button></form>`;
}

/** The record's state in one sentence. */
function statusOf(record: RecordView): string {
  if (record.status === 'expired')
    return `This consent ended${record.expiresAt ? ` on ${timeOf(record.expiresAt)}` : ''}; there is nothing left to withdraw.`;
  const until = record.expiresAt ? ` until ${timeOf(record.expiresAt)}` : '';
  if (record.status === 'revoked') return 'You have withdrawn this consent: none of the consent you gave is in force.';
  return `In force${until}.`;
}

/** One record: who holds it, under which terms, each purpose with its outcome and button, and "withdraw everything". */
export function recordSection(record: RecordView, action: string, options: { managed: boolean; heading: 'h1' | 'h2' }): string {
  const lang = escapeHtml(record.locale);
  const recordField = options.managed ? record.id : undefined;
  const name = record.title ?? record.applicationName;
  const withdrawable = record.purposes.filter((p) => p.withdrawable);
  const purposes = record.purposes
    .map(
      (p) =>
        `<li><p><strong lang="${lang}">${escapeHtml(p.label)}</strong> ${outcomeOf(p)}</p>${
          p.withdrawable ? withdrawForm(action, recordField, name, p, false) : ''
        }</li>`,
    )
    .join('\n');
  const everything = withdrawable.length
    ? `<div class="actions">${withdrawForm(action, recordField, name, undefined, !options.managed)}</div>`
    : '';
  const h = options.heading;
  return `<section class="withdrawal-record${h === 'h1' ? ' withdrawal-single' : ''}" id="${escapeHtml(record.id)}">
<${h} lang="${lang}">${escapeHtml(name)}</${h}>
<dl class="withdrawal-facts">
<div><dt>From</dt><dd>${escapeHtml(record.applicationName)}</dd></div>
<div><dt>Recorded</dt><dd>${timeOf(record.recordedAt)}</dd></div>
<div><dt>Record</dt><dd><code>${escapeHtml(record.id)}</code></dd></div>
</dl>
<p class="withdrawal-status">${statusOf(record)}</p>
<ul class="withdrawal-purposes">
${purposes}
</ul>
${everything}
</section>`;
}

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
<link rel="stylesheet" href="${WITHDRAWAL_CSS_PATH}">
</head>
<body class="withdrawal">
<main>
${body}
</main>
</body>
</html>
`;
}

const DONE = '<p role="status" class="notice">Your withdrawal is recorded. It took effect at once.</p>';
const HOW =
  '<p>Withdrawing is as easy as consenting: no sign-in, and it takes effect at once. What was done before you withdrew stays lawful.</p>';

/** The page a receipt's `withdrawal_method` opens: one record. */
export function recordPage(record: RecordView, action: string, done: boolean): string {
  return shell(
    `Your consent to ${record.applicationName}`,
    `<p class="withdrawal-kicker">Your consent to ${escapeHtml(record.applicationName)}</p>
${done ? DONE : ''}${recordSection(record, action, { managed: false, heading: 'h1' })}
${HOW}`,
  );
}

/** The page a receipt email's management link opens: the person's records with one organisation, newest first. */
export function managementPage(options: {
  organisation: string;
  records: RecordView[];
  more: boolean;
  action: string;
  done: boolean;
}): string {
  const { organisation, records, action } = options;
  const list = records.length
    ? records.map((r) => recordSection(r, action, { managed: true, heading: 'h2' })).join('\n')
    : `<p>${escapeHtml(organisation)} holds no consent record of yours.</p>`;
  const more = options.more
    ? `<p>Only your ${records.length} newest records are shown; each older one is withdrawn through the link in its own receipt.</p>`
    : '';
  return shell(
    `Your consents with ${organisation}`,
    `<h1>Your consents with ${escapeHtml(organisation)}</h1>
${options.done ? DONE : ''}${HOW}
${list}
${more}`,
  );
}

/** The pages' own layout; colours, type and buttons come from the hosted pages' `/assets/page.css`. */
export const WITHDRAWAL_CSS = `body.withdrawal > main { width: min(44rem, calc(100% - 2rem)); margin: 1.5rem auto; }
.withdrawal h1 { margin: 0.25rem 0 0.75rem; font-size: 1.6rem; line-height: 1.25; }
.withdrawal h2 { margin: 0 0 0.5rem; font-size: 1.2rem; }
.withdrawal-kicker { margin: 0; color: var(--svc-muted); }
.withdrawal-record { margin: 1rem 0; padding: 0.75rem 1rem; border: 1px solid var(--svc-border); border-radius: var(--svc-radius); }
.withdrawal-record.withdrawal-single { margin-top: 0; border: none; padding: 0; }
.withdrawal-facts { display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; margin: 0 0 0.5rem; color: var(--svc-muted); }
.withdrawal-facts div { display: flex; gap: 0.375rem; }
.withdrawal-facts dt { font-weight: 600; }
.withdrawal-facts dt::after { content: ":"; }
.withdrawal-facts dd { margin: 0; }
.withdrawal-status { font-weight: 500; }
.withdrawal-purposes { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: var(--svc-space-2); }
.withdrawal-purposes li { display: flex; flex-wrap: wrap; gap: var(--svc-space-2); align-items: center; justify-content: space-between; padding: var(--svc-space-2) 0; border-top: 1px solid var(--svc-border); }
.withdrawal-purposes p { margin: 0; }
.withdrawal .notice { padding: 0.5rem 0.75rem; border-left: 4px solid var(--svc-accent); }
.withdrawal a { color: var(--svc-accent); }
`;
