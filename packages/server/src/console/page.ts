// The console's pages as server-rendered HTML: who is signed in, for which organisation and in which role, the
// other organisations they may switch to, the console's nav, and the page's elements (the SDK's loader defines
// them). The refusal of a signed-in person who is no account user. No inline script or style, as the people's pages.
import { escapeHtml } from '../hosted/pages/render.js';
import type { NavGroup } from '../people/pages/families.js';
import { head, hidden, navOf, SKIP } from '../people/pages/page.js';
import { SIGN_OUT_PATH } from '../people/pages/paths.js';
import { CONSOLE_FAMILIES, CONSOLE_NAV, type ConsoleFamily } from './families.js';
import type { Membership } from './members.js';

const ROLE_NAME: Record<Membership['role'], string> = { admin: 'admin', viewer: 'viewer (read only)' };

/** The console's nav, each link keeping the account shown. */
function consoleNav(accountId: string): NavGroup[] {
  const byPath = new Map(CONSOLE_FAMILIES.map((f) => [f.path, f]));
  return CONSOLE_NAV.map(({ title, paths }) => ({
    title,
    entries: paths.flatMap((path) => {
      const family = byPath.get(path);
      return family ? [{ path: `${path}?account=${encodeURIComponent(accountId)}`, title: family.title }] : [];
    }),
  }));
}

function header(email: string, shown: Membership, memberships: readonly Membership[], current: string): string {
  const others = memberships.filter((m) => m.accountId !== shown.accountId);
  const switcher = others.length
    ? `<p>Also: ${others
        .map((m) => `<a href="${escapeHtml(`${current}?account=${encodeURIComponent(m.accountId)}`)}">${escapeHtml(m.accountName)}</a>`)
        .join(', ')}</p>\n`
    : '';
  return `<header class="people-header">
<div class="people-who">
<p>Signed in as <strong>${escapeHtml(email)}</strong>, ${escapeHtml(ROLE_NAME[shown.role])} of <strong>${escapeHtml(shown.accountName)}</strong></p>
${switcher}<form method="post" action="${SIGN_OUT_PATH}">
${hidden('return_to', current)}
<button type="submit">Sign out</button>
</form>
</div>
${navOf(consoleNav(shown.accountId), `${current}?account=${encodeURIComponent(shown.accountId)}`, 'Console')}
</header>`;
}

/** A console page: its elements, each with the service's URL, the token URL of the account shown, and its role. */
export function consolePage(options: {
  family: ConsoleFamily;
  email: string;
  shown: Membership;
  memberships: readonly Membership[];
  trustUrl: string;
  tokenUrl: string;
  script: { src: string; integrity: string | undefined };
}): string {
  const { family, shown } = options;
  const integrity = options.script.integrity ? ` integrity="${escapeHtml(options.script.integrity)}" crossorigin="anonymous"` : '';
  const script = `<script src="${escapeHtml(options.script.src)}"${integrity} defer></script>\n`;
  const shared: Record<string, string> = { 'trust-url': options.trustUrl, 'token-url': options.tokenUrl };
  const elements = family.elements.map(({ tag, attributes }) => {
    const all = Object.entries({ ...shared, ...attributes })
      .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
      .join('');
    return `<${tag}${all}${shown.role === 'admin' ? '' : ' readonly'}></${tag}>`;
  });
  return `${head(`${family.title} · ${shown.accountName}`, script)}<body class="people console">
${SKIP}
${header(options.email, shown, options.memberships, family.path)}
<main id="main" tabindex="-1">
<h1>${escapeHtml(family.title)}</h1>
<p>${escapeHtml(family.intro)}</p>
${elements.join('\n')}
<noscript><p class="noscript">${escapeHtml(family.noscript)}</p></noscript>
</main>
</body>
</html>
`;
}

/** The answer to a signed-in person who is no user of the organisation's account they asked for (or of any). */
export function notAnAccountUserPage(email: string, family: ConsoleFamily): string {
  return `${head(`Not an account user · ${family.title}`)}<body class="people">
${SKIP}
<main id="main" tabindex="-1">
<h1>This page is for an organisation's account users</h1>
<p>You are signed in as <strong>${escapeHtml(email)}</strong>, who is not a user of this organisation's account. Ask an admin of the account to add you, or sign in with another email address.</p>
<form method="post" action="${SIGN_OUT_PATH}">
${hidden('return_to', family.path)}
<button type="submit">Sign out</button>
</form>
</main>
</body>
</html>
`;
}
