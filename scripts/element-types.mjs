#!/usr/bin/env node
// Writes the elements' type declarations for React 19's JSX and Vue 3's GlobalComponents from custom-elements.json:
// packages/elements/src/frameworks/react.ts and vue.ts, published as `@svc/elements/react` and `@svc/elements/vue`.
// Each tag's props are the manifest's attributes and public writable fields, typed as the manifest types them, and
// one handler per event (`onsvc-complete` for React 19, `onSvcComplete` for Vue) taking the manifest's event type.
// The type names the manifest uses must be exported by @svc/elements (or @svc/capture, @svc/protocol): the script
// stops and says which one is not. `pnpm --filter @svc/elements cem` runs it after the analyzer; the unit test
// scripts/element-types.test.ts fails when the checked-in files are not what it makes of the checked-in manifest.
// Usage: node scripts/element-types.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const elementsDir = `${root}packages/elements/`;
export const manifestPath = `${elementsDir}custom-elements.json`;
export const outputs = { react: `${elementsDir}src/frameworks/react.ts`, vue: `${elementsDir}src/frameworks/vue.ts` };

/** Where the generated files import type names from (in this order), and the source file that says what each exports. */
const typeSources = [
  { specifier: '../index.js', file: `${elementsDir}src/index.ts` },
  { specifier: '@svc/capture', file: `${root}packages/capture/src/index.ts` },
  { specifier: '@svc/protocol', file: `${root}packages/protocol/src/index.ts` },
];

const KEYWORDS = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'symbol',
  'object',
  'undefined',
  'null',
  'void',
  'never',
  'unknown',
  'any',
  'true',
  'false',
  'readonly',
  'typeof',
  'keyof',
  'unique',
  'infer',
  'extends',
  'is',
  'asserts',
]);

/**
 * What each type source exports and which names are global (the DOM and ES libraries), read with the TypeScript
 * compiler from the sources themselves (parsed only: `noResolve`, so this takes a moment, not a type check).
 */
export function readTypeScope() {
  const program = ts.createProgram(
    typeSources.map((s) => s.file),
    {
      noResolve: true,
      noEmit: true,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const exports = typeSources.map(({ specifier, file }) => {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`element-types: cannot read ${file}`);
    return { specifier, names: new Set(checker.getExportsOfModule(moduleSymbol).map((s) => s.name)) };
  });
  const isGlobal = (name) => !!checker.resolveName(name, undefined, ts.SymbolFlags.Type | ts.SymbolFlags.Value, false);
  return { exports, isGlobal };
}

/** `svc-inbox-open` -> `SvcInboxOpen`. */
const pascal = (name) =>
  name
    .split(/[-_:]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const quoteKey = (key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`);
const stripUndefined = (type) =>
  type
    .split('|')
    .map((t) => t.trim())
    .filter((t) => t !== 'undefined')
    .join(' | ');

/** A JSDoc comment of `text` (the manifest's description), indented by `indent`; nothing when there is no text. */
function doc(text, indent) {
  if (!text) return '';
  const lines = text.replace(/\*\//g, '*\u200b/').trim().split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/**
 * One element's API as both frameworks see it: `properties` (set as the element's properties: attributes whose
 * field has the same name, and public writable fields), `attributes` (attributes whose name differs from their
 * field's, `trust-url`, which the frameworks set as attributes, so as strings) and `events`.
 */
function elementApi(declaration, types) {
  const where = `<${declaration.tagName}>`;
  const fields = (declaration.members ?? []).filter(
    (m) => m.kind === 'field' && !m.static && !m.readonly && (m.privacy ?? 'public') === 'public',
  );
  const typeOf = (entry, what) => {
    const text = entry.type?.text;
    if (!text) {
      // The analyzer could not tell (an initializer it cannot follow): the class's own declaration is the type.
      types.use(declaration.name, `${where} ${what}`);
      return `${declaration.name}[${JSON.stringify(entry.fieldName ?? entry.name)}]`;
    }
    types.use(text, `${where} ${what}`);
    return text;
  };
  const properties = fields.map((field) => ({ key: field.name, type: typeOf(field, field.name), description: field.description }));
  const known = new Set(properties.map((p) => p.key));
  const attributes = [];
  for (const attribute of declaration.attributes ?? []) {
    if (attribute.fieldName === attribute.name) {
      if (!known.has(attribute.name))
        properties.push({ key: attribute.name, type: typeOf(attribute, attribute.name), description: attribute.description });
      continue;
    }
    // As an attribute a value is text: strings, booleans (present or not) and numbers pass as they are, anything
    // else (JSON, a union of names) is written as a string.
    const type = stripUndefined(typeOf(attribute, attribute.name));
    attributes.push({
      key: attribute.name,
      type: ['string', 'boolean', 'number'].includes(type) ? type : 'string',
      description: `Attribute form of \`${attribute.fieldName ?? attribute.name}\`${attribute.description ? `: ${attribute.description}` : '.'}`,
    });
  }
  const events = (declaration.events ?? []).map((event) => ({
    name: event.name,
    type: event.type?.text ? typeOf(event, `event ${event.name}`) : 'CustomEvent',
    description: event.description,
  }));
  return { properties, attributes, events };
}

