// @svc/schemas, @svc/client and @svc/server as users get them: `pnpm pack` of each (and of the workspace packages the
// server depends on), checked by publint and by @arethetypeswrong/cli (node16 from CommonJS and from ESM, and bundler), then
// installed into a scratch project outside the workspace, where child Node processes require and import every entry,
// run the `svc` command, start the reference server and compile a TypeScript consumer. Needs `pnpm run build`
// first; `node scripts/test.mjs packages` runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

/** The workspace packages packed: the three under test and what the server's tarball needs beside them. */
const WORKSPACE = ['protocol', 'capture', 'schemas', 'elements', 'client', 'server'];
/** The packages under test (publint, attw, installed by name). */
const TESTED = ['schemas', 'client', 'server'];

/** Each entry users load and what it must export (name: typeof). */
const ENTRIES = [
  {
    specifier: '@svc/client',
    exports: {
      createClient: 'function',
      connect: 'function',
      createDecision: 'function',
      verifyWebhook: 'function',
      verifyReceipt: 'function',
      verifyAuditChain: 'function',
      isSvcError: 'function',
      SvcError: 'function',
      SvcOAuthError: 'function',
    },
  },
  {
    specifier: '@svc/schemas',
    exports: { createDecisionRequest: 'object', decision: 'object', apiTokenMe: 'object', flowRender: 'object', inboxDecision: 'object' },
  },
  { specifier: '@svc/client/schemas', exports: { createDecisionRequest: 'object', decision: 'object', apiTokenMe: 'object' } },
  { specifier: '@svc/client/oauth', exports: { createOAuthClient: 'function', SvcOAuthError: 'function' } },
  {
    specifier: '@svc/client/credentials',
    exports: { presentCredential: 'function', credentialClaims: 'function', disclosableClaims: 'function' },
  },
  {
    specifier: '@svc/server',
    exports: {
      startServer: 'function',
      createApp: 'function',
      createTestClock: 'function',
      systemClock: 'object',
      sandboxSeeders: 'object',
    },
  },
];
const packageOf = (specifier) => specifier.split('/').slice(0, 2).join('/');

let work;
let scratch;
/** Tarball path by workspace directory name. */
const tarballs = {};

