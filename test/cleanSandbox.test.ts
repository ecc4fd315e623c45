/**
 * Self-test, part 1: the whole suite against the clean sandbox yields `conformant` with zero MUST
 * failures, covers all operations and every testable requirement, and writes the report files.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../spec/operations.ts';
import { startSandbox } from '../server/http.ts';
import type { RunResults } from '../core/results.ts';
import { isKnownCheckId } from '../checks/registry.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';
import { stricterThanCited } from './support/levels.ts';

describe('the suite against the clean sandbox', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let results: RunResults;
  let dir: string;
  let code: number | null;
  let stdout: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = reportDir();
    ({ code, stdout } = await runCli(
      [
        'run',
        '--target',
        sandbox.url,
        '--allow-destructive',
        '--report-dir',
        dir,
        '--seed',
        '20261121',
        '--runs',
        '15',
      ],
      { timeoutMs: 300000 },
    ));
    results = readResults(dir);
  }, 320000);

  afterAll(async () => {
    await sandbox?.close();
  });

  test('exits 0 with verdict conformant and no MUST failure or error', () => {
    const bad = results.results.filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'));
    expect(bad.map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
    expect(results.verdict).toBe('conformant');
    expect(code).toBe(0);
    expect(stdout).toContain('Verdict: CONFORMANT');
  });

  test('no result is reported at a stricter level than a requirement it cites', () => {
    expect(stricterThanCited(results)).toEqual([]);
  });

  test('suites judge only through named checks: every result names a registered check or a suite- or runner-decided outcome', () => {
    expect([...new Set(results.results.map((r) => r.check))].filter((id) => !isKnownCheckId(id)).sort()).toEqual([]);
  });

  test('every operation of the table is judged, each with passing MUST checks', () => {
    const all = operations.map((o) => o.id);
    expect(results.operations.map((o) => o.id)).toEqual(all);
    for (const id of all) {
      const passes = results.results.filter((r) => r.operation === id && r.level === 'MUST' && r.status === 'pass');
      expect(passes.length, id).toBeGreaterThan(1);
    }
  });

  test("the repeated key search_practitionerrole_endpoint resolves in each service's own discovery document", () => {
    const address = (op: string) =>
      results.results.find((r) => r.operation === op && r.check === 'discovery-key-present')?.message ?? '';
    expect(address('search-register-practitioner-roles')).toMatch(/^search_practitionerrole_endpoint = .*\/register\//);
    expect(address('search-booking-practitioner-roles')).toMatch(/^search_practitionerrole_endpoint = .*\/booking\//);
  });

  test('nothing destructive was omitted, and every result names requirements that exist', async () => {
    const { loadRequirements } = await import('../spec/requirements.ts');
    const ids = new Set(loadRequirements().map((r) => r.id));
    expect(results.results.filter((r) => r.status === 'omit')).toEqual([]);
    const unknown = [...new Set(results.results.flatMap((r) => r.requirements).filter((id) => !ids.has(id)))];
    expect(unknown).toEqual([]);
  });

  test('every testable requirement of the table has a result, and every applied decision exists', async () => {
    const { traceability } = await import('../reports/traceability.ts');
    const { loadDecisions } = await import('../spec/decisions.ts');
    const gaps = traceability(results)
      .filter((row) => row.status === 'not-run')
      .map((row) => `${row.requirement.id}: ${row.reason}`);
    expect(gaps).toEqual([]);
    const known = new Set(loadDecisions().map((d) => d.id));
    expect(results.decisions.filter((d) => !known.has(d))).toEqual([]);
    expect(results.appliedDecisions.map((d) => d.id)).toEqual(results.decisions);
  });

  test('writes the sealed results.json, junit.xml, report.html, requirements-coverage.csv and Allure results; the token never appears in them', async () => {
    for (const f of ['results.json', 'junit.xml', 'report.html', 'requirements-coverage.csv'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(dir, 'allure-results')).some((f) => f.endsWith('-result.json'))).toBe(true);
    expect(results.integrity?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await runCli(['verify-report', dir])).code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const text = ['results.json', 'junit.xml', 'report.html'].map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(text).not.toMatch(/sandbox-secret/);
    expect(text).not.toMatch(/Bearer (?!\*\*\*\*|\$CONFORMANCE_TOKEN)[A-Za-z0-9._-]{8,}/);
  });
});
