// The script tag as an organisation keeps a copy of it on its own origin: the directory `@svc/elements` ships in
// `dist/browser/sdk/` (the loader `svc.js` and the chunks it imports from beside it), served file by file. A copy
// at a path that does not look like a service's names no default service, so its pages say base-url themselves.
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';

const dir = `${dirname(createRequire(import.meta.url).resolve('@svc/elements/browser/sdk/svc.js'))}/`;

/** The bytes of one file of the copy, or undefined for a name that is not one of its files. */
export function sdkCopy(name: string): Buffer | undefined {
  return /^svc[\w-]*\.m?js$/.test(name) && existsSync(dir + name) ? readFileSync(dir + name) : undefined;
}
