/**
 * report.html's section "Comparison with REFERENCE" (issue 35): rendered from the comparison the
 * candidate's results carry, by the renderer compare.html uses (the same pair of answers, the same
 * masked text); the page keeps its policy of nothing loaded and no script of its own beyond the
 * filters'; a report of a run that compared nothing is as before; and the folder, sealed again with
 * the comparison through the one writer of report folders, verifies intact.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compareLogs } from '../app/compare/compareLogs.ts';
import type { LoggedExchange } from '../core/exchangeLog.ts';
import { Redactor } from '../core/redact.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { COMPARISON_STYLE, renderCompareHtml } from '../reports/compareHtml.ts';
import { type ComparedResults, type Comparison, comparisonInReport } from '../reports/compareModel.ts';
import { COMPARED_CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY, renderHtml } from '../reports/html/renderHtml.ts';
import { verifyReportDir, writeReports } from '../reports/writeReports.ts';
import { exchangeOfRecord, loggedCall } from './support/loggedCalls.ts';
import { elementById } from '../reports/testSupport/elementById.ts';

const [REF, CAND] = ['http://127.0.0.1:1001', 'http://127.0.0.1:2002'];

const call = (origin: string, ordinal: number, body: unknown): LoggedExchange =>
  loggedCall(origin, { ordinal, body, path: `/patient/P-${ordinal}`, operation: 'get-patient' });

const asExchange = exchangeOfRecord;

const patient = (family: string, gender: string) => ({
  resourceType: 'Patient',
  id: 'P-1',
  gender,
  name: [{ family, given: ['Jo'] }],
});

/**
 * A comparison of two pairs of answers: one differs in a gender (the candidate failed a row on it),
 * the other in a name (personal data, masked; no row failed).
 */
