// Writes the stories' static files into node_modules/.cache/svc-stories/svc, which Storybook serves at `/svc` (dev)
// and copies into storybook-static/svc (build): the service's real hosted decision page once per story state (the
// server's own `pageShell` with the state's `svc-decision-data` block), at the paths the element builds from its
// trust URL (`svc/decisions/{token}/embed/index.html` for the iframe, `svc/decisions/{token}/index.html` for popup
// and redirect); the page's stylesheet (the server's `PAGE_CSS`) and script (stories/frames/decision-story.ts: the
// story-local participant API, then the real `<svc-decision-page>`) under `svc/assets/`, apart from Storybook's own
// `assets/`; and the consent field's render answers at `svc/api/v1/flows/{flow}/render`. Nothing generated is
// committed; it takes a few hundred milliseconds.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { PAGE_CSS, pageShell } from '../packages/server/src/hosted/pages/render.ts';
import { FRAME_STATES, type FrameState, type FrameStateName, tokenOf } from '../stories/frames/states.ts';
import { RENDER_ANSWERS } from '../stories/support/render-answers.ts';

/** Where the page's assets are served: under the story statics, not the server's `/assets/`. */
const ASSETS = '/svc/assets';

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** The page script: esbuild over the workspace sources (their `source` condition), so no prior build is needed. */
function pageScript(root: string): string {
  const [bundle] = buildSync({
    entryPoints: [join(root, 'stories/frames/decision-story.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    conditions: ['source'],
    logLevel: 'error',
  }).outputFiles;
  return bundle!.text;
}

/** The hosted page of `state` as the server renders it (`routes.ts`), its asset URLs under the story statics. */
function pageOf(state: FrameState, frame: boolean): string {
  const data = state.data;
  const part = data.consent ?? data.approval ?? data.signature_request;
  const heading = data.kind === 'approval' ? 'Approval requested' : (part as { title: string }).title;
  const signature = data.signature_request;
  if (signature && createHash('sha256').update(signature.document_text).digest('hex') !== signature.document_sha256) {
    throw new Error(`The story signature request's document_sha256 is not the SHA-256 of its document_text.`);
  }
  const html = pageShell({
    lang: data.locale,
    title: `${heading} · ${data.branding.name}`,
    bodyClass: frame ? 'mode-embed' : 'mode-full',
    dataId: 'svc-decision-data',
    data: { ...data, mode: frame ? 'embed' : 'popup' },
    script: `${ASSETS}/decision-story.js`,
    element: 'svc-decision-page',
    noscript: 'This page needs JavaScript to record your decision.',
  });
  const moved = html.replace('href="/assets/page.css"', () => `href="${ASSETS}/page.css"`);
  if (moved === html) throw new Error('pageShell no longer links /assets/page.css: update .storybook/statics.ts.');
  return moved;
}

/** Writes every static file; returns the directory to serve (its `svc` folder is the trust URL's path). */
export function writeStoryStatics(root: string): string {
  const out = join(root, 'node_modules/.cache/svc-stories');
  rmSync(out, { recursive: true, force: true });
  write(join(out, 'svc/assets/page.css'), PAGE_CSS);
  write(join(out, 'svc/assets/decision-story.js'), pageScript(root));
  for (const [name, state] of Object.entries(FRAME_STATES) as [FrameStateName, FrameState][]) {
    const dir = join(out, 'svc/decisions', tokenOf(name));
    write(join(dir, 'index.html'), pageOf(state, false));
    write(join(dir, 'embed/index.html'), pageOf(state, true));
  }
  for (const [flow, answer] of Object.entries(RENDER_ANSWERS)) {
    write(join(out, 'svc/api/v1/flows', flow, 'render'), `${JSON.stringify(answer, null, 2)}\n`);
  }
  return out;
}
