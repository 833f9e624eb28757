// The elements' React and Vue declarations (packages/elements/src/frameworks/react.ts and vue.ts, published as
// `@svc/elements/react` and `@svc/elements/vue`) must be what scripts/element-types.mjs makes of the checked-in
// custom-elements.json, which packages/elements/src/custom-elements.test.ts holds to the elements' JSDoc: the
// declarations cannot drift from the elements. After a change, run `pnpm --filter @svc/elements cem`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { elementTypes, manifestPath, outputs, readTypeScope } from './element-types.mjs';

interface Entry {
  name: string;
  fieldName?: string;
  type?: { text: string };
  kind?: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
}
interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: Entry[];
  members?: Entry[];
  events?: Entry[];
}
interface Manifest {
  modules: { declarations?: Declaration[] }[];
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const scope = readTypeScope();
const generated = elementTypes(manifest, scope);
// The elements with a tag (the people's list base is a custom element class with none).
const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
const copy = (): Manifest => JSON.parse(JSON.stringify(manifest)) as Manifest;
const decisionOf = (m: Manifest) => m.modules.flatMap((x) => x.declarations ?? []).find((d) => d.tagName === 'svc-decision')!;
/** The body of `export interface <name> ... { ... }` in `text`. */
const body = (text: string, name: string) => {
  const match = new RegExp(`export interface ${name}\\b[^{]*\\{\\n([\\s\\S]*?)\\n\\}`).exec(text);
  assert.ok(match, `${name} is declared`);
  return match[1]!;
};

describe('scripts/element-types.mjs', () => {
  it('the checked-in react.ts is what it makes of custom-elements.json (run `pnpm --filter @svc/elements cem` after a change)', () => {
    assert.equal(readFileSync(outputs.react, 'utf8'), generated.react);
  });

  it('the checked-in vue.ts is what it makes of custom-elements.json', () => {
    assert.equal(readFileSync(outputs.vue, 'utf8'), generated.vue);
  });

  it('gives React every element, its attributes and properties as the manifest types them, and a handler per custom event', () => {
    assert.deepEqual(elements.map((e) => e.tagName).sort(), [
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
    for (const element of elements) {
      assert.match(generated.react, new RegExp(`'${element.tagName}': ${element.name}Props;`));
      const props = body(generated.react, `${element.name}Props`);
      for (const attribute of element.attributes ?? []) {
        const field = attribute.fieldName ?? attribute.name;
        // The property, as typed; the attribute form when its name differs.
        assert.ok(props.includes(`  ${field}?: ${attribute.type!.text};`), `${element.tagName} ${field}: ${attribute.type!.text}`);
        // Quoted where the name is no identifier (`'trust-url'`).
        if (attribute.name !== field) assert.match(props, new RegExp(`  '?${attribute.name}'?\\?: (string|boolean|number);`));
      }
      for (const event of (element.events ?? []).filter((e) => e.name.includes('-'))) {
        assert.ok(props.includes(`  'on${event.name}'?: (event: ${event.type!.text}) => void;`), `${element.tagName} on${event.name}`);
      }
    }
    // Writable properties that are not attributes are props too; read-only and private ones are not.
    const inbox = body(generated.react, 'SvcInboxProps');
    assert.ok(inbox.includes('  accessToken?: string | undefined;'));
    assert.ok(inbox.includes('  getAccessToken?: InboxTokenProvider | undefined;'));
    assert.ok(!/^ {2}(status|decisions)\?:/m.test(inbox));
    assert.ok(!/^ {2}config\?:/m.test(body(generated.react, 'SvcProviderProps')));
  });

  it('gives Vue every element as a GlobalComponents entry, with its events by name and as on<Name> props', () => {
    for (const element of elements) {
      assert.match(
        generated.vue,
        new RegExp(`'${element.tagName}': SvcVueElement<${element.name}, ${element.name}Props, ${element.name}Events>;`),
      );
      const props = body(generated.vue, `${element.name}Props`);
      const inTemplates = (element.events ?? []).filter((e) => !/-(once|passive|capture)$/.test(e.name));
      const events = inTemplates.map((e) => `  ${e.name.includes('-') ? `'${e.name}'` : e.name}: ${e.type!.text};`);
      if (events.length) assert.equal(body(generated.vue, `${element.name}Events`), events.join('\n'));
      for (const event of inTemplates) {
        const handler = `on${event.name
          .split('-')
          .map((w) => w[0]!.toUpperCase() + w.slice(1))
          .join('')}`;
        assert.ok(props.includes(`  ${handler}?: (event: ${event.type!.text}) => void;`), `${element.tagName} ${handler}`);
      }
    }
    assert.ok(body(generated.vue, 'SvcDecisionProps').includes('  onSvcComplete?: (event: SvcCompleteEvent) => void;'));
  });

  it('keeps the dash in a Vue handler whose camelCase name Vue would read as a modifier (svc-capture is not `svc` + Capture)', () => {
    const field = body(generated.vue, 'SvcConsentFieldProps');
    assert.ok(field.includes("  'onSvc-capture'?: (event: SvcCaptureEvent) => void;"));
    assert.ok(!field.includes('onSvcCapture'));
    assert.ok(!body(generated.vue, 'SvcConsentFieldEvents').includes('svc-capture'));
    assert.match(
      field,
      /Not `@svc-capture`, which Vue reads as a capture-phase listener of `svc`: write `v-on="\{ 'svc-capture': handler \}"`/,
    );
  });

  it('follows a change in the manifest: a new attribute and event appear in both files, typed', () => {
    const changed = copy();
    const decision = decisionOf(changed);
    decision.attributes!.push({ name: 'return-url', fieldName: 'returnUrl', type: { text: 'string | undefined' } });
    decision.members!.push({ kind: 'field', name: 'returnUrl', privacy: 'public', type: { text: 'string | undefined' } });
    decision.events!.push({ name: 'svc-reopen', type: { text: 'SvcReadyEvent' } });
    const next = elementTypes(changed, scope);
    const react = body(next.react, 'SvcDecisionProps');
    assert.ok(react.includes('  returnUrl?: string | undefined;') && react.includes("  'return-url'?: string;"));
    assert.ok(react.includes("  'onsvc-reopen'?: (event: SvcReadyEvent) => void;"));
    assert.ok(body(next.vue, 'SvcDecisionProps').includes('  onSvcReopen?: (event: SvcReadyEvent) => void;'));
    assert.notEqual(next.react, generated.react);
  });

  it('stops when the manifest types something with a name @svc/elements does not export', () => {
    const changed = copy();
    decisionOf(changed).events!.push({ name: 'svc-later', type: { text: 'SvcLaterEvent' } });
    assert.throws(
      () => elementTypes(changed, scope),
      /<svc-decision> event svc-later is typed `SvcLaterEvent`.*does not export `SvcLaterEvent`/,
    );
  });
});
