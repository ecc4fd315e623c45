/**
 * `conformance compare` end to end (issue 35), against real sandboxes over HTTP on 127.0.0.1 (no
 * mock of our components): the sandbox against itself with a second sandbox as the noise reference
 * (no difference, exit 0); against a sandbox with a benign variant (differences no documented rule
 * covers: exit 1 with --fail-on any, 0 with --fail-on documented); against a sandbox with a fault
 * (a difference that breaks the row the fault breaks, shown in the candidate's report.html too,
 * whose folder still verifies intact and signed); and the command's bad options and an
 * unreachable target (one line and its exit code). Runs are kept small (--only, --runs); every
 * sandbox a test starts is closed, pass or fail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import type { ComparedResults, Comparison } from '../reports/compareModel.ts';
import { findAll, parseXml } from '../reports/testSupport/xmlWellFormed.ts';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../server/http.ts';
import { readResults, reportDir, ROOT, runCli, runInProcess } from './support/cli.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validComparison = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'reports', 'compare.schema.json'), 'utf8')));

/** Starts the sandboxes, runs `body`, and closes every one of them whatever happens. */
async function withSandboxes<T>(
  options: readonly SandboxOptions[],
  body: (sandboxes: RunningSandbox[]) => Promise<T>,
): Promise<T> {
  const started: RunningSandbox[] = [];
  try {
    for (const o of options) started.push(await startSandbox({ host: '127.0.0.1', port: 0, ...o }));
    return await body(started);
  } finally {
    await Promise.all(started.map((s) => s.close()));
  }
}

function readComparison(dir: string): Comparison {
  const c = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Comparison;
  expect(validComparison(c), JSON.stringify(validComparison.errors)).toBe(true);
  return c;
}

const SMALL = ['--seed', '20261128', '--runs', '3'];

