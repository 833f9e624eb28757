#!/usr/bin/env node
// Runs every benchmark under scripts/bench/ (each prints its own figures). Bounded in time; not a test.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const dir = new URL('./bench/', import.meta.url).pathname;
const only = process.argv.slice(2);
const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort()
  : [];
let failed = 0;
for (const file of files) {
  if (only.length && !only.some((name) => file.includes(name))) continue;
  console.log(`\n== ${file} ==`);
  const { status } = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', dir + file], { stdio: 'inherit' });
  if (status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
