// The size gate: budgets a run applies, figures that break them, and `pnpm size` failing a run for real.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { failures, parseBudgets } from './size/gate.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('pnpm size gate', () => {
  const defaults: [string, number][] = [
    ['loader', 3000],
    ['form', 17000],
  ];

  it('takes the budgets as given, and one --budget replaces one of them', () => {
    assert.deepEqual([...parseBudgets([], defaults)], defaults);
    assert.deepEqual(
      [...parseBudgets(['--budget', 'loader=100'], defaults)],
      [
        ['loader', 100],
        ['form', 17000],
      ],
    );
  });

  it('refuses a budget for an unknown key or in anything but whole bytes', () => {
    assert.throws(() => parseBudgets(['--budget', 'lodaer=100'], defaults), /key one of loader, form; got lodaer=100/);
    assert.throws(() => parseBudgets(['--budget', 'loader=1.5kB'], defaults), /<key>=<bytes>/);
    assert.throws(() => parseBudgets(['--budget'], defaults), /<key>=<bytes>/);
  });

  it('names every figure over its budget and every budgeted figure not measured, and passes the rest', () => {
    const rows = [
      { key: 'loader', label: 'loader', gzip: 3001, budget: 3000 },
      { key: 'form', label: 'form page', gzip: 17000, budget: 17000 },
      { key: 'decision', label: 'decision page', budget: 21000 },
      { key: 'snippet', label: 'snippet page', gzip: 99999 },
    ];
    assert.deepEqual(failures(rows), [
      'loader: 3.00 kB gzip, budget 3.00 kB (over by 1 B)',
      'decision page: not measured (run pnpm build; Chromium at CHROME_PATH)',
    ]);
  });

  // Two pages are enough to see `pnpm size` fail for real; CI's own `pnpm size` step measures every page and bundle
  // against its budget.
  it('fails the run when a page downloads more than its budget, measured in Chromium', () => {
    const args = ['scripts/size.mjs', '--only', 'loader,form', '--budget', 'loader=100'];
    const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /1 budget\(s\) not met:\n {2}script tag svc\.js alone \(the loader\): \d\.\d\d kB gzip, budget 0\.10 kB/);
    assert.match(run.stdout, /form page: one <svc-consent-field> \(loader \+ chunks\)\s+\d+\.\d\d kB/);
  });

  it('refuses an --only key it does not know, so a typo cannot leave a row unmeasured', () => {
    const run = spawnSync(process.execPath, ['scripts/size.mjs', '--only', 'lodaer'], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /--only takes keys among loader, form, .*; got lodaer/);
  });
});
