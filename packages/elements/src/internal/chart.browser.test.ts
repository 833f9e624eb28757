// The console's charts in every engine: the numbers are in a table (what assistive technology reads), the picture is
// drawn by uPlot on a canvas hidden from assistive technology, and it follows its element's width.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { render } from 'lit';
import { chartFrame, chartStyles, chartTable, countPerDay, drawChart, lastDays } from './chart.js';

const DAY = 86_400;
const NOW = Date.parse('2026-03-10T15:00:00Z');

describe('charts', () => {
  afterEach(() => fixtureCleanup());

  it('counts items per UTC day and series, leaving out days and series it does not show', () => {
    const x = lastDays(3, NOW);
    expect(x.map((s) => new Date(s * 1000).toISOString())).to.deep.equal([
      '2026-03-08T00:00:00.000Z',
      '2026-03-09T00:00:00.000Z',
      '2026-03-10T00:00:00.000Z',
    ]);
    const items = [
      { at: '2026-03-10T23:59:59Z', status: 'failed' },
      { at: '2026-03-10T00:00:00Z', status: 'failed' },
      { at: '2026-03-08T12:00:00Z', status: 'succeeded' },
      { at: '2026-03-07T23:59:59Z', status: 'failed' },
      { at: '2026-03-09T12:00:00Z', status: 'pending' },
    ];
    const data = countPerDay('Deliveries per day', x, ['succeeded', 'failed'], items, (i) => [
      Math.floor(Date.parse(i.at) / 1000 / DAY) * DAY,
      i.status,
    ]);
    expect(data.series).to.deep.equal([
      { label: 'succeeded', values: [1, 0, 0] },
      { label: 'failed', values: [0, 0, 2] },
    ]);
  });

  it('says every number in a captioned table, one row per day', async () => {
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    render(chartTable({ label: 'Deliveries per day', x: lastDays(2, NOW), series: [{ label: 'failed', values: [3, 0] }] }), host);
    const table = host.querySelector('table')!;
    expect(table.caption?.textContent).to.equal('Deliveries per day');
    const rows = [...table.tBodies[0]!.rows].map((r) => [...r.cells].map((c) => c.textContent?.trim()));
    expect(rows).to.deep.equal([
      ['2026-03-09', '3'],
      ['2026-03-10', '0'],
    ]);
  });

  it('draws on a canvas hidden from assistive technology, at its width, and follows it', async () => {
    const host = await fixture<HTMLDivElement>(html`<div style="inline-size: 400px"></div>`);
    const root = host.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [chartStyles.styleSheet!];
    render(chartFrame(true), root);
    const frame = root.querySelector<HTMLElement>('.chart')!;
    expect(frame.getAttribute('aria-hidden')).to.equal('true');
    const chart = await drawChart(frame, { label: 'Per day', x: lastDays(5, NOW), series: [{ label: 'failed', values: [0, 1, 4, 2, 0] }] });
    const canvas = frame.querySelector('canvas')!;
    expect(canvas.getBoundingClientRect().width).to.equal(400);
    host.style.inlineSize = '300px';
    await waitUntil(() => canvas.getBoundingClientRect().width === 300, 'the chart did not follow its width');
    chart.destroy();
    expect(frame.querySelector('canvas')).to.equal(null);
  });

  it('draws nothing where a chart is not shown', async () => {
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    render(chartFrame(false), host);
    expect(host.querySelector('.chart')).to.equal(null);
  });
});