function comparison(): Comparison {
  const redactor = Redactor.forRun({ secrets: [], evidence: 'masked', fixtures: {} });
  const compared = compareLogs({
    reference: [call(REF, 0, patient('Jones', 'female')), call(REF, 1, patient('Smithson', 'male'))],
    candidate: [call(CAND, 0, patient('Jones', 'unknown')), call(CAND, 1, patient('Smythe', 'male'))],
    failures: new Map([
      [
        `${CAND}#0`,
        [{ requirement: 'D3-2.4-01', level: 'MUST', check: 'matches-schema', message: 'Expected a documented gender' }],
      ],
    ]),
    configured: [],
    mask: (x) => redactor.exchange(asExchange(x)),
    maskValue: (v) => redactor.value(v),
    replay: (op) => `conformance compare --only ${op}`,
  });
  return {
    suite: { name: 'suite', version: '0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    seed: 7,
    runs: 1,
    allowDestructive: false,
    evidence: 'masked',
    failOn: 'any',
    noiseFrom: 'documents',
    targets: [
      {
        role: 'candidate',
        url: CAND,
        sandbox: false,
        config: 'c.json',
        verdict: 'not-conformant',
        exitCode: 1,
        exchanges: 1,
        report: 'report.html',
      },
      {
        role: 'reference',
        url: REF,
        sandbox: true,
        config: 'demo',
        verdict: 'conformant',
        exitCode: 0,
        exchanges: 1,
        report: 'reference/report.html',
      },
    ],
    summary: compared.summary,
    outcome: 'different',
    exitCode: 1,
    operations: compared.operations,
    noise: compared.noise,
    groups: compared.groups,
  };
}

/** The pair of answers of a group, side by side, without its anchor. */
const pairOf = (html: string, from: number): string => {
  const start = html.indexOf('<div class="side-by-side"', from);
  const end = html.indexOf('</section>\n</div>', start);
  return html.slice(start, end).replace(/^<div class="side-by-side"[^>]*>/, '');
};

describe("report.html's comparison section", () => {
  const c = comparison();
  const plain = loadFixture('failing');
  const compared: ComparedResults = { ...plain, comparison: comparisonInReport(c) };
  const html = renderHtml(compared);

  test('a run that compared nothing has no such section, and the page its usual style and policy', () => {
    const page = renderHtml(loadFixture('failing'));
    expect(page).not.toContain('id="comparison"');
    expect(page).not.toContain('href="#comparison"');
    expect(page).toContain(`content="${CONTENT_SECURITY_POLICY.replaceAll("'", '&#39;')}"`);
    expect(page).not.toContain(COMPARISON_STYLE);
  });

  test('is headed with the reference, linked from the contents, and gives the outcome and counts', () => {
    const section = elementById(html, 'comparison');
    expect(section).toContain(`<h2 id="comparison-title">Comparison with ${REF} (the sandbox)</h2>`);
    expect(html).toContain('<li><a href="#comparison">Comparison</a></li>');
    expect(section).toMatch(/DIFFERENT<\/span> under --fail-on any \(exit 1\)/);
    expect(section).toContain(`${c.summary.pairs} pair(s) of answers compared`);
    expect(section).toContain(`${c.summary.differences} beyond noise in ${c.summary.groups} group(s)`);
    expect(section).toContain(`${c.summary.suppressed} difference(s), the members the documents make volatile`);
    expect(section).toContain('<a href="compare.html">compare.html</a>');
  });

  test('lists each group, its rule linked to its row in this report, and leads to its pair of answers', () => {
    const table = elementById(html, 'comparison-table');
    const gender = c.groups.find((g) => g.path === '/gender');
    const name = c.groups.find((g) => g.path === '/name/*/family');
    expect(gender && name).toBeTruthy();
    expect(elementById(html, `comparison-row-${gender?.id}`)).toContain(
      'breaks <a href="#req-D3-2.4-01">D3-2.4-01</a>',
    );
    expect(elementById(html, `comparison-row-${name?.id}`)).toContain('no documented rule');
    for (const g of c.groups) {
      expect(table).toContain(`<a href="#comparison-${g.id}-answers" class="to-pair">answers side by side</a>`);
      const details = elementById(html, `comparison-${g.id}`);
      expect(details).toMatch(/^<details class="difference/);
      expect(details).toContain(`id="comparison-${g.id}-answers"`);
    }
  });

  test('shows each pair as compare.html shows it: the same renderer, the same masked text', () => {
    const page = renderCompareHtml(c);
    for (const g of c.groups) {
      const inReport = pairOf(html, html.indexOf(`id="comparison-${g.id}"`));
      const inPage = pairOf(
        page,
        page.indexOf(`<article class="difference${g.breaks.length ? ' breaks' : ''}" id="${g.id}"`),
      );
      expect(inReport.length).toBeGreaterThan(200);
      expect(inReport).toBe(inPage);
      expect(inReport).toContain('answer-reference');
      expect(inReport).toContain('answer-candidate');
    }
    // The names are personal data: masked in the pair as in every artefact; the gender is not.
    expect(html).not.toContain('Smithson');
    expect(html).not.toContain('Smythe');
    expect(html).toContain('<mark>&quot;gender&quot;: &quot;unknown&quot;</mark>');
  });

  test('keeps the page self-contained: its own policy with the comparison styles, and no script but the filters', () => {
    expect(html).toContain(`content="${COMPARED_CONTENT_SECURITY_POLICY.replaceAll("'", '&#39;')}"`);
    expect(html).toContain(COMPARISON_STYLE);
    expect((html.match(/<script/g) ?? []).length).toBe((renderHtml(plain).match(/<script/g) ?? []).length);
    expect(elementById(html, 'comparison')).not.toMatch(/<script|\son\w+=|javascript:/i);
  });

  test('sealed again with the comparison, the report folder verifies intact, the section derived from results.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-section-'));
    await writeReports(compared, dir);
    const written = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(written).toContain('id="comparison"');
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ComparedResults;
    expect(results.comparison?.groups).toHaveLength(c.groups.length);
    const v = await verifyReportDir(dir);
    expect(v.intact).toBe(true);
    expect(v.files.find((f) => f.name === 'report.html')?.state).toBe('matches');
  });
});
