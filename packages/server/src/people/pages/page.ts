// The people's pages as server-rendered HTML: the sign-in page of a signed-out visitor (no script at all), and a
// family's page for the signed-in person: who is signed in and a sign-out button, the nav of the people's pages, and
// the family's element, which the SDK's loader defines. No inline script or style: the CSP allows the SDK alone.
import { escapeHtml } from '../../hosted/pages/render.js';
import type { Family, NavEntry, NavGroup } from './families.js';
import { PEOPLE_CSS_PATH, SIGN_IN_PATH, SIGN_OUT_PATH } from './paths.js';

/** A page's head: its title, the hosted pages' and the people's stylesheets, and `script` (the loader's tag). */
export function head(title: string, script = ''): string {
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
${script}</head>
`;
}

export const SKIP = '<a class="skip-link" href="#main">Skip to the content</a>';
export const hidden = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** The page of a visitor who is not signed in: what the page is, and a button that signs them in and back here. */
export function signInPage(family: Pick<Family, 'path' | 'title' | 'intro'>, signedOut: boolean): string {
  return `${head(`Sign in · ${family.title}`)}<body class="people">
${SKIP}
<main id="main" tabindex="-1">
<h1>${escapeHtml(family.title)}</h1>
${signedOut ? '<p role="status" class="notice">You are signed out.</p>\n' : ''}<p>${escapeHtml(family.intro)}</p>
<p>Sign in with your email address to see them.</p>
<form method="post" action="${SIGN_IN_PATH}">
${hidden('return_to', family.path)}
<button type="submit" class="primary">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

/** The nav of the people's pages under their headings, the current one marked for assistive technology and by its look. */
export function navOf(groups: readonly NavGroup[], current: string, label = 'Your pages'): string {
  const link = (e: NavEntry) =>
    `<li><a href="${escapeHtml(e.path)}"${e.path === current ? ' aria-current="page"' : ''}>${escapeHtml(e.title)}</a></li>`;
  const sections = groups.map(
    (group, i) =>
      `<li><span class="people-nav-heading" id="nav-${i}">${escapeHtml(group.title)}</span>\n<ul aria-labelledby="nav-${i}">\n${group.entries.map(link).join('\n')}\n</ul></li>`,
  );
  return `<nav class="people-nav" aria-label="${escapeHtml(label)}">\n<ul>\n${sections.join('\n')}\n</ul>\n</nav>`;
}

/**
 * Who is signed in, their sign-out button and the nav of the people's pages, at the top of each of them (the Trust
 * Inbox's too, which signs out through its own `signOut` path).
 */
export function peopleHeader(options: { email: string; nav: readonly NavGroup[]; current: string; signOut?: string }): string {
  return `<header class="people-header">
<div class="people-who">
<p>Signed in as <strong>${escapeHtml(options.email)}</strong></p>
<form method="post" action="${escapeHtml(options.signOut ?? SIGN_OUT_PATH)}">
${hidden('return_to', options.current)}
<button type="submit">Sign out</button>
</form>
</div>
${navOf(options.nav, options.current)}
</header>`;
}

/** A family's page for the signed-in person: the element with its attributes, loaded by `script` (the loader's tag). */
export function familyPage(options: {
  family: Family;
  attributes: Record<string, string>;
  email: string;
  nav: readonly NavGroup[];
  script: { src: string; integrity: string | undefined };
}): string {
  const { family, email } = options;
  const integrity = options.script.integrity ? ` integrity="${escapeHtml(options.script.integrity)}" crossorigin="anonymous"` : '';
  const script = `<script src="${escapeHtml(options.script.src)}"${integrity} defer></script>\n`;
  const attributes = Object.entries(options.attributes)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `${head(family.title, script)}<body class="people">
${SKIP}
${peopleHeader({ email, nav: options.nav, current: family.path })}
<main id="main" tabindex="-1">
<h1>${escapeHtml(family.title)}</h1>
<p>${escapeHtml(family.intro)}</p>
<${family.element}${attributes}></${family.element}>
<noscript><p class="noscript">${escapeHtml(family.noscript)}</p></noscript>
</main>
</body>
</html>
`;
}

/** The people's pages' layout, beside the hosted pages' `/assets/page.css` (its tokens, font and buttons). */
export const PEOPLE_CSS = `body.people { display: block; }
body.people > main, body.people > .people-header { width: min(48rem, calc(100% - 2rem)); margin: 1rem auto; }
.people-header { display: flex; flex-direction: column; gap: var(--svc-space-2); }
.people-who { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; }
.people-who p { margin: 0; overflow-wrap: anywhere; }
.people-nav ul { list-style: none; margin: 0; padding: 0; }
.people-nav > ul { display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: var(--svc-space-2) var(--svc-space-3); padding-block-end: var(--svc-space-2); border-bottom: 1px solid var(--svc-border); }
.people-nav-heading { display: block; font-size: 0.875rem; font-weight: 600; color: var(--svc-muted); }
.people-nav a { display: inline-block; padding: var(--svc-space-1) 0; color: var(--svc-accent); text-decoration: none; border-bottom: 3px solid transparent; }
.people-nav a:hover { text-decoration: underline; }
.people-nav a[aria-current="page"] { color: CanvasText; font-weight: 600; border-bottom-color: var(--svc-accent); }
.people h1 { margin: 0.5rem 0; font-size: 1.75rem; line-height: 1.25; }
.people main:focus { outline: none; }
.people a { color: var(--svc-accent); }
.people .notice { padding: 0.5rem 0.75rem; border-left: 4px solid var(--svc-accent); }
.skip-link { position: absolute; left: var(--svc-space-2); top: -4rem; padding: var(--svc-space-2) var(--svc-space-3); background: Canvas; border: 1px solid var(--svc-accent); border-radius: var(--svc-button-radius); z-index: 1; }
.skip-link:focus { top: var(--svc-space-2); }
`;