const manifestOf = (name) => JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
const tarballName = ({ name, version }) => `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;

before(async () => {
  for (const name of TESTED) {
    assert.ok(existsSync(join(root, 'packages', name, manifestOf(name).main)), `packages/${name} is not built: run pnpm run build`);
  }
  work = mkdtempSync(join(tmpdir(), 'svc-packages-'));
  const packs = join(work, 'tarballs');
  mkdirSync(packs);
  await Promise.all(WORKSPACE.map((name) => run('pnpm', ['pack', '--pack-destination', packs], { cwd: join(root, 'packages', name) })));
  for (const name of WORKSPACE) tarballs[name] = join(packs, tarballName(manifestOf(name)));

  // Outside the workspace (its own pnpm-workspace.yaml), depending on the three tarballs; the client's and the server's
  // workspace dependencies come from their tarballs too. The workspace's lockfile is the starting point, so pnpm picks the
  // versions the workspace is tested with and reuses their builds from the store (better-sqlite3's among them).
  scratch = join(work, 'project');
  mkdirSync(scratch);
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify(
      {
        name: 'svc-tarball-user',
        private: true,
        dependencies: Object.fromEntries(TESTED.map((name) => [manifestOf(name).name, `file:${tarballs[name]}`])),
        devDependencies: { '@types/node': rootManifest.devDependencies['@types/node'] },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(scratch, 'pnpm-workspace.yaml'),
    [
      'allowBuilds:',
      '  better-sqlite3: true',
      'overrides:',
      ...WORKSPACE.map((name) => `  "${manifestOf(name).name}": "file:${tarballs[name]}"`),
      '',
    ].join('\n'),
  );
  copyFileSync(join(root, 'pnpm-lock.yaml'), join(scratch, 'pnpm-lock.yaml'));
  for (const file of ['probe.mjs', 'serve.mjs']) copyFileSync(join(here, file), join(scratch, file));
  try {
    await run('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile'], { cwd: scratch, timeout: 600_000 });
  } catch (error) {
    throw new Error(`pnpm install of the tarballs failed:\n${error.stdout}\n${error.stderr}`);
  }
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs node in the scratch project and returns its stdout (throws with stderr when it fails). */
async function node(args) {
  try {
    return (await run(process.execPath, args, { cwd: scratch, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw new Error(`node ${args.join(' ')} failed:\n${error.stdout}\n${error.stderr}`);
  }
}

async function filesOf(tarball) {
  const { stdout } = await run('tar', ['tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
}

describe('the tarballs', () => {
  /** Every file the exports map (but `source`) and the bins name, and for the server its hosted pages' bundles. */
  const wanted = (name) => {
    const { exports, bin } = manifestOf(name);
    const targets = (value) =>
      typeof value === 'string'
        ? [value]
        : Object.entries(value).flatMap(([condition, inner]) => (condition === 'source' ? [] : targets(inner)));
    return [
      ...targets(exports),
      ...Object.values(bin ?? {}),
      ...(name === 'server' ? ['decision-page', 'playground', 'oauth-page'].map((page) => `dist/public/${page}.js`) : []),
    ].map((file) => file.replace(/^\.\//, ''));
  };
  for (const name of TESTED) {
    test(`@svc/${name}'s holds its ESM and CommonJS builds with their declarations, and no sources or tests`, async (t) => {
      const files = await filesOf(tarballs[name]);
      for (const file of wanted(name)) assert.ok(files.includes(file), `${file} is missing from the tarball`);
      assert.deepEqual(
        files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md'].includes(file)),
        [],
      );
      assert.deepEqual(
        files.filter((file) => /\.test(-d)?\.|\.tsbuildinfo$|\/testing\//.test(file)),
        [],
      );
      t.diagnostic(`@svc/${name} tarball: ${(statSync(tarballs[name]).size / 1024).toFixed(0)} kB, ${files.length} files`);
    });

    test(`publint finds no error and no warning in @svc/${name}`, async () => {
      const bytes = readFileSync(tarballs[name]);
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const { messages, pkg } = await publint({ pack: { tarball }, level: 'warning' });
      assert.deepEqual(
        messages.map((message) => `${message.type}: ${formatMessage(message, pkg)}`),
        [],
      );
    });

    test(`attw: every entry of @svc/${name} resolves, typed, under node16 (CommonJS and ESM) and bundler`, async () => {
      let report;
      try {
        const attw = join(root, 'node_modules', '.bin', 'attw');
        ({ stdout: report } = await run(attw, [tarballs[name], '--profile', 'node16', '--format', 'json', '--no-definitely-typed'], {
          maxBuffer: 64 * 1024 * 1024,
        }));
      } catch (error) {
        throw new Error(`attw found problems:\n${error.stdout.slice(0, 4000)}`);
      }
      const { analysis, problems } = JSON.parse(report);
      // The node16 profile leaves node10 (no `exports` support) out.
      assert.deepEqual(
        Object.values(problems)
          .flat()
          .filter((problem) => problem.resolutionKind !== 'node10'),
        [],
      );
      const subpaths = ENTRIES.filter(({ specifier }) => packageOf(specifier) === `@svc/${name}`).map(
        ({ specifier }) => `.${specifier.slice(`@svc/${name}`.length)}`,
      );
      // Each resolves where the exports map says: .d.cts and .cjs from CommonJS, .d.ts and .js from ESM.
      const { exports } = manifestOf(name);
      for (const subpath of subpaths) {
        const { import: esm, require: cjs } = exports[subpath];
        assert.deepEqual(
          [cjs.types, cjs.default, esm.types, esm.default].map((file) => file.match(/\.d\.cts$|\.cjs$|\.d\.ts$|\.js$/)?.[0]),
          ['.d.cts', '.cjs', '.d.ts', '.js'],
          subpath,
        );
        const { resolutions } = analysis.entrypoints[subpath];
        const at = (kind) =>
          [resolutions[kind].resolution?.fileName, resolutions[kind].implementationResolution?.fileName].map((file) =>
            file?.replace(`/node_modules/@svc/${name}/`, './'),
          );
        assert.deepEqual(
          { 'node16-cjs': at('node16-cjs'), 'node16-esm': at('node16-esm'), bundler: at('bundler') },
          {
            'node16-cjs': [cjs.types, cjs.default],
            'node16-esm': [esm.types, esm.default],
            bundler: [esm.types, esm.default],
          },
          subpath,
        );
      }
    });
  }
});

