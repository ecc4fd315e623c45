/**
 * The Allure part of a run, end to end: the real command against the real sandbox with a fault,
 * then what allure-vitest wrote into <report dir>/allure-results, then the HTML report built from it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SEVERITY_OF_LEVEL, strongestLevel } from '../core/allure.ts';
import type { CheckResult, ExchangeRecord, RunResults } from '../core/results.ts';
import { buildAllureReport } from '../reports/allureReport.ts';
import { startSandbox, type RunningSandbox } from '../server/http.ts';
import { operation } from '../spec/operations.ts';
import { readResults, reportDir, runCli, type CliResult } from './support/cli.ts';

interface AllureStep {
  name?: string;
  status?: string;
  steps?: AllureStep[];
  attachments?: { name: string; source: string; type: string }[];
}
interface AllureTest extends AllureStep {
  name: string;
  status: string;
  labels: { name: string; value: string }[];
  titlePath: string[];
}

const OPERATION = 'find-member-v1';
let sandbox: RunningSandbox;
let dir: string;
let cli: CliResult;
let results: RunResults;
let allureDir: string;
let tests: AllureTest[];

beforeAll(async () => {
  // NO_MATCH_FOUND answered with HTTP 200: a MUST failure of find-member-v1.
  sandbox = await startSandbox({ port: 0, faults: ['no-match-status-200'] });
  dir = reportDir();
  allureDir = join(dir, 'allure-results');
  // A result left by an earlier run into the same folder must not survive this one.
  mkdirSync(allureDir);
  writeFileSync(join(allureDir, 'stale-result.json'), '{}');
  // An Allure test plan (as Allure TestOps sets in CI) that names none of the suite's tests.
  const plan = join(dir, 'testplan.json');
  writeFileSync(plan, JSON.stringify({ version: '1.0', tests: [{ id: '1', selector: 'elsewhere.test.ts#nothing' }] }));
  cli = await runCli(
    ['run', '--target', sandbox.url, '--only', OPERATION, '--report-dir', dir, '--seed', '20261121', '--runs', '2'],
    {
      timeoutMs: 120_000,
      env: { ALLURE_TESTPLAN_PATH: plan },
    },
  );
  results = readResults(dir);
  tests = readdirSync(allureDir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(allureDir, f), 'utf8')) as AllureTest);
}, 150_000);

afterAll(async () => {
  await sandbox?.close();
});

/** `describe > test` as results.json names a result's test. */
function testName(t: AllureTest): string {
  const file = t.titlePath.findIndex((p) => p.endsWith('.suite.ts'));
  return [...t.titlePath.slice(file + 1), t.name].join(' > ');
}

function resultsOf(t: AllureTest): CheckResult[] {
  return results.results.filter((r) => r.test === testName(t));
}

const values = (t: AllureTest, name: string) => t.labels.filter((l) => l.name === name).map((l) => l.value);

function attachmentsOf(step: AllureStep): NonNullable<AllureStep['attachments']> {
  return [...(step.attachments ?? []), ...(step.steps ?? []).flatMap(attachmentsOf)];
}

