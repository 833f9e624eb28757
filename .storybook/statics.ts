// Writes the stories' static files into node_modules/.cache/svc-stories/svc, which Storybook serves at `/svc` (dev)
// and copies into storybook-static/svc (build): the story-local decision page once per state, at the paths the
// element builds from its trust URL (`svc/decisions/{token}/embed/index.html` for the iframe and
// `svc/decisions/{token}/index.html` for popup and redirect), and the consent field's render answers at
// `svc/api/v1/flows/{flow}/render`. Nothing generated is committed; it takes a few hundred milliseconds.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { FRAME_STATES, type FrameStateName, tokenOf } from '../stories/frames/states.ts';
import { RENDER_ANSWERS } from '../stories/support/render-answers.ts';

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** Writes every static file; returns the directory to serve (its `svc` folder is the trust URL's path). */
export function writeStoryStatics(root: string): string {
  const out = join(root, 'node_modules/.cache/svc-stories');
  rmSync(out, { recursive: true, force: true });
  const [bundle] = buildSync({
    entryPoints: [join(root, 'stories/frames/decision-frame.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    // The workspace packages' TypeScript sources, so the page needs no prior build.
    conditions: ['source'],
    logLevel: 'error',
  }).outputFiles;
  const script = `<script type="module">${bundle!.text.replace(/<\/script/gi, '<\\/script')}</script>`;
  const page = readFileSync(join(root, 'stories/frames/decision-frame.html'), 'utf8').replace('<!-- frame script -->', () => script);
  for (const state of Object.keys(FRAME_STATES) as FrameStateName[]) {
    const dir = join(out, 'svc/decisions', tokenOf(state));
    write(join(dir, 'index.html'), page);
    write(join(dir, 'embed/index.html'), page);
  }
  for (const [flow, answer] of Object.entries(RENDER_ANSWERS)) {
    write(join(out, 'svc/api/v1/flows', flow, 'render'), `${JSON.stringify(answer, null, 2)}\n`);
  }
  return out;
}