describe('conformance compare', () => {
  test('the sandbox against itself, a second sandbox teaching the noise: no difference, exit 0', async () => {
    const dir = reportDir();
    const r = await withSandboxes([{}, {}, {}], ([candidate, reference, second]) =>
      runCli(
        [
          'compare',
          '--target',
          candidate?.url ?? '',
          '--reference',
          reference?.url ?? '',
          '--second',
          second?.url ?? '',
          '--only',
          'search-bills,get-bill,lookup-practitioners',
          '--report-dir',
          dir,
          ...SMALL,
        ],
        { timeoutMs: 240_000 },
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    const c = readComparison(dir);
    expect(c).toMatchObject({ outcome: 'same', exitCode: 0, noiseFrom: 'second', groups: [] });
    expect(c.summary.differences).toBe(0);
    expect(c.summary.pairs).toBeGreaterThan(20);
    expect(c.targets.map((t) => [t.role, t.sandbox])).toEqual([
      ['candidate', false],
      ['reference', false],
      ['second', false],
    ]);
    // A lookup Bundle's own id is made per answer: learnt as noise, and the candidate's ids were left out by it.
    const id = c.noise.find((n) => n.operation === 'lookup-practitioners' && n.path === '/id');
    expect(id).toMatchObject({ source: 'learned' });
    expect(id?.suppressed).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^Outcome: SAME \(--fail-on any; exit 0\)$/m);
    // The candidate's usual report beside the comparison, the references' in their folders.
    for (const f of [
      'report.html',
      'results.json',
      'compare.html',
      'compare.junit.xml',
      'reference/report.html',
      'second/report.html',
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
    const junit = parseXml(readFileSync(join(dir, 'compare.junit.xml'), 'utf8'));
    expect(findAll(junit, 'testcase')).toHaveLength(1);
    expect(findAll(junit, 'failure')).toHaveLength(0);
  }, 300_000);

  test('a benign variant: differences no documented rule covers, exit 1 with --fail-on any and 0 with --fail-on documented', async () => {
    const [any, documented] = [reportDir(), reportDir()];
    const [a, d] = await withSandboxes([{ variants: ['bill-optional-members-null'] }], async ([candidate]) => {
      // No --reference: the command starts a sandbox of its own, and stops it.
      const args = (dir: string) => [
        'compare',
        '--target',
        candidate?.url ?? '',
        '--only',
        'search-bills,get-bill',
        '--report-dir',
        dir,
        ...SMALL,
      ];
      return [
        await runCli(args(any), { timeoutMs: 240_000 }),
        await runCli([...args(documented), '--fail-on', 'documented'], { timeoutMs: 240_000 }),
      ];
    });
    expect(a.code, a.stderr).toBe(1);
    expect(d.code, d.stderr).toBe(0);
    for (const [dir, outcome] of [
      [any, 'different'],
      [documented, 'same'],
    ] as const) {
      const c = readComparison(dir);
      expect(c.outcome).toBe(outcome);
      expect(c.noiseFrom).toBe('documents');
      expect(c.targets[1]).toMatchObject({ role: 'reference', sandbox: true, config: "the sandbox's demo config" });
      expect(c.groups.length).toBeGreaterThan(0);
      // Members written as null where the reference leaves them out: new members, no documented rule.
      expect(c.groups.every((g) => g.breaks.length === 0)).toBe(true);
      expect(c.groups.some((g) => g.kind === 'member-new' && g.example.candidate === null)).toBe(true);
      expect(c.summary.breaking).toBe(0);
    }
    expect(a.stdout).toMatch(/no documented rule/);
    expect(a.stdout).toMatch(/^Outcome: DIFFERENT \(--fail-on any; exit 1\)$/m);
    expect(d.stdout).toMatch(/^Outcome: SAME \(--fail-on documented; exit 0\)$/m);
    const junit = parseXml(readFileSync(join(any, 'compare.junit.xml'), 'utf8'));
    expect(findAll(junit, 'failure').length).toBe(readComparison(any).groups.length);
    expect(findAll(parseXml(readFileSync(join(documented, 'compare.junit.xml'), 'utf8')), 'failure')).toHaveLength(0);
  }, 300_000);

  test('a fault: the difference it makes is linked to the documented row it breaks', async () => {
    const dir = reportDir();
    const r = await withSandboxes([{ faults: ['bill-bundle-collection'] }, {}], ([candidate, reference]) =>
      runCli(
        [
          'compare',
          '--target',
          candidate?.url ?? '',
          '--reference',
          reference?.url ?? '',
          '--only',
          'search-bills',
          '--fail-on',
          'documented',
          '--report-dir',
          dir,
          ...SMALL,
        ],
        { timeoutMs: 240_000 },
      ),
    );
    expect(r.code, r.stderr).toBe(1);
    const c = readComparison(dir);
    const type = c.groups.find((g) => g.path === '/type');
    expect(type).toMatchObject({ operation: 'search-bills', kind: 'value-changed' });
    expect(type?.example).toMatchObject({ reference: 'searchset', candidate: 'collection' });
    // D1 4.11: "The response is a Bundle of `type` `searchset` of Claim resources".
    expect(type?.breaks.map((b) => b.requirement)).toContain('D1-4.11-05');
    expect(type?.breaks.find((b) => b.requirement === 'D1-4.11-05')).toMatchObject({ level: 'MUST' });
    expect(type?.example.curl.candidate).toMatch(/^curl .*\n.*\/claims\/claim\/search\?/s);
    expect(type?.example.curl.candidate).toContain('$CONFORMANCE_TOKEN');
    expect(type?.replay).toMatch(
      /^(npx )?conformance compare --target \S+ --reference \S+ --runs 3 --fail-on documented --seed 20261128 --only search-bills$/,
    );
    expect(r.stdout).toMatch(/search-bills \/type value-changed ×\d+: breaks [^\n]*D1-4\.11-05/);
    // The candidate's usual report holds the row's failure the group links to, and the comparison
    // in a section of its own, each group's rule linked to the row in the same page.
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('id="req-D1-4.11-05"');
    expect(html).toContain(`<h2 id="comparison-title">Comparison with ${c.targets[1]?.url}</h2>`);
    expect(html).toContain(`<a href="#comparison-${type?.id}-answers" class="to-pair">`);
    expect(html).toMatch(/breaks [^\n]*<a href="#req-D1-4\.11-05">D1-4\.11-05<\/a>/);
    const results = readResults(dir) as ComparedResults;
    expect(results.comparison?.groups.map((g) => g.id)).toEqual(c.groups.map((g) => g.id));
    // Sealed again with the comparison: the folder verifies intact, and signed, verifies signed.
    const verified = await runInProcess(['verify-report', dir]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^INTACT: /m);
    const keys = join(dir, '..', `${basename(dir)}-keys`);
    expect((await runInProcess(['keys', 'generate', '--out', keys])).code).toBe(0);
    const signed = await runInProcess(['keys', 'sign', dir, '--key', join(keys, 'signing-key.pem'), '--signer', 'Op']);
    expect(signed.code, signed.stderr).toBe(0);
    const checked = await runInProcess(['verify-report', dir, '--key', join(keys, 'jwks.json')]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  }, 300_000);
});

describe('conformance compare: what it refuses', () => {
  test.each([
    [['compare'], /^conformance: compare needs --target URL/],
    [
      ['compare', '--target', 'not a url'],
      /^conformance: --target must be an http or https URL, received "not a url"$/,
    ],
    [
      ['compare', '--target', 'http://127.0.0.1:9', '--reference', 'ftp://x'],
      /^conformance: --reference must be an http or https URL or sandbox, received "ftp:\/\/x"$/,
    ],
    [
      ['compare', '--target', 'http://127.0.0.1:9', '--fail-on', 'new'],
      /^conformance: --fail-on must be any or documented/,
    ],
    [['compare', '--target', 'http://127.0.0.1:9', '--seed', '-1'], /^conformance: --seed must be an integer/],
    [['compare', '--target', 'http://127.0.0.1:9', '--only', 'no-such-operation'], /^conformance: .*no-such-operation/],
    [['compare', '--target', 'http://127.0.0.1:9', '--bogus'], /^conformance: Unknown option '--bogus'/],
  ])('%j: one line, exit 2', async (args, line) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    const [first, second, ...rest] = r.stderr.trimEnd().split('\n');
    expect(first).toMatch(line);
    expect(second).toMatch(/^Usage: .*\bcompare --target CANDIDATE /);
    expect(rest).toEqual([]);
    expect(r.stdout).toBe('');
  });

  test('an unreachable candidate: one line naming it, exit 3, and no comparison written', async () => {
    const dir = reportDir();
    const r = await runCli(
      ['compare', '--target', 'http://127.0.0.1:9', '--only', 'lookup-practitioners', '--report-dir', dir, '--quiet'],
      {
        timeoutMs: 120_000,
      },
    );
    expect(r.code).toBe(3);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^conformance: candidate http:\/\/127\.0\.0\.1:9: Target unreachable: .*connect/i),
    ]);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'compare.json'))).toBe(false);
  }, 150_000);

  test('the help names every option', async () => {
    const r = await runInProcess(['compare', '--help']);
    expect(r.code).toBe(0);
    for (const o of [
      '--target',
      '--reference',
      '--second',
      '--config',
      '--reference-config',
      '--seed',
      '--only',
      '--report-dir',
      '--fail-on',
    ])
      expect(r.stdout).toContain(o);
  });
});
