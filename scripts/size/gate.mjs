// The budget gate of `pnpm size`: which budgets apply to a run, which figures break them, and the printed table.
// Kept apart from the measuring so that a test can show the gate failing.

const KB = 1000;
const kb = (bytes) => `${(bytes / KB).toFixed(2)} kB`;

/**
 * The budgets of a run: the defaults, with each `--budget <key>=<bytes>` argument replacing one. An unknown key or
 * a value that is not a whole number of bytes is an error, so a typo cannot silently leave a budget unchecked.
 */
export function parseBudgets(args, defaults) {
  const budgets = new Map(defaults);
  args.forEach((arg, i) => {
    if (arg !== '--budget') return;
    const [key, value] = (args[i + 1] ?? '').split('=');
    if (!budgets.has(key) || !/^\d+$/.test(value ?? '')) {
      throw new Error(`--budget takes <key>=<bytes> with key one of ${[...budgets.keys()].join(', ')}; got ${args[i + 1]}`);
    }
    budgets.set(key, Number(value));
  });
  return budgets;
}

/** One line per budget a row breaks: over it, or not measured at all. */
export function failures(rows) {
  return rows.flatMap(({ label, gzip, budget }) => {
    if (budget === undefined) return [];
    if (gzip === undefined) return [`${label}: not measured (run pnpm build; Chromium at CHROME_PATH)`];
    return gzip > budget ? [`${label}: ${kb(gzip)} gzip, budget ${kb(budget)} (over by ${gzip - budget} B)`] : [];
  });
}

/** The figures beside their budgets, then the peers' given figures. */
export function table(rows, peers) {
  const lines = rows.map(({ label, gzip, detail, budget }) => [
    label,
    gzip === undefined ? '-' : kb(gzip),
    budget === undefined ? '' : `<= ${kb(budget)}`,
    budget === undefined ? '' : gzip === undefined ? 'MISSING' : gzip <= budget ? 'ok' : `OVER by ${gzip - budget} B`,
    detail ?? '',
  ]);
  lines.push(['', '', '', '', '']);
  for (const [label, figure] of peers) lines.push([label, `${figure.toFixed(1)} kB`, '', 'given', '']);
  const header = ['what a page downloads / a bundle', 'gzip -9', 'budget', '', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((r) => r[i].length)));
  const format = (r) =>
    r
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    format(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...lines.map((r) => (r.every((c) => c === '') ? '' : format(r))),
  ].join('\n');
}
