// The script tag of the people's pages: the SDK's loader (`/sdk/v1/svc.js`, served by hosted/sdk from the built
// `@svc/elements`), with the Subresource Integrity value of the bytes this server serves, so the page runs exactly
// that loader; the loader imports each element's chunk from the same directory, which the page's CSP allows alone.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Where the loader is served, relative to the trust URL. */
export const SDK_DIR = '/sdk/v1/';
export const LOADER_PATH = `${SDK_DIR}svc.js`;

let cached: { path: string; mtimeMs: number; size: number; integrity: string } | undefined;

/** The loader's `sha384-…` integrity, re-read when the build changes it; undefined when the SDK is not built. */
export function loaderIntegrity(): string | undefined {
  let path: string;
  let stat: ReturnType<typeof statSync>;
  try {
    // Resolved as hosted/sdk does (a require's answer: `import.meta.resolve` does not exist in the CommonJS build).
    path = createRequire(import.meta.url).resolve('@svc/elements/browser/sdk/svc.js');
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (cached?.path === path && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.integrity;
  const integrity = `sha384-${createHash('sha384').update(readFileSync(path)).digest('base64')}`;
  cached = { path, mtimeMs: stat.mtimeMs, size: stat.size, integrity };
  return integrity;
}