/** Collects the type names the generated code uses, and where each comes from. */
function typeUser(scope) {
  const imports = new Map(scope.exports.map(({ specifier }) => [specifier, new Set()]));
  return {
    imports,
    use(text, where) {
      const names = text.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, ' ').match(/[A-Za-z_$][\w$]*/g) ?? [];
      for (const name of names) {
        if (KEYWORDS.has(name)) continue;
        const source = scope.exports.find((e) => e.names.has(name));
        if (source) imports.get(source.specifier).add(name);
        else if (!scope.isGlobal(name)) {
          throw new Error(
            `element-types: ${where} is typed \`${text}\` in custom-elements.json, but @svc/elements does not ` +
              `export \`${name}\`: export it (as a type) from packages/elements/src/index.ts`,
          );
        }
      }
    },
  };
}

const importLines = (imports) =>
  [...imports]
    .filter(([, names]) => names.size)
    .map(([specifier, names]) => `import type { ${[...names].sort().join(', ')} } from '${specifier}';`)
    .join('\n');

const HEADER = `// Generated by scripts/element-types.mjs from custom-elements.json: do not edit. \`pnpm --filter @svc/elements cem\`
// regenerates both; scripts/element-types.test.ts fails when this file and the manifest disagree.`;

function reactFile(elements, scope) {
  const types = typeUser(scope);
  const blocks = elements.map((declaration) => {
    types.use(declaration.name, `<${declaration.tagName}>`);
    const { properties, attributes, events } = elementApi(declaration, types);
    // React 19 adds a listener for `on` + the exact event name; a DOM event's own name (`change`) is React's
    // `onChange`, which already comes with HTMLAttributes.
    const custom = events.filter((e) => e.name.includes('-'));
    const keys = [...properties, ...attributes].map((p) => p.key);
    const omit = keys.length
      ? `Omit<HTMLAttributes<${declaration.name}>, ${keys.map((k) => `'${k}'`).join(' | ')}>`
      : `HTMLAttributes<${declaration.name}>`;
    const members = [
      ...properties.map((p) => `${doc(p.description, '  ')}  ${quoteKey(p.key)}?: ${p.type};`),
      ...attributes.map((a) => `${doc(a.description, '  ')}  ${quoteKey(a.key)}?: ${a.type};`),
      ...custom.map(
        (e) => `${doc(`\`${e.name}\`: ${e.description ?? ''}`.trim(), '  ')}  ${quoteKey(`on${e.name}`)}?: (event: ${e.type}) => void;`,
      ),
    ];
    return {
      tag: declaration.tagName,
      name: `${declaration.name}Props`,
      element: declaration.name,
      code:
        `${doc(`Props of \`<${declaration.tagName}>\` in React 19: ${declaration.summary ?? declaration.description ?? ''}`.trim(), '')}` +
        `export interface ${declaration.name}Props extends ${omit}, ClassAttributes<${declaration.name}> {\n${members.join('\n')}\n}`,
    };
  });
  const intrinsic = blocks.map((b) => `      '${b.tag}': ${b.name};`).join('\n');
  return `${HEADER}
/**
 * The svc elements in React 19's JSX: \`import type {} from '@svc/elements/react';\` once in the app makes
 * \`<svc-decision>\`, \`<svc-consent-field>\`, \`<svc-inbox>\`, \`<svc-records>\` and \`<svc-provider>\` typed elements. React 19
 * sets a prop as the element's property when the element has one (\`token\`, \`trustUrl\`, \`fetch\`, \`accessToken\`) and as an
 * attribute otherwise (\`trust-url\`), and \`on\` + an event's own name (\`onsvc-complete\`) listens to that event.
 * A misspelt tag or property is a type error. TypeScript checks the value given to a JSX name with a dash but never
 * reports a dashed name it does not know (that is how \`data-*\` passes): a misspelt attribute (\`trust-urll\`) goes
 * unreported, and a misspelt handler (\`onsvc-complet\`) shows as its parameter left untyped (\`noImplicitAny\`).
 *
 * @module @svc/elements/react
 */
import type { ClassAttributes, HTMLAttributes } from 'react';
${importLines(types.imports)}

${blocks.map((b) => b.code).join('\n\n')}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
${intrinsic}
    }
  }
}
`;
}

// Vue reads a listener name ending in Once, Passive or Capture as that modifier: `@svc-capture` (`onSvcCapture`)
// would listen to `svc` in the capture phase. Such an event keeps its dash in the handler's name (`onSvc-capture`,
// which Vue reads as `svc-capture`) and stays out of the template events, so that `@svc-capture` is a type error.
const VUE_MODIFIER = /(Once|Passive|Capture)$/;
const VUE_MODIFIER_DASH = /-(once|passive|capture)$/i;
const vueTemplateEvent = (name) => !VUE_MODIFIER.test(pascal(name));
const vueHandler = (name) => (vueTemplateEvent(name) ? `on${pascal(name)}` : `on${name[0].toUpperCase()}${name.slice(1)}`);
const vueEventDoc = ({ name, description }) =>
  (vueTemplateEvent(name)
    ? `\`${name}\` (\`@${name}\` in a template): ${description ?? ''}`
    : `\`${name}\`: ${description ?? ''}\nNot \`@${name}\`, which Vue reads as a capture-phase listener of \`${name.replace(VUE_MODIFIER_DASH, '')}\`: write ` +
      `\`v-on="{ '${name}': handler }"\` in a template, \`'${vueHandler(name)}'\` in a render function.`
  ).trim();

