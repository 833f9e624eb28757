// The console's pictures: counts per day drawn by uPlot (a small, well-kept chart library for time series), imported
// only when a chart is first drawn, so an element that shows a chart loads it after its own chunk and a page without
// one never does. A chart is a picture for the eye: it is hidden from assistive technology, and the same numbers are
// always in a text table beside it (`chartTable`), which is what a screen reader reads and what the tests read.
import { css, html, nothing, type TemplateResult } from 'lit';
import type uPlot from 'uplot';

/** Counts per day: `x` the days (Unix seconds, UTC midnight), each series one count per day. */
export interface ChartData {
  /** What the chart shows, said as the table's caption (`Deliveries per day`). */
  label: string;
  x: number[];
  series: { label: string; values: number[] }[];
}

/** A drawn chart: destroy it when its element goes or its data changes. */
export interface DrawnChart {
  destroy(): void;
}

const SECONDS_PER_DAY = 86_400;

/** The UTC midnights of the `days` days ending with the one `now` is in, oldest first. */
export function lastDays(days: number, now = Date.now()): number[] {
  const today = Math.floor(now / 1000 / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  return Array.from({ length: days }, (_, i) => today - (days - 1 - i) * SECONDS_PER_DAY);
}

/** The day (UTC midnight, Unix seconds) an ISO date-time falls on. */
export const dayOf = (iso: string): number => Math.floor(Date.parse(iso) / 1000 / SECONDS_PER_DAY) * SECONDS_PER_DAY;

/**
 * Counts `items` per day of `x` and per series: `seriesOf` names an item's series (one of `labels`) or undefined to
 * leave it out; items outside the days are left out too.
 */
export function countPerDay<T>(
  label: string,
  x: number[],
  labels: readonly string[],
  items: readonly T[],
  dayAndSeries: (item: T) => [day: number, series: string | undefined],
): ChartData {
  const index = new Map(x.map((day, i) => [day, i]));
  const series = labels.map((l) => ({ label: l, values: x.map(() => 0) }));
  for (const item of items) {
    const [day, name] = dayAndSeries(item);
    const at = index.get(day);
    const one = series.find((s) => s.label === name);
    if (at !== undefined && one) one.values[at]! += 1;
  }
  return { label, x, series };
}

const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The numbers of a chart as a table: one row per day, one column per series. */
export function chartTable(data: ChartData): TemplateResult {
  return html`<table part="chart-table" class="chart-table">
    <caption>${data.label}</caption>
    <thead>
      <tr>
        <th scope="col">Day</th>
        ${data.series.map((s) => html`<th scope="col">${s.label}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${data.x.map(
        (day, i) =>
          html`<tr>
            <th scope="row"><time datetime=${dateOf(day)}>${dateOf(day)}</time></th>
            ${data.series.map((s) => html`<td>${s.values[i] ?? 0}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** Where a chart is drawn, hidden from assistive technology (the table says the same). */
export const chartFrame = (show: boolean): TemplateResult | typeof nothing =>
  show ? html`<div part="chart" class="chart" aria-hidden="true"></div>` : nothing;

// Series are told apart by their dash as well as their colour, so the picture does not rest on colour alone.
const DASHES: (number[] | undefined)[] = [undefined, [6, 4], [2, 3], [10, 3, 2, 3]];
const FALLBACK_COLOURS = ['#1d5fbf', '#b3261e', '#2e7d32', '#8e24aa'];

/** The colour of series `i`: `--svc-chart-<i+1>` on the element, else a default. */
function colourOf(target: HTMLElement, i: number): string {
  const own = getComputedStyle(target)
    .getPropertyValue(`--svc-chart-${i + 1}`)
    .trim();
  return own || FALLBACK_COLOURS[i % FALLBACK_COLOURS.length]!;
}

/** Draws `data` in `target` (its width, 12rem high), following its width; loads uPlot on first use. */
export async function drawChart(target: HTMLElement, data: ChartData): Promise<DrawnChart> {
  const { default: UPlot } = await import('uplot');
  const ink = getComputedStyle(target).color;
  const axis: uPlot.Axis = { stroke: ink, grid: { stroke: 'rgba(127,127,127,0.25)' }, ticks: { stroke: 'rgba(127,127,127,0.4)' } };
  // Days are written here (ISO month-day), never by uPlot's own date formatting: that asks Intl for the browser's
  // language, which a browser started under the C locale names "C", an invalid tag that throws.
  const days = (_u: uPlot, splits: number[]) => splits.map((s) => dateOf(s).slice(5));
  const options: uPlot.Options = {
    width: Math.max(target.clientWidth, 240),
    height: 192,
    legend: { show: true },
    cursor: { show: false },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      { ...axis, values: days },
      { ...axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
    ],
    series: [
      { value: (_u, v) => (v == null ? '' : dateOf(v)) },
      ...data.series.map((s, i) => ({ label: s.label, stroke: colourOf(target, i), width: 2, dash: DASHES[i % DASHES.length] })),
    ],
  };
  const chart = new UPlot(options, [data.x, ...data.series.map((s) => s.values)], target);
  const resized = new ResizeObserver(() => chart.setSize({ width: Math.max(target.clientWidth, 240), height: 192 }));
  resized.observe(target);
  return {
    destroy() {
      resized.disconnect();
      chart.destroy();
    },
  };
}

/** uPlot's own layout rules, in the element's shadow root (its stylesheet cannot reach there), and the table's. */
export const chartStyles = css`
  .chart { inline-size: 100%; min-block-size: 12rem; }
  .uplot, .uplot * { box-sizing: border-box; }
  .uplot { line-height: 1.5; inline-size: 100%; }
  .u-wrap { position: relative; user-select: none; }
  .u-over, .u-under, .u-axis, .u-select, .u-cursor-x, .u-cursor-y, .u-cursor-pt { position: absolute; }
  .u-under { overflow: hidden; }
  .uplot canvas { display: block; position: relative; inline-size: 100%; block-size: 100%; }
  .u-legend { font-size: 0.875rem; margin: auto; text-align: center; }
  .u-inline { display: block; }
  .u-inline * { display: inline-block; }
  .u-inline tr { margin-inline-end: 1rem; }
  .u-legend .u-marker { inline-size: 1em; block-size: 1em; margin-inline-end: 0.25rem; }
  .u-inline:not(.u-live) .u-value { display: none; }
  .u-series > * { padding: 0.25rem; }
  .u-legend .u-off > * { opacity: 0.3; }
  .u-axis.u-off, .u-select.u-off, .u-cursor-x.u-off, .u-cursor-y.u-off, .u-cursor-pt.u-off { display: none; }
  .chart-table { border-collapse: collapse; margin-block: 0.5rem; font-variant-numeric: tabular-nums; }
  .chart-table caption { text-align: start; font-weight: 600; padding-block-end: 0.25rem; }
  .chart-table th, .chart-table td { padding: 0.125rem 0.5rem; text-align: end; border-block-end: 1px solid rgba(127, 127, 127, 0.25); }
  .chart-table th[scope='row'], .chart-table thead th:first-child { text-align: start; font-weight: normal; }
`;
