// The messages the service sends people, as two parts of the same content: plain text, and HTML in which every
// value is escaped (an organisation's names and labels are theirs to choose, and reach the person's mail reader).
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { MailContent } from '../../infra/mail/index.js';
import { escapeHtml } from '../../hosted/pages/render.js';

/** One block of a message: a paragraph, a titled list, or a link with the words before it. */
export type Block = { text: string } | { title: string; items: readonly string[] } | { lead: string; url: string };

function textOf(block: Block): string {
  if ('items' in block) return `${block.title}\n${block.items.map((item) => `- ${item}`).join('\n')}`;
  if ('url' in block) return `${block.lead}\n${block.url}`;
  return block.text;
}

function htmlOf(block: Block): string {
  if ('items' in block) {
    return `<p>${escapeHtml(block.title)}</p>\n<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
  }
  if ('url' in block) return `<p>${escapeHtml(block.lead)}<br><a href="${escapeHtml(block.url)}">${escapeHtml(block.url)}</a></p>`;
  return `<p>${escapeHtml(block.text)}</p>`;
}

/** A message of `blocks` under `heading`, as its subject, text and HTML parts. */
export function compose(title: string, heading: string, blocks: readonly Block[], headers?: Record<string, string>): MailContent {
  // A name in the subject is the organisation's: it stays on the subject's one line.
  const subject = title.replace(/[\r\n\t]+/g, ' ');
  const text = [heading, ...blocks.map(textOf)].join('\n\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body>
<h1>${escapeHtml(heading)}</h1>
${blocks.map(htmlOf).join('\n')}
</body>
</html>
`;
  return { subject, text: `${text}\n`, html, ...(headers ? { headers } : {}) };
}

/** The names a message gives the organisation: its application's name, and the account's when it differs. */
export function organisationOf(ctx: ServerContext, applicationId: string): { application: string; organisation: string } {
  const row = stmt<[string], { application: string; organisation: string | null }>(
    ctx.db,
    'SELECT a.name AS application, o.name AS organisation FROM applications a LEFT JOIN accounts o ON o.id = a.account_id WHERE a.id = ?',
  ).get(applicationId);
  return { application: row?.application ?? 'An organisation', organisation: row?.organisation ?? row?.application ?? '' };
}

/** "Shop (Acme Ltd)", or "Shop" when both names are the same. */
export function whoAsks(names: { application: string; organisation: string }): string {
  return names.organisation && names.organisation !== names.application
    ? `${names.application} (${names.organisation})`
    : names.application;
}