function vueFile(elements, scope) {
  const types = typeUser(scope);
  const blocks = elements.map((declaration) => {
    types.use(declaration.name, `<${declaration.tagName}>`);
    const { properties, attributes, events } = elementApi(declaration, types);
    const members = [
      ...properties.map((p) => `${doc(p.description, '  ')}  ${quoteKey(p.key)}?: ${p.type};`),
      ...attributes.map((a) => `${doc(a.description, '  ')}  ${quoteKey(a.key)}?: ${a.type};`),
      ...events.map((e) => `${doc(vueEventDoc(e), '  ')}  ${quoteKey(vueHandler(e.name))}?: (event: ${e.type}) => void;`),
    ];
    const eventMap = events.filter((e) => vueTemplateEvent(e.name)).map((e) => `  ${quoteKey(e.name)}: ${e.type};`);
    return {
      tag: declaration.tagName,
      element: declaration.name,
      code:
        `${doc(`Props of \`<${declaration.tagName}>\` in Vue 3: ${declaration.summary ?? declaration.description ?? ''}`.trim(), '')}` +
        `export interface ${declaration.name}Props {\n${members.join('\n')}\n}\n\n` +
        `/** The events of \`<${declaration.tagName}>\` a template can listen to with \`@\`, by name. */\n` +
        `export interface ${declaration.name}Events ${eventMap.length ? `{\n${eventMap.join('\n')}\n}` : '{}'}`,
    };
  });
  const globals = blocks.map((b) => `    '${b.tag}': SvcVueElement<${b.element}, ${b.element}Props, ${b.element}Events>;`).join('\n');
  return `${HEADER}
/**
 * The svc elements in Vue 3's templates: \`import type {} from '@svc/elements/vue';\` once in the app adds
 * \`<svc-decision>\`, \`<svc-consent-field>\`, \`<svc-inbox>\`, \`<svc-records>\` and \`<svc-provider>\` to \`GlobalComponents\`,
 * which Vue's language tools check templates against. Tell Vue's compiler they are custom elements
 * (\`compilerOptions.isCustomElement: (tag) => tag.startsWith('svc-')\`). Vue sets a binding as the element's property
 * when the element has one (\`:token\`, \`:fetch\`, \`:accessToken\`, or \`.prop\`) and as an attribute otherwise
 * (\`:trust-url\`, and \`:access-token\` too: bind a property that is no attribute by its camelCase name).
 * \`@svc-complete\` listens to \`svc-complete\`; \`svc-capture\` is the exception (see its handler below).
 *
 * @module @svc/elements/vue
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
${importLines(types.imports)}

/**
 * A custom element as Vue's type checking sees a component (the shape Vue's guide to typing custom elements
 * gives): the element itself (a template ref is the element), its props with the HTML attributes, and its events.
 */
export type SvcVueElement<E extends HTMLElement, Props, Events> = new () => E & {
  /** @deprecated For template type checking only: not a property of the element. */
  $props: Omit<HTMLAttributes, keyof Props> & Props & PublicProps;
  /** @deprecated For template type checking only: not a method of the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

${blocks.map((b) => b.code).join('\n\n')}

declare module 'vue' {
  interface GlobalComponents {
${globals}
  }
}
`;
}

/** The custom elements of the manifest, by tag name. */
function customElements(manifest) {
  return manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .filter((d) => d.kind === 'class' && d.customElement && d.tagName)
    .sort((a, b) => a.tagName.localeCompare(b.tagName));
}

/** The two files' text from a parsed custom-elements.json. */
export function elementTypes(manifest, scope = readTypeScope()) {
  const elements = customElements(manifest);
  return { react: reactFile(elements, scope), vue: vueFile(elements, scope) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const generated = elementTypes(JSON.parse(readFileSync(manifestPath, 'utf8')));
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [name, file] of Object.entries(outputs)) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // Not written yet.
    }
    if (current === generated[name]) continue;
    stale += 1;
    if (check) console.error(`${file} is not what custom-elements.json makes; run pnpm --filter @svc/elements cem`);
    else writeFileSync(file, generated[name]);
  }
  if (check && stale) process.exit(1);
  if (!check) console.log(stale ? `element-types: wrote ${stale} file(s)` : 'element-types: up to date');
}
