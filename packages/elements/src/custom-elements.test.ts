// The checked-in custom-elements.json (which the package's `customElements` field names and Storybook's autodocs
// read) must be exactly what the analyzer makes of the elements' JSDoc now, like the JSON Schema drift tests: after
// changing an element's @fires, @csspart, @cssprop, @slot or attributes, run `pnpm --filter @svc/elements cem`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error The analyzer's CLI module ships no types.
import { cli } from '@custom-elements-manifest/analyzer/cli.js';

interface Named {
  name: string;
}
interface Declaration extends Named {
  kind: string;
  tagName?: string;
  customElement?: boolean;
  summary?: string;
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
  attributes?: Named[];
}
interface Manifest {
  modules: { path: string; declarations?: Declaration[]; exports?: { kind: string; name: string }[] }[];
}

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const checkedIn = JSON.parse(readFileSync(join(packageDir, 'custom-elements.json'), 'utf8')) as Manifest;
const generated = JSON.parse(
  JSON.stringify(
    await cli({
      argv: ['analyze', '--config', '../../custom-elements-manifest.config.mjs', '--quiet'],
      cwd: packageDir,
      noWrite: true,
    }),
  ),
) as Manifest;

const element = (manifest: Manifest, tag: string): Declaration => {
  const found = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === tag);
  assert.ok(found, `custom-elements.json has no <${tag}>`);
  return found;
};
const names = (list: Named[] | undefined) => (list ?? []).map((x) => x.name).sort();

