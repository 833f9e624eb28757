// The server's picture: a handful of folders named for the product, and the rules that keep it readable.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = dirname(fileURLToPath(import.meta.url));

/** The top-level folders and what each holds: the README's architecture notes say the same. */
const FOLDERS: Record<string, string> = {
  infra: 'database, transactions, clock, keys, events, authentication, errors, HTTP routing, country cells',
  platform: "an organisation's account, applications, tokens, origins, flows, OAuth clients and provider, webhooks",
  consent: 'decisions and their kinds, captures, render, records, receipts, audit trail, credentials, form platforms',
  authority: 'agents, delegations, the model-context gateway, disclosures, transparency',
  surfaces: 'the product surfaces: connect, verify, agree, comply, protect',
  people: "a person's own: the trust center's pages, their APIs, withdrawal links, mail, the Trust Inbox",
  hosted: 'hosted decision pages, the playground, the script-tag SDK',
  console: "an organisation's console: its account users' pages, their sign-in and tokens, the audit of their changes",
};
/** Files at the root: the app's assembly (app.ts), the server around it, the package entry and the test harness. */
const ASSEMBLY = new Set(['app.ts', 'server.ts', 'index.ts', 'bin.ts']);
const ROOT_FILES = new Set([...ASSEMBLY, 'sandbox.ts', 'testing.ts', 'hostile-cases.ts']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'public' ? [] : files(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const isTest = (file: string) => /\.test(\.helper)?\.ts$|test-support\.ts$|-fixture\.ts$/.test(file);

/** Where each relative import of a file points, relative to src (e.g. `infra/db.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map(([, spec]) =>
    relative(src, resolve(dirname(file), spec!)).replace(/\.js$/, '.ts'),
  );
}

const all = files(src).map((file) => relative(src, file));
const topOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : '');
const code = all.filter((file) => !isTest(file));

describe('the server source', () => {
  it('has at most 10 top-level folders, each named for a part of the product or the infrastructure', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.ok(folders.length <= 10, folders.join(', '));
    assert.deepEqual(folders, Object.keys(FOLDERS).sort());
  });

  it('keeps at its root only the assembly, the entry points and the test harness', () => {
    const stray = all.filter((file) => !file.includes('/') && !ROOT_FILES.has(file) && !isTest(file));
    assert.deepEqual(stray, []);
  });

  it('infra imports no part of the product', () => {
    const offending = code
      .filter((file) => topOf(file) === 'infra')
      .flatMap((file) =>
        importsOf(join(src, file))
          .filter((to) => topOf(to) !== 'infra')
          .map((to) => `${file} -> ${to}`),
      );
    assert.deepEqual(offending, []);
  });

  it('no part of the product imports the server root', () => {
    const offending = code
      .filter((file) => topOf(file) !== '')
      .flatMap((file) =>
        importsOf(join(src, file))
          .filter((to) => topOf(to) === '')
          .map((to) => `${file} -> ${to}`),
      );
    assert.deepEqual(offending, []);
  });

  it('imports app.ts only from the assembly around it', () => {
    const importers = all.filter((file) => importsOf(join(src, file)).includes('app.ts') && !isTest(file));
    assert.deepEqual(
      importers.filter((file) => !ASSEMBLY.has(file)),
      [],
    );
  });

  it('copies no configuration by triggers: one control plane, attached by every cell', () => {
    const triggers = all.filter(
      (file) => /CREATE\s+TEMP(ORARY)?\s+TRIGGER/i.test(readFileSync(join(src, file), 'utf8')) && file !== 'architecture.test.ts',
    );
    assert.deepEqual(triggers, []);
  });
});
