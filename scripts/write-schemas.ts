// Writes the JSON Schema documents generated from the zod schemas into schemas/, one directory per group, and
// removes files a group no longer generates. Each group's unit test fails when the checked-in files drift.
// Add a group with one line in `groups`. Run: pnpm schemas
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { messageJsonSchemas } from '../packages/protocol/src/json-schemas.js';
import { webhookJsonSchemas } from '../packages/server/src/platform/webhooks/json-schemas.js';
import { receiptJsonSchemas } from '../packages/server/src/consent/receipts/json-schema.js';

interface SchemaGroup {
  /** Directory under the repository root, such as `schemas/messages`. */
  dir: string;
  /** The group's documents keyed by file name. */
  generate: () => Record<string, object>;
}

const groups: SchemaGroup[] = [
  { dir: 'schemas/messages', generate: messageJsonSchemas },
  { dir: 'schemas/webhooks', generate: webhookJsonSchemas },
  { dir: 'schemas/receipt/v2', generate: receiptJsonSchemas },
];

const root = new URL('..', import.meta.url);
for (const { dir, generate } of groups) {
  const documents = generate();
  const folder = new URL(`${dir}/`, root);
  mkdirSync(folder, { recursive: true });
  for (const file of readdirSync(folder)) {
    if (file.endsWith('.json') && !Object.hasOwn(documents, file)) rmSync(new URL(file, folder));
  }
  for (const [file, document] of Object.entries(documents)) {
    writeFileSync(new URL(file, folder), `${JSON.stringify(document, null, 2)}\n`);
  }
  console.log(`${dir}: ${Object.keys(documents).length} schemas`);
}
