import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResults } from '../../../core/results.ts';
import { loadFixture } from '../../../core/testSupport/resultsFixtures.ts';
import { reportContext, resultAnchor } from '../context.ts';
import { renderHtml } from '../renderHtml.ts';
import {
  COVERAGE_PHASE_CHECK,
  type CoveragePhaseEntry,
  coveragePhaseCounts,
  coveragePhaseEntries,
  coveragePhaseSection,
  hasCoveragePhase,
} from './coveragePhase.ts';

function phaseResult(operation: string, status: CheckResult['status'], entries: unknown[]): CheckResult {
  return {
    check: COVERAGE_PHASE_CHECK,
    summary: 'Every value and boundary of the coverage phase is served as documented',
    operation,
    requirements: [],
    level: 'MUST',
    status,
    message: status === 'pass' ? 'every coverage phase request was served as documented' : 'a request failed',
    test: `${operation} coverage phase`,
    evidence: { coveragePhase: { entries } },
  };
}

const HOSTILE = '<script>alert(1)</script>';

const billsEntries: CoveragePhaseEntry[] = [
  { label: 'count=1 (minimum)', aspect: 'count-minimum', parameter: 'count', outcome: 'pass', status: 200 },
  { label: 'count=100 (maximum)', aspect: 'count-maximum', parameter: 'count', outcome: 'pass', status: 200 },
  { label: 'status=paid', aspect: 'enum-value', parameter: 'status', outcome: 'pass', status: 200 },
  {
    label: `status=${HOSTILE}`,
    aspect: 'enum-value',
    parameter: 'status',
    outcome: 'fail',
    status: 500,
    why: `Expected 200, received 500 ${HOSTILE}`,
  },
  { label: 'memberNumber=****', aspect: 'field', parameter: 'memberNumber', outcome: 'warn', status: 200, why: 'slow' },
  {
    label: 'provider (without feature)',
    aspect: 'feature-without',
    parameter: 'provider',
    outcome: 'not-sent',
    why: 'needs feature Advanced_Search_1_0',
  },
  {
    label: 'invalid: count is not a positive integer (range)',
    aspect: 'invalid-range',
    parameter: 'count',
    outcome: 'pass',
    status: 400,
  },
];

/** The failing fixture plus a coverage phase for two of its five operations. */
function withPhase(): RunResults {
  const run = loadFixture('failing');
  run.results.push(
    phaseResult('search-bills', 'fail', billsEntries),
    phaseResult('find-member-v2', 'pass', [
      { label: 'required parameters only', aspect: 'required-only', outcome: 'pass', status: 200 },
      { label: 'not an entry' },
    ]),
  );
  return run;
}

/** The markup of the first `<tag>` whose start tag contains `attr`, up to its matching close tag. */
function element(html: string, tag: string, attr: string): string {
  const start = html.search(new RegExp(`<${tag}\\b[^>]*${attr}`));
  if (start < 0) throw new Error(`no <${tag}> with ${attr}`);
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'g');
  tags.lastIndex = start;
  let depth = 0;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  throw new Error(`<${tag}> with ${attr} is not closed`);
}