describe('installed from the tarballs', () => {
  const seen = {};
  for (const { specifier, exports } of ENTRIES) {
    for (const mode of ['require', 'import']) {
      test(`${mode}('${specifier}') gives its API and has no side effect`, async () => {
        const report = JSON.parse(await node(['probe.mjs', mode, specifier, packageOf(specifier)]));
        assert.equal(report.error, undefined);
        seen[`${mode} ${specifier}`] = Object.keys(report.exports).sort();
        for (const [name, kind] of Object.entries(exports)) assert.equal(report.exports[name], kind, `${name} of ${specifier}`);
        // Beyond what its dependencies do when loaded: reads no file, starts nothing, touches no global.
        assert.deepEqual(
          {
            touched: report.touched,
            globals: report.globals,
            resources: report.resources,
            listeners: report.listeners,
            environmentChanged: report.environmentChanged,
            written: report.written,
            warnings: report.warnings,
          },
          { touched: [], globals: [], resources: [], listeners: [], environmentChanged: false, written: [], warnings: [] },
        );
      });
    }
    test(`require and import of '${specifier}' give the same names`, () => {
      assert.ok(seen[`require ${specifier}`] && seen[`import ${specifier}`], 'both loads ran');
      assert.deepEqual(seen[`require ${specifier}`], seen[`import ${specifier}`]);
    });
  }

  test('an error class is one class across subpaths, under require and under import', async () => {
    const check =
      'const oauthError = new oauth.SvcOAuthError("x"); console.log(JSON.stringify([oauth.SvcOAuthError === client.SvcOAuthError, oauthError instanceof client.SvcError, client.isSvcError(oauthError)]));';
    const required = await node(['-e', `const client = require('@svc/client'), oauth = require('@svc/client/oauth'); ${check}`]);
    const imported = await node([
      '--input-type=module',
      '-e',
      `const client = await import('@svc/client'), oauth = await import('@svc/client/oauth'); ${check}`,
    ]);
    assert.deepEqual(JSON.parse(required), [true, true, true]);
    assert.deepEqual(JSON.parse(imported), [true, true, true]);
  });

  test('@svc/client/schemas hands out the schemas of @svc/schemas themselves (one copy installed), under require and under import', async () => {
    const check =
      'console.log(JSON.stringify([own.decision === reexported.decision, own.flowRender === reexported.flowRender, Object.keys(own).length === Object.keys(reexported).length]));';
    const required = await node(['-e', `const own = require('@svc/schemas'), reexported = require('@svc/client/schemas'); ${check}`]);
    const imported = await node([
      '--input-type=module',
      '-e',
      `const own = await import('@svc/schemas'), reexported = await import('@svc/client/schemas'); ${check}`,
    ]);
    assert.deepEqual(JSON.parse(required), [true, true, true]);
    assert.deepEqual(JSON.parse(imported), [true, true, true]);
  });

  test('a browser bundler takes every client and schemas entry, by import and by require (nothing from Node in them)', async () => {
    for (const { specifier } of ENTRIES.filter((entry) => ['@svc/client', '@svc/schemas'].includes(packageOf(entry.specifier)))) {
      for (const contents of [`export * from '${specifier}';`, `module.exports = require('${specifier}');`]) {
        const { errors } = await build({
          stdin: { contents, resolveDir: scratch },
          bundle: true,
          platform: 'browser',
          format: 'esm',
          write: false,
          logLevel: 'silent',
        });
        assert.deepEqual(errors, [], contents);
      }
    }
  });

  test('a page importing only createDecision bundles only the modules it needs (ESM is one file per module)', async () => {
    const { metafile } = await build({
      stdin: {
        contents: "import { connect, createDecision } from '@svc/client'; export const ask = (o) => createDecision(connect(o), {});",
        resolveDir: scratch,
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      outfile: 'page.js',
      logLevel: 'silent',
    });
    const modules = Object.keys(Object.values(metafile.outputs)[0].inputs)
      .map((path) => path.match(/@svc\/client\/dist\/(.*)$/)?.[1])
      .filter(Boolean);
    assert.ok(modules.includes('esm/resources/decisions.js') && modules.includes('esm/lib/connection.js'), modules.join(', '));
    assert.deepEqual(
      modules.filter((path) => /^esm\/(verify|oauth|credentials|cli)\/|protect\.js$/.test(path)),
      [],
    );
  });

  test('the svc command prints its help', async () => {
    const { stdout } = await run(join(scratch, 'node_modules', '.bin', 'svc'), ['--help'], { cwd: scratch });
    assert.match(stdout, /^Usage: svc <command>/);
  });

  for (const mode of ['require', 'import']) {
    test(`the reference server runs from the tarball and the client and svc talk to it (${mode})`, async () => {
      const seen = JSON.parse(await node(['serve.mjs', mode]));
      for (const [path, { status, bytes }] of Object.entries(seen.assets)) {
        assert.equal(status, 200, path);
        assert.ok(bytes > 0, path);
      }
      assert.equal(seen.me.kind, 'api_token');
      assert.equal(seen.notFoundIsSvcNotFoundError, true);
      assert.equal(seen.cli.status, 0, seen.cli.stderr);
      assert.equal(JSON.parse(seen.cli.stdout).account.id, seen.me.account);
    });
  }

  test('TypeScript (module node20: the engines floor, require(esm) allowed) types the three packages from CommonJS and ESM files, every declaration checked', async () => {
    const use = (load) => `${load}
export const svc = createClient({ baseUrl: 'http://127.0.0.1:4010', apiToken: 'token' });
export const signIn = createOAuthClient;
export const present = presentCredential;
export const request = schemas.createDecisionRequest;
export const render: FlowRender | undefined = undefined;
export const sameSchema: typeof schemas.decision = decision;
export const start = (): Promise<RunningServer> => startServer({ port: 0 });
// @ts-expect-error the types are real: an unknown option is an error
createClient({ baseUrl: 'http://127.0.0.1:4010', apiToken: 'token', apiTokn: 'typo' });
`;
    writeFileSync(
      join(scratch, 'consumer.mts'),
      use(`import { createClient } from '@svc/client';
import * as schemas from '@svc/client/schemas';
import { decision, type FlowRender } from '@svc/schemas';
import { createOAuthClient } from '@svc/client/oauth';
import { presentCredential } from '@svc/client/credentials';
import { startServer, type RunningServer } from '@svc/server';`),
    );
    writeFileSync(
      join(scratch, 'consumer.cts'),
      use(`import { createClient } from '@svc/client';
import schemas = require('@svc/client/schemas');
import { decision, type FlowRender } from '@svc/schemas';
import { createOAuthClient } from '@svc/client/oauth';
import { presentCredential } from '@svc/client/credentials';
import { startServer, type RunningServer } from '@svc/server';`),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    await node([
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'node20',
      '--target',
      'es2022',
      '--skipLibCheck',
      'false',
      '--types',
      'node',
      'consumer.mts',
      'consumer.cts',
    ]).catch((error) => assert.fail(error.message));
  });
});