describe('allure results of a run', () => {
  test("the run judged the fault and wrote one result file per test, replacing an earlier run's", () => {
    expect(cli.stderr).not.toMatch(/internal error/);
    expect(cli.code).toBe(1);
    expect(existsSync(join(allureDir, 'stale-result.json'))).toBe(false);
    expect(tests.length).toBeGreaterThan(0);
    const judgedTests = new Set(results.results.map((r) => r.test).filter(Boolean));
    expect(new Set(tests.map(testName))).toEqual(judgedTests);
  });

  test('an Allure test plan in the environment does not narrow what the run judges', () => {
    // allure-vitest would skip every test the plan does not name; the fault is still caught.
    expect(results.results.filter((r) => r.test !== undefined).length).toBeGreaterThan(10);
    expect(results.verdict).toBe('not-conformant');
  });

  test('each test is labelled with its operation, document, section, requirements and severity', () => {
    const op = operation(OPERATION);
    for (const t of tests) {
      const own = resultsOf(t);
      expect(own.length, testName(t)).toBeGreaterThan(0);
      expect(values(t, 'operation')).toEqual([OPERATION]);
      expect(values(t, 'feature')).toEqual([OPERATION]);
      expect(values(t, 'epic')).toEqual([op.document]);
      expect(values(t, 'section')).toEqual([op.section]);
      expect(values(t, 'requirement').sort()).toEqual([...new Set(own.flatMap((r) => r.requirements))].sort());
      expect(values(t, 'severity')).toEqual([SEVERITY_OF_LEVEL[strongestLevel(own.map((r) => r.level))!]]);
    }
  });

  test('each test attaches, once each, the masked exchanges it judged, as JSON', () => {
    for (const t of tests) {
      const attachments = attachmentsOf(t);
      const judged = [...new Set(resultsOf(t).flatMap((r) => (r.exchange === undefined ? [] : [r.exchange])))].map(
        (i) => results.exchanges[i],
      );
      expect(attachments.length, testName(t)).toBe(judged.length);
      const records = attachments.map((a) => {
        expect(a.type).toBe('application/json');
        const record = JSON.parse(readFileSync(join(allureDir, a.source), 'utf8')) as ExchangeRecord;
        expect(a.name).toBe(
          `${record.method} ${new URL(record.url).pathname}${new URL(record.url).search} -> ${record.status ?? 'no response'}`,
        );
        return record;
      });
      expect(records).toEqual(expect.arrayContaining(judged));
    }
  });

  test('a step per result says what was judged; a test with a MUST failure is failed', () => {
    const failing = new Set(
      results.results.filter((r) => r.level === 'MUST' && r.status === 'fail').map((r) => r.test),
    );
    expect(failing.size).toBeGreaterThan(0);
    for (const t of tests) {
      const own = resultsOf(t);
      const steps = (t.steps ?? []).filter((s) => (s.attachments ?? []).length === 0);
      expect(
        steps.map((s) => s.name),
        testName(t),
      ).toEqual(own.map((r) => expect.stringContaining(`${r.status} ${r.check} [${r.level}]`)));
      expect(t.status, testName(t)).toBe(failing.has(testName(t)) ? 'failed' : 'passed');
    }
  });

  test('no credential appears unmasked in any file', () => {
    const text = readdirSync(allureDir)
      .map((f) => readFileSync(join(allureDir, f), 'utf8'))
      .join('\n');
    expect(text).toMatch(/"Authorization": "Bearer \*\*\*\*"/);
    expect(text).not.toMatch(/Bearer (?!\*\*\*\*)[A-Za-z0-9._~+/=-]{8,}/);
    expect(text).not.toMatch(/sandbox-secret/);
  });

  test('the Allure HTML report is built from them', async () => {
    const { index } = await buildAllureReport(allureDir, join(dir, 'allure-report'));
    expect(index).toBe(join(dir, 'allure-report', 'index.html'));
    expect(readFileSync(index, 'utf8')).toMatch(/<html/);
  }, 30_000);

  test('with a history file, each build reads the earlier ones and appends itself, so trends show (issue 24)', async () => {
    const history = join(dir, 'ci-cache', 'allure-history.jsonl');
    const lines = () => readFileSync(history, 'utf8').split('\n').filter(Boolean);
    const first = await buildAllureReport(allureDir, join(dir, 'allure-report-1'), { historyFile: history });
    expect(first.historyFile).toBe(history);
    expect(lines()).toHaveLength(1);
    // The command a CI job runs: conformance report --allure --allure-history FILE.
    const cliBuild = await runCli(['report', join(dir, 'results.json'), '--allure', '--allure-history', history]);
    expect(cliBuild.code, cliBuild.stderr).toBe(0);
    expect(cliBuild.stdout).toContain(`(history: ${history})`);
    expect(lines()).toHaveLength(2);
    // Each line is one build's data point, naming the tests it saw.
    const point = JSON.parse(lines()[1] as string) as Record<string, unknown>;
    expect(Object.keys(point)).toEqual(expect.arrayContaining(['uuid', 'timestamp']));
    await expect(buildAllureReport(allureDir, join(dir, 'allure-report-3'), { historyFile: dir })).rejects.toThrow(
      /received a folder/,
    );
  }, 60_000);
});
