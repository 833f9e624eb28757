import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';

describe('@svc/protocol entry', () => {
  it('imports with no window or document, as server-side rendering does', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
    const api = await import('./index.js');
    assert.equal(typeof api.createHostChannel, 'function');
  });

  it('exports exactly the public API', async () => {
    const api = await import('./index.js');
    assert.deepEqual(Object.keys(api).sort(), [
      'DEADLINE_THRESHOLDS',
      'KINDS',
      'MESSAGE_TYPES',
      'PROTOCOL_VERSION',
      'ProtocolError',
      'ProtocolErrorCode',
      'approvalCompletePayloadSchema',
      'approvalStatePayloadSchema',
      'brandingSchema',
      'cancelPayloadSchema',
      'completePayloadSchema',
      'consentCompletePayloadSchema',
      'consentStatePayloadSchema',
      'createDeadlineClock',
      'createFramePort',
      'createHostChannel',
      'createMessage',
      'deadlinePayloadSchema',
      'envelopeSchema',
      'errorPayloadSchema',
      'isSvcMessage',
      'kindSchema',
      'messageSchema',
      'parseMessage',
      'payloadSchemas',
      'readyPayloadSchema',
      'resizePayloadSchema',
      'signatureCompletePayloadSchema',
      'statePayloadSchema',
    ]);
  });

  it('keeps JSON Schema generation on its own subpath', async () => {
    const subpath = await import('./json-schemas.js');
    assert.deepEqual(Object.keys(subpath).sort(), ['MESSAGE_SCHEMAS_BASE_URL', 'messageJsonSchemas']);
  });

  it('imports only zod/mini and its own modules in browser-bound code', () => {
    // Everything under lib/ but the Node-side JSON Schema generator ends up in the browser bundle.
    const lib = readdirSync(new URL('lib/', import.meta.url))
      .filter((file) => file.endsWith('.ts') && !file.includes('.test.') && file !== 'json-schemas.ts')
      .map((file) => `lib/${file}`);
    let imports = 0;
    for (const file of ['index.ts', ...lib]) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const [, specifier] of source.matchAll(/\bfrom\s+'([^']+)'/g)) {
        imports += 1;
        assert.ok(specifier === 'zod/mini' || /^\.\/(lib\/)?[a-z-]+\.js$/.test(specifier!), `${file} imports ${specifier}`);
      }
    }
    assert.ok(lib.length >= 8 && imports > 20, 'found the sources to check');
  });

  it('builds schemas from only the zod kinds the browser bundle pays for', () => {
    // Each zod schema kind or check ships its implementation to every page that embeds a decision. Before adding
    // one, see whether these already state the rule; if not, use zod's own kind for it and measure it with `pnpm size`.
    // `union` only builds the exported any-kind schemas; the host path looks variants up instead.
    const allowed = new Set([
      'string',
      'regex',
      'int',
      'nonnegative',
      'positive',
      'literal',
      'strictObject',
      'optional',
      'nullable',
      'union',
      'refine',
      'record',
      'unknown',
      'httpUrl',
    ]);
    const used = new Set<string>();
    for (const file of readdirSync(new URL('lib/', import.meta.url))) {
      if (!file.endsWith('.ts') || file.includes('.test.') || file === 'json-schemas.ts') continue;
      // Comments may name kinds the code does not use.
      const code = readFileSync(new URL(`lib/${file}`, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [, name] of code.matchAll(/\bz\.([\w.]+)(?:<[^()]*>)?\(/g)) used.add(name!);
    }
    assert.deepEqual(
      [...used].filter((name) => !allowed.has(name)),
      [],
      'zod kinds outside the list',
    );
    assert.ok(used.has('strictObject') && used.has('literal'), 'found the schemas to check');
  });
});
