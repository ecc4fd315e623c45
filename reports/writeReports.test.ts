import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunResults, STATUSES, emptyCounts, verdictOf } from '../core/results.ts';
import { renderHtml } from './html/renderHtml.ts';
import { renderJunit } from './junitReport.ts';
import { FIXTURE_NAMES, fixturePath, loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { parseXml } from './testSupport/xmlWellFormed.ts';
import { sealed } from '../core/integrity.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { renderCoverageCsv } from './traceability.ts';
import {
  prettyJsonPieces,
  readResults,
  rebuildReports,
  resultsJsonPieces,
  resultsProblem,
  verifyReportDir,
  writeReports,
} from './writeReports.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reports-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeReports', () => {
  it('creates the folder and writes the sealed results.json, junit.xml, report.html and requirements-coverage.csv', async () => {
    const { integrity: _old, ...unsealed } = loadFixture('failing');
    const run = sealed(unsealed);
    const paths = await writeReports(unsealed, join(dir, 'nested', 'out'));
    expect(paths).toEqual({
      resultsJson: join(dir, 'nested', 'out', 'results.json'),
      junitXml: join(dir, 'nested', 'out', 'junit.xml'),
      reportHtml: join(dir, 'nested', 'out', 'report.html'),
      coverageCsv: join(dir, 'nested', 'out', 'requirements-coverage.csv'),
    });
    expect(run.integrity?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(paths.coverageCsv, 'utf8')).toBe(renderCoverageCsv(run));
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

  it('leaves no temporary file, and a rendering failure leaves the earlier files as they were', async () => {
    await writeReports(loadFixture('failing'), dir);
    const before = await Promise.all(['results.json', 'report.html'].map((n) => readFile(join(dir, n), 'utf8')));
    const broken = { ...loadFixture('conformant'), operations: [{ id: 'search-bills' }] } as unknown as RunResults;
    await expect(writeReports(broken, dir)).rejects.toThrow(TypeError);
    expect(await Promise.all(['results.json', 'report.html'].map((n) => readFile(join(dir, n), 'utf8')))).toEqual(
      before,
    );
    expect((await readdir(dir)).sort()).toEqual([
      'junit.xml',
      'report.html',
      'requirements-coverage.csv',
      'results.json',
    ]);
  });

  it('round-trips through readResults', async () => {
    const run = loadFixture('inconclusive');
    const paths = await writeReports(run, dir);
    expect(await readResults(paths.resultsJson)).toEqual(run);
  });
});

describe('rebuildReports and verifyReportDir', () => {
  /** A report folder written by this suite version. */
  async function written(): Promise<string> {
    const run = { ...loadFixture('failing'), suite: suiteVersion() };
    await writeReports(run, dir);
    return dir;
  }

  it('finds a freshly written folder intact', async () => {
    const v = await verifyReportDir(await written());
    expect(v.integrity.state).toBe('intact');
    expect(v.files).toEqual([
      { name: 'junit.xml', state: 'matches' },
      { name: 'report.html', state: 'matches' },
      { name: 'requirements-coverage.csv', state: 'matches' },
    ]);
    expect(v.intact).toBe(true);
  });

  it('finds an edited report.html, a deleted csv and an edited results.json', async () => {
    await written();
    const html = join(dir, 'report.html');
    await writeFile(
      html,
      (await readFile(html, 'utf8')).replace(
        'data-verdict="not-conformant">Not conformant',
        'data-verdict="conformant">Conformant',
      ),
    );
    await rm(join(dir, 'requirements-coverage.csv'));
    let v = await verifyReportDir(dir);
    expect(v.integrity.state).toBe('intact');
    expect(v.files.find((f) => f.name === 'report.html')?.state).toBe('altered');
    expect(v.files.find((f) => f.name === 'requirements-coverage.csv')?.state).toBe('missing');
    expect(v.intact).toBe(false);
    const json = join(dir, 'results.json');
    await writeFile(
      json,
      (await readFile(json, 'utf8')).replace('"verdict": "not-conformant"', '"verdict": "conformant"'),
    );
    v = await verifyReportDir(dir);
    expect(v.integrity.state).toBe('altered');
    expect(v.intact).toBe(false);
  });

  it('accepts results.json re-indented (the digest is over canonical content)', async () => {
    await written();
    const json = join(dir, 'results.json');
    await writeFile(json, JSON.stringify(JSON.parse(await readFile(json, 'utf8'))));
    expect((await verifyReportDir(dir)).integrity.state).toBe('intact');
  });

  it('cannot compare derived files written by another suite version, but still checks the digest', async () => {
    await writeReports(
      { ...loadFixture('failing'), suite: { name: suiteVersion().name, version: '0.0.0-other' } },
      dir,
    );
    const v = await verifyReportDir(dir);
    expect(v.integrity.state).toBe('intact');
    expect(v.files.map((f) => f.state)).toEqual(['not-comparable', 'not-comparable', 'not-comparable']);
    expect(v.intact).toBe(true);
  });

  it('rebuilds the derived files offline from results.json alone, keeping the stored digest', async () => {
    await written();
    await rm(join(dir, 'report.html'));
    await rm(join(dir, 'junit.xml'));
    const out = join(dir, 'rebuilt');
    const { paths, integrity } = await rebuildReports(join(dir, 'results.json'), out);
    expect(integrity.state).toBe('intact');
    expect(await readFile(paths.reportHtml, 'utf8')).toContain('data-verdict="not-conformant"');
    expect((await verifyReportDir(out)).intact).toBe(true);
    // In place, next to results.json.
    await rebuildReports(join(dir, 'results.json'));
    expect((await verifyReportDir(dir)).intact).toBe(true);
  });

  it('compares byte for byte: a byte added or cut at the end is an alteration, a folder in place of a file is missing', async () => {
    await written();
    const html = join(dir, 'report.html');
    const page = await readFile(html);
    await writeFile(html, Buffer.concat([page, Buffer.from(' ')]));
    expect((await verifyReportDir(dir)).files.find((f) => f.name === 'report.html')?.state).toBe('altered');
    await writeFile(html, page.subarray(0, page.length - 1));
    expect((await verifyReportDir(dir)).files.find((f) => f.name === 'report.html')?.state).toBe('altered');
    await writeFile(html, page);
    expect((await verifyReportDir(dir)).intact).toBe(true);
    await rm(join(dir, 'junit.xml'));
    await mkdir(join(dir, 'junit.xml'));
    expect((await verifyReportDir(dir)).files.find((f) => f.name === 'junit.xml')?.state).toBe('missing');
  });

  it('says why a folder cannot be verified', async () => {
    await expect(verifyReportDir(join(dir, 'none'))).rejects.toThrow(
      /^Cannot read results file .*results\.json: ENOENT/,
    );
  });
});

describe('prettyJsonPieces', () => {
  const pretty = (value: unknown, depth?: number) => [...prettyJsonPieces(value, depth)].join('');

  it('gives the text of JSON.stringify(value, null, 2) at every depth it walks', () => {
    const date = new Date(Date.UTC(2026, 0, 2));
    const bare = Object.assign(Object.create(null) as object, { b: 1 });
    const value = {
      text: 'line\nbreak "quoted" \u2026 \ud83d\ude00 </script>',
      empty: { list: [], object: {} },
      skipped: undefined,
      fn: () => 1,
      list: [1, undefined, () => 2, null, { a: [{ deep: [1, [2, { x: undefined }]] }] }, [], {}],
      date,
      dates: [date, { at: date }],
      custom: { toJSON: (key: string) => ({ key }) },
      bare,
      boxed: [Object(1), Object('s'), Object(false)],
      nothing: { a: undefined },
    };
    for (const depth of [0, 1, 2, 3, 6])
      expect(pretty(value, depth), `depth ${depth}`).toBe(JSON.stringify(value, null, 2));
    for (const v of [[], {}, 'x', 1, null, [undefined], [[[]]], { a: { b: {} } }]) {
      expect(pretty(v), JSON.stringify(v)).toBe(JSON.stringify(v, null, 2));
    }
    expect([...prettyJsonPieces(undefined)]).toEqual([]);
  });

  it.each(FIXTURE_NAMES)('gives results.json of the %s fixture as JSON.stringify does', (name) => {
    const run = sealed(loadFixture(name));
    expect([...resultsJsonPieces(run)].join('')).toBe(`${JSON.stringify(run, null, 2)}\n`);
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
    await expect(readResults(join(dir, 'missing.json'))).rejects.toThrow(
      /^Cannot read results file .*missing\.json: ENOENT[^\n]*$/,
    );
  });

  it('rejects a result with an unknown status or a dangling exchange', async () => {
    const bad = loadFixture('failing');
    (bad.results[0] as { status: string }).status = 'passed';
    expect(await rejection(JSON.stringify(bad))).toMatch(/results\[0\] is not a check result$/);
    const dangling = loadFixture('failing');
    (dangling.results[0] as { exchange: number }).exchange = 99;
    expect(await rejection(JSON.stringify(dangling))).toMatch(/results\[0\] refers to a missing exchange$/);
  });

  it('accepts a BOM, and rejects a file without the requirement table (written before traceability)', async () => {
    const file = join(dir, 'bom.json');
    await writeFile(file, `\uFEFF${JSON.stringify(loadFixture('conformant'))}`);
    expect(await readResults(file)).toEqual(loadFixture('conformant'));
    const old = loadFixture('conformant') as Partial<ReturnType<typeof loadFixture>>;
    delete old.requirements;
    expect(await rejection(JSON.stringify(old))).toMatch(
      /is not a results file: expected "requirements" to be an array$/,
    );
  });

  it('explains the first problem', () => {
    expect(resultsProblem([])).toBe('expected a JSON object');
    expect(resultsProblem({ ...loadFixture('conformant'), verdict: 'ok' })).toBe(
      'expected "verdict" to be one of conformant, not-conformant, inconclusive',
    );
    expect(resultsProblem(loadFixture('conformant'))).toBeUndefined();
    // A stated attestation is text (the report shows it as stated); a number there is no run's.
    const fixture = loadFixture('conformant');
    expect(resultsProblem({ ...fixture, attestation: { ...fixture.attestation, environment: 42 } })).toBe(
      'expected "attestation.environment" to be a string',
    );
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
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserts non-ASCII text survives, by its range
    expect(JSON.stringify(run)).toMatch(/[^\x00-\x7F]/);
  });
});
