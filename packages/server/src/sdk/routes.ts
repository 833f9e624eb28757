// The script-tag SDK: the elements bundle built by rollup in @svc/elements, served at `/sdk/v1/svc.js` (IIFE,
// global `Svc`), `/sdk/v1/svc.mjs` (ESM) and their source maps. A page that loads it from here gets this server
// as the elements' default trust URL (see @svc/elements' svc.ts).
import type { Context, Hono } from 'hono';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteModule } from '../app.js';
import type { Env } from '../lib/context.js';

const JS = 'text/javascript; charset=utf-8';
const MAP = 'application/json; charset=utf-8';

/** What each public file is built as in `@svc/elements/dist/browser/`, and the map it names. */
const FILES: Readonly<Record<string, { built: string; type: string; map?: { built: string; served: string } }>> = {
  'svc.js': { built: 'svc.iife.js', type: JS, map: { built: 'svc.iife.js.map', served: 'svc.js.map' } },
  'svc.js.map': { built: 'svc.iife.js.map', type: MAP },
  'svc.mjs': { built: 'svc.js', type: JS, map: { built: 'svc.js.map', served: 'svc.mjs.map' } },
  'svc.mjs.map': { built: 'svc.js.map', type: MAP },
};

/**
 * Long-lived but not immutable: `/sdk/v1/` is a major version that still receives fixes, so browsers and CDNs keep
 * a copy for a day, may serve it a week longer while they revalidate (by ETag), and then pick up the fix.
 */
export const SDK_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

interface Loaded {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
}

/** Where a built file lives in `@svc/elements`, or undefined when the package has not been built. */
function locate(built: string): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve(`@svc/elements/browser/${built}`));
  } catch {
    return undefined;
  }
}

/** Reads a built file, re-reading it only when it changed on disk (a rebuild). */
function load(cache: Map<string, Loaded>, name: string, dir: string | undefined): Loaded | undefined {
  const entry = FILES[name]!;
  const path = dir ? join(dir, entry.built) : locate(entry.built);
  if (!path) return undefined;
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  const cached = cache.get(name);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
  let body = readFileSync(path);
  if (entry.map) {
    // The bundle names its map by its built file name; served under another name, it must name the served map.
    const text = body.toString('utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, `//# sourceMappingURL=${entry.map.served}\n`);
    body = Buffer.from(text, 'utf8');
  }
  const loaded = { mtimeMs: stat.mtimeMs, size: stat.size, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  cache.set(name, loaded);
  return loaded;
}

/**
 * The SDK route module, serving the bundles from `dir` (tests) or from the built `@svc/elements` (the default).
 */
export function createSdkRoutes(dir?: string): RouteModule {
  return (app: Hono<Env>) => {
    const cache = new Map<string, Loaded>();
    app.get('/sdk/v1/:file', (c) => serve(c, cache, dir));
  };
}

/** Mounts `/sdk/v1/svc.js`, `/sdk/v1/svc.mjs` and their maps, from the built `@svc/elements`. */
export const sdkRoutes: RouteModule = createSdkRoutes();

/** Answers one SDK file: 200 with the bundle, 304 when the browser's copy is current, 404 when not built. */
function serve(c: Context<Env>, cache: Map<string, Loaded>, dir: string | undefined) {
  const name = c.req.param('file') ?? '';
  if (!Object.hasOwn(FILES, name)) return c.json({ message: `No SDK file ${name}.`, code: 'not_found' }, 404);
  const file = load(cache, name, dir);
  if (!file) {
    return c.json({ message: `${name} is not built yet: run pnpm run build.`, code: 'not_found' }, 404, { 'Cache-Control': 'no-store' });
  }
  const headers: Record<string, string> = {
    'Content-Type': FILES[name]!.type,
    'Cache-Control': SDK_CACHE_CONTROL,
    ETag: file.etag,
    'X-Content-Type-Options': 'nosniff',
    // Any site may load it: with CORS a `<script crossorigin integrity>` works and errors keep their stacks,
    // and pages isolated with COEP may embed it.
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  const match = c.req.header('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) return c.body(null, 304, headers);
  return c.body(new Uint8Array(file.body), 200, headers);
}