describe('custom-elements.json', () => {
  it('is what the analyzer generates from the JSDoc now (run `pnpm --filter @svc/elements cem` after a change)', () => {
    assert.deepEqual(checkedIn, generated);
  });

  it("is the package's customElements field", () => {
    const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { customElements?: string; files?: string[] };
    assert.equal(pkg.customElements, 'custom-elements.json');
    assert.ok(pkg.files?.includes('custom-elements.json'), 'the manifest is published with the package');
  });

  it('describes <svc-decision>: every event, part, custom property, slot and attribute', () => {
    const decision = element(checkedIn, 'svc-decision');
    assert.equal(decision.customElement, true);
    assert.ok(decision.summary);
    assert.deepEqual(names(decision.events), [
      'svc-cancel',
      'svc-complete',
      'svc-deadline',
      'svc-error',
      'svc-ready',
      'svc-resize',
      'svc-state',
    ]);
    assert.deepEqual(names(decision.cssParts), ['base', 'button', 'error', 'expired', 'fallback', 'frame', 'loading', 'status']);
    assert.deepEqual(names(decision.cssProperties), [
      '--svc-decision-accent',
      '--svc-decision-accent-text',
      '--svc-decision-background',
      '--svc-decision-border',
      '--svc-decision-color',
      '--svc-decision-focus-ring',
      '--svc-decision-font',
      '--svc-decision-link',
      '--svc-decision-max-height',
      '--svc-decision-min-height',
      '--svc-decision-radius',
    ]);
    assert.deepEqual(names(decision.slots), ['', 'error', 'expired', 'loading']);
    assert.deepEqual(names(decision.attributes), ['label', 'mode', 'token', 'trust-url']);
  });

  it('describes <svc-consent-field>: every event, part, custom property and attribute', () => {
    const field = element(checkedIn, 'svc-consent-field');
    assert.equal(field.customElement, true);
    assert.ok(field.summary);
    assert.deepEqual(names(field.events), ['change', 'svc-capture', 'svc-error']);
    assert.deepEqual(names(field.cssParts), ['base', 'control', 'description', 'hint', 'label', 'legend', 'message', 'policy', 'row']);
    assert.deepEqual(names(field.cssProperties), [
      '--svc-accent',
      '--svc-border',
      '--svc-font-family',
      '--svc-font-size',
      '--svc-muted',
      '--svc-radius',
      '--svc-space',
      '--svc-text',
    ]);
    assert.deepEqual(names(field.attributes), [
      'appearance',
      'base-url',
      'commit',
      'disabled',
      'flow',
      'locale',
      'name',
      'publishable-key',
      'purposes',
      'theme',
      'trust-url',
    ]);
  });

  it('describes <svc-provider> and defines each tag from its own module', () => {
    const provider = element(checkedIn, 'svc-provider');
    assert.deepEqual(names(provider.attributes), ['base-url', 'locale', 'publishable-key', 'theme', 'trust-url', 'trust-urls']);
    const definitions = checkedIn.modules
      .flatMap((m) => (m.exports ?? []).filter((e) => e.kind === 'custom-element-definition'))
      .map((e) => e.name)
      .sort();
    assert.deepEqual(definitions, [
      'svc-agents',
      'svc-agreements',
      'svc-applications',
      'svc-connections',
      'svc-consent-field',
      'svc-credentials',
      'svc-data-offers',
      'svc-data-requests',
      'svc-decision',
      'svc-delegations',
      'svc-evidence',
      'svc-governance',
      'svc-inbox',
      'svc-policies',
      'svc-provider',
      'svc-receipts',
      'svc-records',
      'svc-vouches',
      'svc-webhooks',
    ]);
  });

  it('describes <svc-inbox>: its events, parts, custom properties, slots and attributes', () => {
    const inbox = element(checkedIn, 'svc-inbox');
    assert.equal(inbox.customElement, true);
    assert.ok(inbox.summary);
    assert.deepEqual(names(inbox.events), ['svc-error', 'svc-inbox-open']);
    assert.deepEqual(names(inbox.cssParts), ['base', 'list', 'meta', 'more', 'retry', 'row', 'status', 'summary', 'title']);
    assert.deepEqual(names(inbox.cssProperties), [
      '--svc-inbox-accent',
      '--svc-inbox-border',
      '--svc-inbox-color',
      '--svc-inbox-font',
      '--svc-inbox-gap',
      '--svc-inbox-radius',
    ]);
    assert.deepEqual(names(inbox.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(inbox.attributes), ['application-id', 'base-url', 'kind', 'limit', 'sort', 'trigger', 'trust-url']);
  });

  it('describes <svc-records>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const records = element(checkedIn, 'svc-records');
    assert.equal(records.customElement, true);
    assert.ok(records.summary);
    assert.deepEqual(names(records.events), ['svc-error', 'svc-records-withdraw']);
    assert.deepEqual(names(records.cssParts), [
      'base',
      'cancel-button',
      'confirm',
      'confirm-button',
      'heading',
      'list',
      'meta',
      'more',
      'organisation',
      'outcome',
      'purpose',
      'purpose-label',
      'purposes',
      'record',
      'retry',
      'status',
      'title',
      'withdraw',
      'withdraw-all',
    ]);
    assert.deepEqual(names(records.cssProperties), [
      '--svc-records-accent',
      '--svc-records-border',
      '--svc-records-color',
      '--svc-records-font',
      '--svc-records-gap',
      '--svc-records-radius',
    ]);
    assert.deepEqual(names(records.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(records.attributes), ['limit', 'record-status', 'token-url', 'trust-url']);
  });

  it('describes <svc-receipts>: its events, parts, custom properties, slots and attributes (the token and the JWKS never attributes)', () => {
    const receipts = element(checkedIn, 'svc-receipts');
    assert.equal(receipts.customElement, true);
    assert.ok(receipts.summary);
    assert.deepEqual(names(receipts.events), ['svc-error', 'svc-receipts-verify']);
    assert.deepEqual(names(receipts.cssParts), [
      'actions',
      'agents',
      'base',
      'bound',
      'bounds',
      'check',
      'drop',
      'file',
      'file-verdict',
      'heading',
      'list',
      'meta',
      'more',
      'organisation',
      'receipt',
      'retry',
      'status',
    ]);
    assert.deepEqual(names(receipts.cssProperties), [
      '--svc-receipts-accent',
      '--svc-receipts-border',
      '--svc-receipts-color',
      '--svc-receipts-font',
      '--svc-receipts-gap',
      '--svc-receipts-radius',
    ]);
    assert.deepEqual(names(receipts.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(receipts.attributes), ['limit', 'token-url', 'trust-url', 'view']);
  });

  it('describes <svc-delegations>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const delegations = element(checkedIn, 'svc-delegations');
    assert.equal(delegations.customElement, true);
    assert.ok(delegations.summary);
    assert.deepEqual(names(delegations.events), ['svc-delegations-change', 'svc-error']);
    assert.deepEqual(names(delegations.cssParts), [
      'actions',
      'add',
      'base',
      'bound',
      'bounds',
      'cancel-button',
      'confirm',
      'confirm-button',
      'delegate',
      'field',
      'field-error',
      'form',
      'form-error',
      'grant',
      'heading',
      'list',
      'meta',
      'more',
      'organisation',
      'resume',
      'retry',
      'revoke',
      'status',
      'suspend',
    ]);
    assert.deepEqual(names(delegations.cssProperties), [
      '--svc-delegations-accent',
      '--svc-delegations-border',
      '--svc-delegations-color',
      '--svc-delegations-font',
      '--svc-delegations-gap',
      '--svc-delegations-radius',
    ]);
    assert.deepEqual(names(delegations.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(delegations.attributes), ['grant-status', 'limit', 'token-url', 'trust-url']);
  });

  it('describes <svc-connections>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const connections = element(checkedIn, 'svc-connections');
    assert.equal(connections.customElement, true);
    assert.ok(connections.summary);
    assert.deepEqual(names(connections.events), ['svc-connections-change', 'svc-error']);
    assert.deepEqual(names(connections.cssParts), [
      'actions',
      'application',
      'base',
      'cancel-button',
      'cancel-link',
      'claim',
      'claim-button',
      'claim-form',
      'confirm',
      'confirm-button',
      'connection',
      'device',
      'device-link',
      'disconnect',
      'heading',
      'list',
      'meta',
      'more',
      'organisation',
      'policies',
      'retry',
      'status',
      'trust-pairing',
      'unpair',
      'warnings',
    ]);
    assert.deepEqual(names(connections.cssProperties), [
      '--svc-connections-accent',
      '--svc-connections-border',
      '--svc-connections-color',
      '--svc-connections-font',
      '--svc-connections-gap',
      '--svc-connections-radius',
    ]);
    assert.deepEqual(names(connections.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(connections.attributes), ['limit', 'token-url', 'trust-url', 'view']);
  });

  it('describes <svc-agreements>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const agreements = element(checkedIn, 'svc-agreements');
    assert.equal(agreements.customElement, true);
    assert.ok(agreements.summary);
    assert.deepEqual(names(agreements.events), ['svc-agreements-change', 'svc-error']);
    assert.deepEqual(names(agreements.cssParts), [
      'actions',
      'agreement',
      'base',
      'cancel-button',
      'collaboration',
      'confirm',
      'confirm-button',
      'decline',
      'document',
      'document-text',
      'fingerprint',
      'heading',
      'leave',
      'list',
      'meta',
      'more',
      'organisation',
      'parties',
      'retry',
      'sign',
      'status',
      'terms',
      'title',
      'you',
    ]);
    assert.deepEqual(names(agreements.cssProperties), [
      '--svc-agreements-accent',
      '--svc-agreements-border',
      '--svc-agreements-color',
      '--svc-agreements-font',
      '--svc-agreements-gap',
      '--svc-agreements-radius',
    ]);
    assert.deepEqual(names(agreements.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(agreements.attributes), ['limit', 'token-url', 'trust-url', 'view']);
  });

  it("describes the console's elements: their events, a view where they have several, readonly, never the token as an attribute", () => {
    const own: Record<string, string[]> = {
      'svc-agents': ['limit', 'readonly', 'token-url', 'trust-url', 'view'],
      'svc-applications': ['limit', 'readonly', 'token-url', 'trust-url', 'view'],
      'svc-evidence': ['limit', 'readonly', 'token-url', 'trust-url', 'view'],
      'svc-governance': ['application-id', 'limit', 'readonly', 'token-url', 'trust-url', 'view'],
      'svc-policies': ['application-id', 'days', 'limit', 'readonly', 'token-url', 'trust-url', 'view'],
      'svc-webhooks': ['application', 'limit', 'readonly', 'token-url', 'trust-url'],
    };
    for (const [tag, attributes] of Object.entries(own)) {
      const described = element(checkedIn, tag);
      assert.equal(described.customElement, true, tag);
      assert.ok(described.summary, tag);
      assert.deepEqual(names(described.events), [`${tag}-change`, 'svc-error'].sort(), tag);
      assert.deepEqual(names(described.attributes), attributes, tag);
      assert.ok(names(described.cssParts).includes('status'), `${tag} has a live region part`);
      assert.ok(names(described.cssProperties).includes(`--${tag}-accent`), tag);
    }
  });

  it('describes <svc-vouches>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const vouches = element(checkedIn, 'svc-vouches');
    assert.equal(vouches.customElement, true);
    assert.ok(vouches.summary);
    assert.deepEqual(names(vouches.events), ['svc-error', 'svc-vouches-change']);
    assert.deepEqual(names(vouches.cssParts), [
      'actions',
      'base',
      'cancel-button',
      'confirm',
      'confirm-button',
      'factor',
      'factors',
      'field-error',
      'form',
      'form-title',
      'heading',
      'intro',
      'list',
      'meta',
      'more',
      'new',
      'organisation',
      'retry',
      'score',
      'statement',
      'status',
      'subject',
      'submit',
      'trust-score',
      'vouch',
      'withdraw',
    ]);
    assert.deepEqual(names(vouches.cssProperties), [
      '--svc-vouches-accent',
      '--svc-vouches-border',
      '--svc-vouches-color',
      '--svc-vouches-error',
      '--svc-vouches-font',
      '--svc-vouches-gap',
      '--svc-vouches-radius',
    ]);
    assert.deepEqual(names(vouches.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(vouches.attributes), ['limit', 'token-url', 'trust-url', 'view']);
  });

  it('describes <svc-data-offers>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const offers = element(checkedIn, 'svc-data-offers');
    assert.equal(offers.customElement, true);
    assert.ok(offers.summary);
    assert.deepEqual(names(offers.events), ['svc-data-offers-answer', 'svc-error']);
    assert.deepEqual(names(offers.cssParts), [
      'accept',
      'actions',
      'application',
      'base',
      'cancel-button',
      'categories',
      'confirm',
      'confirm-button',
      'decline',
      'heading',
      'license',
      'list',
      'meta',
      'more',
      'note',
      'offer',
      'organisation',
      'retry',
      'revoke',
      'status',
      'terms',
    ]);
    assert.deepEqual(names(offers.cssProperties), [
      '--svc-data-offers-accent',
      '--svc-data-offers-border',
      '--svc-data-offers-color',
      '--svc-data-offers-font',
      '--svc-data-offers-gap',
      '--svc-data-offers-radius',
    ]);
    assert.deepEqual(names(offers.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(offers.attributes), ['limit', 'token-url', 'trust-url', 'view']);
  });

  it('describes <svc-data-requests>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const requests = element(checkedIn, 'svc-data-requests');
    assert.equal(requests.customElement, true);
    assert.ok(requests.summary);
    assert.deepEqual(names(requests.events), ['svc-data-requests-file', 'svc-error']);
    assert.deepEqual(names(requests.cssParts), [
      'base',
      'cancel-button',
      'confirm',
      'confirm-button',
      'download',
      'due',
      'form',
      'form-title',
      'list',
      'meta',
      'more',
      'new',
      'organisation',
      'request',
      'retry',
      'status',
      'type',
    ]);
    assert.deepEqual(names(requests.cssProperties), [
      '--svc-data-requests-accent',
      '--svc-data-requests-border',
      '--svc-data-requests-color',
      '--svc-data-requests-font',
      '--svc-data-requests-gap',
      '--svc-data-requests-radius',
    ]);
    assert.deepEqual(names(requests.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(requests.attributes), ['limit', 'token-url', 'trust-url']);
  });

  it('describes <svc-credentials>: its events, parts, custom properties, slots and attributes (the token never an attribute)', () => {
    const credentials = element(checkedIn, 'svc-credentials');
    assert.equal(credentials.customElement, true);
    assert.ok(credentials.summary);
    assert.deepEqual(names(credentials.events), ['svc-credentials-present', 'svc-error']);
    assert.deepEqual(names(credentials.cssParts), [
      'audience',
      'base',
      'cancel-button',
      'choice',
      'claim',
      'claims',
      'confirm-button',
      'copy',
      'credential',
      'heading',
      'list',
      'meta',
      'more',
      'present',
      'presentation',
      'presentation-row',
      'required',
      'result',
      'retry',
      'status',
      'step',
      'summary',
    ]);
    assert.deepEqual(names(credentials.cssProperties), [
      '--svc-credentials-accent',
      '--svc-credentials-border',
      '--svc-credentials-color',
      '--svc-credentials-font',
      '--svc-credentials-gap',
      '--svc-credentials-radius',
    ]);
    assert.deepEqual(names(credentials.slots), ['empty', 'error', 'signed-out']);
    assert.deepEqual(names(credentials.attributes), ['audience', 'limit', 'token-url', 'trust-url', 'view']);
  });
});
