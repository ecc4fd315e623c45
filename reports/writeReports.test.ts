import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATUSES, emptyCounts, verdictOf } from '../core/results.ts';
import { renderHtml } from './htmlReport.ts';
import { renderJunit } from './junitReport.ts';
import { FIXTURE_NAMES, fixturePath, loadFixture } from './testSupport/fixtures.ts';
import { parseXml } from './testSupport/xmlWellFormed.ts';
import { readResults, resultsProblem, writeReports } from './writeReports.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reports-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeReports', () => {
  it('creates the folder and writes results.json, junit.xml and report.html', async () => {
    const run = loadFixture('failing');
    const paths = await writeReports(run, join(dir, 'nested', 'out'));
    expect(paths).toEqual({
      resultsJson: join(dir, 'nested', 'out', 'results.json'),
      junitXml: join(dir, 'nested', 'out', 'junit.xml'),
      reportHtml: join(dir, 'nested', 'out', 'report.html'),
    });
    for (const p of Object.values(paths)) expect(isAbsolute(p)).toBe(true);
    const json = await readFile(paths.resultsJson, 'utf8');
    expect(json).toBe(`${JSON.stringify(run, null, 2)}\n`);
    expect(JSON.parse(json)).toEqual(run);
    const xml = await readFile(paths.junitXml, 'utf8');
    expect(xml).toBe(renderJunit(run));
    expect(() => parseXml(xml)).not.toThrow();
    expect(await readFile(paths.reportHtml, 'utf8')).toBe(renderHtml(run));
  });

  it('returns absolute paths for a relative folder and overwrites earlier files', async () => {
    const relativeDir = relative(process.cwd(), join(dir, 'out'));
    expect(isAbsolute(relativeDir)).toBe(false);
    await writeReports(loadFixture('failing'), relativeDir);
    const paths = await writeReports(loadFixture('conformant'), relativeDir);
    expect(paths.reportHtml).toBe(join(dir, 'out', 'report.html'));
    expect(await readFile(paths.reportHtml, 'utf8')).toContain('data-verdict="conformant"');
  });

  it('round-trips through readResults', async () => {
    const run = loadFixture('inconclusive');
    const paths = await writeReports(run, dir);
    expect(await readResults(paths.resultsJson)).toEqual(run);
  });
});

describe('readResults', () => {
  it.each(FIXTURE_NAMES)('reads the %s fixture', async (name) => {
    expect(await readResults(fixturePath(name))).toEqual(loadFixture(name));
  });

  async function rejection(content: string): Promise<string> {
    const file = join(dir, 'x.json');
    await writeFile(file, content);
    try {
      await readResults(file);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected readResults to reject');
  }

  it('rejects JSON that is not a results file with a one-line message', async () => {
    const message = await rejection('{\n  "name": "some-package",\n  "version": "1.0.0"\n}\n');
    expect(message).toBe(`${join(dir, 'x.json')} is not a results file: expected "suite" with a name and a version`);
  });

  it('rejects text that is not JSON with a one-line message', async () => {
    const message = await rejection('<html>\n<body>not json</body>\n</html>');
    expect(message).toMatch(/ is not a results file: invalid JSON \(/);
    expect(message).not.toMatch(/[\r\n]/);
  });

  it('rejects a missing file with a one-line message', async () => {
    await expect(readResults(join(dir, 'missing.json'))).rejects.toThrow(/^Cannot read results file .*missing\.json: ENOENT[^\n]*$/);
  });

  it('rejects a result with an unknown status or a dangling exchange', async () => {
    const bad = loadFixture('failing');
    (bad.results[0] as { status: string }).status = 'passed';
    expect(await rejection(JSON.stringify(bad))).toMatch(/results\[0\] is not a check result$/);
    const dangling = loadFixture('failing');
    (dangling.results[0] as { exchange: number }).exchange = 99;
    expect(await rejection(JSON.stringify(dangling))).toMatch(/results\[0\] refers to a missing exchange$/);
  });

  it('accepts a file without decisions and a BOM', async () => {
    const run = loadFixture('conformant') as Partial<ReturnType<typeof loadFixture>>;
    delete run.decisions;
    const file = join(dir, 'old.json');
    await writeFile(file, `\uFEFF${JSON.stringify(run)}`);
    expect((await readResults(file)).decisions).toEqual([]);
  });

  it('explains the first problem', () => {
    expect(resultsProblem([])).toBe('expected a JSON object');
    expect(resultsProblem({ ...loadFixture('conformant'), verdict: 'ok' })).toBe(
      'expected "verdict" to be one of conformant, not-conformant, inconclusive',
    );
    expect(resultsProblem(loadFixture('conformant'))).toBeUndefined();
  });
});

describe('fixtures agree with the results model', () => {
  it.each(FIXTURE_NAMES)('%s: summary, verdict and operation counts match its results', (name) => {
    const run = loadFixture(name);
    const counts = emptyCounts();
    for (const r of run.results) counts[r.status] += 1;
    expect(run.summary).toEqual(counts);
    expect(run.verdict).toBe(verdictOf(run.results));
    expect(run.verdict).toBe(name === 'failing' ? 'not-conformant' : name);
    for (const op of run.operations) {
      const mine = run.results.filter((r) => r.operation === op.id);
      const c = emptyCounts();
      for (const r of mine) c[r.status] += 1;
      expect(op.counts, op.id).toEqual(c);
      expect(op.verdict, op.id).toBe(verdictOf(mine));
    }
    for (const x of run.exchanges) {
      if (x.response) expect(x.response.size, x.url).toBe(Buffer.byteLength(x.response.body, 'utf8'));
    }
  });

  it('the failing fixture covers every status, level MUST and SHOULD, hostile and non-ASCII text', () => {
    const run = loadFixture('failing');
    expect(new Set(run.results.map((r) => r.status))).toEqual(new Set(STATUSES));
    expect(run.results.some((r) => r.status === 'fail' && r.level === 'MUST')).toBe(true);
    expect(run.results.some((r) => r.status === 'warn' && r.level === 'SHOULD')).toBe(true);
    expect(run.exchanges.some((x) => x.response?.body.includes('</script><script>alert(1)</script>'))).toBe(true);
    expect(JSON.stringify(run)).toMatch(/[^\x00-\x7F]/);
  });
});
