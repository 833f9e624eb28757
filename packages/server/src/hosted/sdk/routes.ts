// The script-tag SDK built by rollup in @svc/elements (`dist/browser/sdk/`), served at `/sdk/v1/`: the loader
// `svc.js`, the all-in-one module `svc.mjs`, the element chunks they import (content-hashed names) and every
// file's source map. A page that loads them from here gets this server as the elements' default trust URL.
import type { Context, Hono } from 'hono';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { routes, type RouteModule } from '../../infra/http/route.js';
import type { Env } from '../../infra/context.js';
import { errorResponse, notFound } from '../../infra/errors.js';

/** The two files a page names in its own markup; every other file is reached through them. */
const ENTRIES = new Set(['svc.js', 'svc.mjs']);
// A chunk or map rollup wrote: a plain file name, nothing that could leave the directory.
const FILE = /^svc[\w-]*\.(?:js|mjs)(?:\.map)?$/;

/**
 * The loader and the module keep their names across releases, so browsers ask again after five minutes (a 304
 * when nothing changed, by ETag): a fix reaches pages within minutes and the chunks it names are the current ones.
 */
export const SDK_CACHE_CONTROL = 'public, max-age=300';
/** A chunk's name changes with its content, so a copy never goes stale. */
export const CHUNK_CACHE_CONTROL = 'public, max-age=31536000, immutable';

interface Loaded {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
}

/** Where `@svc/elements` keeps the built SDK, or undefined when the package has not been built. */
function builtDir(): string | undefined {
  try {
    // Resolved as a require would (the same answer here, and `import.meta.resolve` does not exist in the CommonJS build).
    return dirname(createRequire(import.meta.url).resolve('@svc/elements/browser/sdk/svc.js'));
  } catch {
    return undefined;
  }
}

/** Reads a built file, re-reading it only when it changed on disk (a rebuild). */
function load(cache: Map<string, Loaded>, path: string): Loaded | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  const cached = cache.get(path);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
  const body = readFileSync(path);
  const loaded = {
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
  cache.set(path, loaded);
  return loaded;
}

/**
 * The SDK route module, serving the files in `dir` (tests) or in the built `@svc/elements` (the default).
 */
export function createSdkRoutes(dir?: string): RouteModule {
  return routes((app) => {
    const cache = new Map<string, Loaded>();
    app.get('/sdk/v1/:file', (c) => serve(c, cache, (dir ??= builtDir())));
  });
}

/** Mounts `/sdk/v1/` from the built `@svc/elements`. */
export const sdkRoutes = createSdkRoutes();

/** Answers one SDK file: 200 with its bytes as built, 304 when the browser's copy is current, 404 otherwise. */
function serve(c: Context<Env>, cache: Map<string, Loaded>, dir: string | undefined) {
  const name = c.req.param('file') ?? '';
  const file = dir && FILE.test(name) ? load(cache, join(dir, name)) : undefined;
  if (!file) {
    const message = ENTRIES.has(name) ? `${name} is not built yet: run pnpm run build.` : `No SDK file ${name}.`;
    return errorResponse(c, notFound(message), { 'Cache-Control': 'no-store' });
  }
  const map = name.endsWith('.map');
  const headers: Record<string, string> = {
    'Content-Type': map ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8',
    'Cache-Control': ENTRIES.has(name.replace(/\.map$/, '')) ? SDK_CACHE_CONTROL : CHUNK_CACHE_CONTROL,
    ETag: file.etag,
    'X-Content-Type-Options': 'nosniff',
    // Any site may load it: module scripts from another origin need CORS, a `<script crossorigin integrity>`
    // needs it too, errors keep their stacks, and pages isolated with COEP may embed it.
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // The files carry no sourceMappingURL comment (bytes every page would download); developer tools read this.
    ...(map ? {} : { SourceMap: `${name}.map` }),
  };
  const match = c.req.header('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) return c.body(null, 304, headers);
  return c.body(new Uint8Array(file.body), 200, headers);
}