describe('coveragePhaseSection', () => {
  const run = withPhase();
  const ctx = reportContext(run);
  const html = coveragePhaseSection(ctx);
  const billsIndex = run.results.findIndex((r) => r.check === COVERAGE_PHASE_CHECK && r.operation === 'search-bills');

  it('applies only when a coverage phase result exists', () => {
    expect(hasCoveragePhase(ctx)).toBe(true);
    expect(hasCoveragePhase(reportContext(loadFixture('failing')))).toBe(false);
    expect(renderHtml(loadFixture('failing'))).not.toContain('coverage-phase');
    const page = renderHtml(run);
    expect(page).toContain('<section id="coverage-phase">');
    expect(page).toContain('<li><a href="#coverage-phase">Coverage phase</a></li>');
    // After the operations table, before the findings.
    expect(page.indexOf('id="operations"')).toBeLessThan(page.indexOf('id="coverage-phase"'));
    expect(page.indexOf('id="coverage-phase"')).toBeLessThan(page.indexOf('<section id="findings"'));
  });

  it('has one row per operation in report order, with outcome and counts', () => {
    const table = element(html, 'table', ' id="coverage-phase-table"');
    const rows = [...table.matchAll(/<tr data-operation="([^"]+)" data-status="(\w+)">/g)].map((m) => [m[1], m[2]]);
    const order = ctx.operations.map((o) => o.id).filter((id) => id === 'search-bills' || id === 'find-member-v2');
    expect(rows.map((r) => r[0])).toEqual(order);
    expect(Object.fromEntries(rows)).toEqual({ 'search-bills': 'fail', 'find-member-v2': 'pass' });
    const bills = element(table, 'tr', ' data-operation="search-bills"');
    expect(bills).toContain('<th scope="row"><code>search-bills</code></th>');
    expect(bills).toContain('<span class="badge status-fail">fail</span>');
    // sent, passed, failed, warned, not sent
    expect(
      [...bills.matchAll(/<td class="num[^"]*" data-count="[a-z-]+">(\d+)<\/td>/g)].map((m) => Number(m[1])),
    ).toEqual([6, 4, 1, 1, 1]);
    expect(bills).toContain('<td class="num has-fail" data-count="failed">1</td>');
    const member = element(table, 'tr', ' data-operation="find-member-v2"');
    // The malformed entry is dropped, not rendered.
    expect(
      [...member.matchAll(/<td class="num[^"]*" data-count="[a-z-]+">(\d+)<\/td>/g)].map((m) => Number(m[1])),
    ).toEqual([1, 1, 0, 0, 0]);
  });

  it('links a failing operation to its result evidence, and a passing one to nothing', () => {
    const bills = element(html, 'tr', ' data-operation="search-bills"');
    expect(bills).toContain(`<a href="#${resultAnchor(billsIndex)}"><span class="badge status-fail">fail</span>`);
    expect(renderHtml(run)).toContain(`id="${resultAnchor(billsIndex)}"`);
    expect(element(html, 'tr', ' data-operation="find-member-v2"')).not.toContain('<a href=');
  });

  it('lists every entry grouped by aspect in the order the phase exercises them', () => {
    const details = element(html, 'details', ' data-operation="search-bills"');
    expect(details).toContain('<summary>7 entries</summary>');
    expect([...details.matchAll(/<tbody data-aspect="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'enum-value',
      'count-minimum',
      'count-maximum',
      'field',
      'feature-without',
      'invalid-range',
    ]);
    const enums = element(details, 'tbody', ' data-aspect="enum-value"');
    expect(enums).toContain('<th scope="rowgroup" colspan="4">Enum values (2)</th>');
    expect(enums).toContain(
      '<tr data-outcome="pass" data-parameter="status"><td><code>status=paid</code></td><td class="num">200</td><td><span class="badge status-pass">pass</span></td><td class="message"></td></tr>',
    );
    const notSent = element(details, 'tbody', ' data-aspect="feature-without"');
    expect(notSent).toContain('<span class="badge status-skip">not sent</span>');
    expect(notSent).toContain('needs feature Advanced_Search_1_0');
    expect(notSent).toContain('<span class="muted">-</span>');
    expect(element(details, 'tbody', ' data-aspect="field"')).toContain('<code>memberNumber=****</code>');
  });

  it('escapes hostile labels and reasons', () => {
    const page = renderHtml(run);
    expect(page).not.toContain(HOSTILE);
    expect(html).not.toContain('<script');
    expect(html).toContain('<code>status=&lt;script&gt;alert(1)&lt;/script&gt;</code>');
    expect(html).toContain('Expected 200, received 500 &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('says how many selected operations have no coverage phase result', () => {
    const missing = element(html, 'p', ' id="coverage-phase-missing"');
    expect(missing).toContain('data-missing="3"');
    expect(missing).toContain('3 of the 5 selected operations have no coverage phase result');
    const list = element(html, 'details', ' id="coverage-phase-missing-list"');
    expect([...list.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]).sort()).toEqual([
      'ack-remittance',
      'get-bill',
      'search-hospital-claims',
    ]);
    const all = loadFixture('failing');
    all.results.push(...all.operations.map((o) => phaseResult(o.id, 'pass', [])));
    const full = coveragePhaseSection(reportContext(all));
    expect(full).toContain('Every one of the 5 selected operations has a coverage phase result.');
    expect(full).not.toContain('coverage-phase-missing-list');
    expect(full).toContain('no entries recorded');
  });
});

describe('coveragePhaseEntries', () => {
  it('reads well-formed entries and drops the rest', () => {
    const r = phaseResult('x', 'pass', [
      { label: 'a', aspect: 'field', outcome: 'pass', status: 200, parameter: 'p' },
      { label: 'b', aspect: 'field', outcome: 'maybe' },
      null,
      { label: 'c', aspect: 'field', outcome: 'not-sent', why: 'needs feature F', status: 'x' },
    ]);
    expect(coveragePhaseEntries(r)).toEqual([
      { label: 'a', aspect: 'field', outcome: 'pass', status: 200, parameter: 'p' },
      { label: 'c', aspect: 'field', outcome: 'not-sent', why: 'needs feature F' },
    ]);
    expect(coveragePhaseEntries({ ...r, evidence: { coveragePhase: 'nope' } })).toEqual([]);
    expect(coveragePhaseEntries({ ...r, evidence: undefined })).toEqual([]);
  });

  it('counts sent, passed, failed, warned and not sent', () => {
    expect(coveragePhaseCounts(billsEntries)).toEqual({ sent: 6, passed: 4, failed: 1, warned: 1, notSent: 1 });
    expect(coveragePhaseCounts([])).toEqual({ sent: 0, passed: 0, failed: 0, warned: 0, notSent: 0 });
  });
});
