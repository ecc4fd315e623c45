/**
 * The product page's history chart (service/routes/runs.ts historyChart, issue 33 item 6): verdict
 * and MUST coverage over runs with axes (y: 0 to 100% with ticks and labels; x: the runs in order
 * with their dates), one point per run coloured by its verdict with a `<title>`, a legend naming
 * each colour in words, a text alternative; escaped. And the run page's pieces: the progress bar
 * and operations table, the findings.
 */
import { describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { historyChart, progressDetail, runFindings } from '../service/routes/runs.ts';

type ChartRun = Parameters<typeof historyChart>[0][number];

/** `n` runs, newest first (as the product page lists them), one a day from 2025-03-01. */
function runs(n: number, of: (i: number) => Partial<ChartRun> = () => ({})): ChartRun[] {
  return Array.from({ length: n }, (_, i) => ({
    verdict: 'conformant',
    coverage_judged: 10,
    coverage_in_scope: 10,
    created_at: new Date(Date.UTC(2025, 2, 1 + i, 9, 30)).toISOString(),
    ...of(i),
  })).reverse();
}

const svgOf = (chart: unknown): string => String(chart);
const all = (text: string, re: RegExp): string[] => [...text.matchAll(re)].map((m) => m[1]);

describe('historyChart', () => {
  test('no finished run: no chart', () => {
    expect(historyChart([])).toBe('');
  });

  test('one run: a point, both axes with their ticks and labels, a legend in words', () => {
    const svg = svgOf(historyChart(runs(1)));
    expect(svg).toMatch(/^<svg id="history-chart" role="img" aria-labelledby="history-chart-title history-chart-desc"/);
    expect(svg.match(/<circle /g)).toHaveLength(1);
    expect(svg).toContain(
      'fill="#070"><title>Run 1 of 1, 2025-03-01T09:30:00.000Z: conformant, coverage 100% (10/10)</title></circle>',
    );
    // y: coverage 0 to 100%, a tick and a label every 25%, and its name.
    const yAxis = /<g class="y-axis">([\s\S]*?)<\/g>/.exec(svg)![1];
    expect(all(yAxis, />(\d+%)<\/text>/g)).toEqual(['0%', '25%', '50%', '75%', '100%']);
    expect(yAxis).toContain('>MUST coverage</text>');
    // x: the run numbered, with its date, and the axis's name.
    const xAxis = /<g class="x-axis">([\s\S]*?)<\/g>/.exec(svg)![1];
    expect(all(xAxis, />(#\d+)<\/text>/g)).toEqual(['#1']);
    expect(xAxis).toContain('>2025-03-01</text>');
    expect(xAxis).toContain('>Runs, oldest first</text>');
    // Each colour named in words (never colour alone).
    expect(all(svg, /<g class="legend-item" data-verdict="[^"]*"><rect [^>]*fill="(#[0-9a-f]+)"/g)).toEqual([
      '#070',
      '#a00',
      '#b80',
    ]);
    expect(all(svg, /<g class="legend-item"[^>]*><rect [^>]*\/><text [^>]*>([^<]+)<\/text>/g)).toEqual([
      'conformant (green)',
      'not conformant (red)',
      'inconclusive (amber)',
    ]);
    // The text alternative.
    expect(svg).toContain(
      '<title id="history-chart-title">Verdict and MUST coverage of each finished run, oldest first</title>',
    );
    expect(svg).toContain(
      '<desc id="history-chart-desc">1 finished run on 2025-03-01: 1 conformant. The latest: conformant, MUST coverage 100% (10/10).</desc>',
    );
  });

  test('a point’s height is its coverage: 100% at the top tick, 0% on the x axis, half way between', () => {
    const svg = svgOf(
      historyChart(
        runs(3, (i) => ({
          coverage_judged: [10, 5, 0][i],
          verdict: ['conformant', 'inconclusive', 'not-conformant'][i],
        })),
      ),
    );
    const ys = all(svg, /<circle [^>]*cy="([\d.]+)"/g).map(Number);
    const tick = (label: string) => Number(new RegExp(`y="([\\d.]+)" text-anchor="end">${label}<`).exec(svg)![1]) - 4;
    expect(ys[0]).toBeCloseTo(tick('100%'), 0);
    expect(ys[1]).toBeCloseTo(tick('50%'), 0);
    expect(ys[2]).toBeCloseTo(tick('0%'), 0);
    // Oldest left.
    const xs = all(svg, /<circle cx="([\d.]+)"/g).map(Number);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(all(svg, /<circle [^>]*fill="(#[0-9a-f]+)"/g)).toEqual(['#070', '#b80', '#a00']);
    expect(svg).toContain('1 conformant, 1 not conformant, 1 inconclusive. The latest: not-conformant');
  });

  test('many runs: a point each, labels on every few and the last, and the chart stays on the page', () => {
    const svg = svgOf(historyChart(runs(200, (i) => ({ verdict: i % 7 === 0 ? 'not-conformant' : 'conformant' }))));
    expect(svg.match(/<circle /g)).toHaveLength(200);
    const labels = all(svg, />#(\d+)<\/text>/g).map(Number);
    expect(labels.length).toBeGreaterThan(5);
    expect(labels.length).toBeLessThanOrEqual(16);
    expect(labels[0]).toBe(1);
    expect(labels.at(-1)).toBe(200);
    const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)![1]);
    expect(width).toBeLessThanOrEqual(900);
    // Labels do not overlap: at least 80 px apart (a date is about 70 px wide).
    const xs = all(svg, /<text x="([\d.]+)" y="\d+" text-anchor="middle">#\d+<\/text>/g).map(Number);
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(80);
    expect(svg).toContain('200 finished runs from 2025-03-01 to 2025-09-16: 171 conformant, 29 not conformant.');
  });

  test('runs of one day: the date once, then each run’s time', () => {
    const svg = svgOf(historyChart(runs(3, (i) => ({ created_at: `2025-03-01T1${i}:0${i}:00.000Z` }))));
    const xAxis = /<g class="x-axis">([\s\S]*?)<\/g>/.exec(svg)![1];
    expect(all(xAxis, /fill="#555">([^<]+)<\/text>/g)).toEqual(['2025-03-01', '11:01', '12:02']);
  });

  test('escaped: a date and a verdict holding markup stay text; a run without a verdict is named in the legend', () => {
    const svg = svgOf(
      historyChart([
        {
          verdict: '"><script>alert(1)</script>',
          coverage_judged: null,
          coverage_in_scope: null,
          created_at: '<img src=x onerror=alert(2)>',
        },
        { verdict: null, coverage_judged: 1, coverage_in_scope: 2, created_at: '2025-03-01T00:00:00.000Z' },
      ]),
    );
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(svg).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('>no verdict (grey)</text>');
    expect(all(svg, /<circle [^>]*fill="(#[0-9a-f]+)"/g)).toEqual(['#777', '#777']);
    expect(svg).toContain('coverage not recorded');
  });
});

describe('the run page’s progress and findings', () => {
  test('a running run: the bar at its operations judged, a row per operation with its state and counts', () => {
    const text = String(
      progressDetail(
        'server',
        true,
        {
          done: 1,
          total: 2,
          running: ['b'],
          operations: [
            { id: 'a', state: 'done', pass: 3, fail: 1, verdict: 'not-conformant' },
            { id: 'b', state: 'running', pass: 1 },
            { id: 'c<x>', state: 'waiting' },
          ],
        },
        undefined,
      ),
    );
    expect(text).toContain(
      '<label for="progress-bar">Operations judged:</label> <progress id="progress-bar" max="3" value="1">1 of 3</progress> <span id="progress-count">1 of 3</span>',
    );
    expect(text).toContain(
      '<tr data-operation="a" data-state="done"><th scope="row"><code>a</code></th><td class="op-state">done</td><td class="op-verdict verdict-not-conformant">not-conformant</td><td class="count-pass">3</td><td class="count-fail">1</td><td class="count-error">0</td>',
    );
    expect(text).toContain('<tr data-operation="b" data-state="running">');
    expect(text).toContain('<code>c&lt;x&gt;</code>');
  });

  test('no worker yet: an indeterminate bar and an empty table, hidden; a cancelled run’s operations stopped or not run', () => {
    const waiting = String(progressDetail('server', true, undefined, undefined));
    expect(waiting).toContain('<progress id="progress-bar">waiting for a worker</progress>');
    expect(waiting).toContain('<table id="operations" hidden>');
    const cancelled = String(
      progressDetail(
        'server',
        false,
        {
          done: 0,
          total: 2,
          running: ['a'],
          operations: [
            { id: 'a', state: 'running' },
            { id: 'b', state: 'waiting' },
          ],
        },
        undefined,
      ),
    );
    expect(cancelled).toContain('<tr data-operation="a" data-state="stopped">');
    expect(cancelled).toContain('<tr data-operation="b" data-state="not run">');
  });

  test('findings: the MUST failures with their rows, linked to the report; the others counted', () => {
    const results = {
      requirements: [],
      results: [
        {
          check: 'status-is-404',
          summary: '',
          operation: 'find-member-v2',
          requirements: ['D1-4.2-03', 'D1-4.2-04'],
          level: 'MUST',
          status: 'fail',
          message: 'Expected HTTP 404, received HTTP 200',
        },
        {
          check: 'has-etag',
          summary: '',
          operation: 'find-member-v2',
          requirements: ['D1-4.2-09'],
          level: 'SHOULD',
          status: 'fail',
          message: 'Expected an ETag, received none',
        },
        {
          check: 'x',
          summary: '',
          operation: 'find-member-v2',
          requirements: [],
          level: 'MUST',
          status: 'pass',
          message: '',
        },
      ],
    } as unknown as RunResults;
    const text = String(runFindings('r1', results, true));
    expect(text).toContain('<p>1 MUST failure, each with the requirement rows it breaks, linked to the report:</p>');
    expect(text).toMatch(
      /<li class="finding" data-status="fail" data-check="status-is-404"><strong>MUST failure<\/strong> <a href="\/runs\/r1\/report#cause-[0-9a-f]+"><code>status-is-404<\/code><\/a> on find-member-v2 \(once\)/,
    );
    expect(text).toContain('<a href="/runs/r1/report#req-D1-4.2-03"><code>D1-4.2-03</code></a>');
    expect(text).toContain('<a href="/runs/r1/report#req-D1-4.2-04"><code>D1-4.2-04</code></a>');
    expect(text).not.toContain('D1-4.2-09');
    expect(text).toContain(
      '<p id="other-findings">1 other finding (SHOULD and INFO rows, warnings) in <a href="/runs/r1/report#causes">the report</a>.</p>',
    );
    const clean = String(runFindings('r1', { requirements: [], results: [] } as unknown as RunResults, true));
    expect(clean).toContain('<p id="no-must-failure">No MUST failure and no MUST error.</p>');
  });
});
