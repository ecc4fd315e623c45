/**
 * `conformance report` and `conformance verify-report` as a user runs them: real command, real files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { suiteVersion } from '../core/suiteVersion.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { writeReports } from '../reports/writeReports.ts';
import { reportDir, runCli } from './support/cli.ts';

let dir: string;
beforeEach(async () => {
  dir = reportDir();
  await writeReports({ ...loadFixture('failing'), suite: suiteVersion() }, dir);
});

describe('conformance verify-report', () => {
  test('says INTACT and exits 0 for a folder as the run wrote it', async () => {
    const { code, stdout, stderr } = await runCli(['verify-report', dir]);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^results\.json: intact \(SHA-256 [0-9a-f]{64}\)$/m);
    expect(stdout).toContain('report.html: matches results.json');
    expect(stdout.trim().split('\n').at(-1)).toBe(`INTACT: ${dir} is as the run wrote it`);
    expect(code).toBe(0);
  });

  test('names the altered file and exits 1', async () => {
    const junit = join(dir, 'junit.xml');
    writeFileSync(junit, readFileSync(junit, 'utf8').replace(/<failure /, '<skipped '));
    const { code, stdout } = await runCli(['verify-report', dir]);
    expect(stdout).toContain('junit.xml: ALTERED (differs from what results.json gives)');
    expect(stdout).toContain(`ALTERED: ${dir} was changed after the run`);
    expect(code).toBe(1);
  });

  test('finds an edited results.json by its digest', async () => {
    const json = join(dir, 'results.json');
    writeFileSync(json, readFileSync(json, 'utf8').replace('"verdict": "not-conformant"', '"verdict": "conformant"'));
    const { code, stdout } = await runCli(['verify-report', dir]);
    expect(stdout).toMatch(/^results\.json: ALTERED \(states SHA-256 [0-9a-f]{64}, content has [0-9a-f]{64}\)$/m);
    expect(code).toBe(1);
  });

  test('gives a one-line reason and exits 2 for a folder without results', async () => {
    const { code, stderr } = await runCli(['verify-report', join(dir, 'nothing-here')]);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^conformance: Cannot read results file .*results\.json: ENOENT/);
    expect(code).toBe(2);
  });
});

describe('conformance report', () => {
  test('rebuilds the derived files offline into another folder', async () => {
    const out = join(dir, 'rebuilt');
    const { code, stdout } = await runCli(['report', join(dir, 'results.json'), '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Report: ${join(out, 'report.html')}`);
    for (const f of ['results.json', 'report.html', 'junit.xml', 'requirements-coverage.csv'])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect((await runCli(['verify-report', out])).code).toBe(0);
  });

  test('rebuilds an altered results.json but says so and exits 1; the page shows it too', async () => {
    const json = join(dir, 'results.json');
    writeFileSync(
      json,
      readFileSync(json, 'utf8').replace(
        '"target": "https://staging.example.test/api"',
        '"target": "https://other.example.test"',
      ),
    );
    const { code, stderr } = await runCli(['report', json]);
    expect(stderr).toMatch(
      /was altered after the run \(its digest does not match its content\); the rebuilt report says so/,
    );
    expect(code).toBe(1);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-integrity="altered"');
  });

  test('--allure without Allure results gives a one-line reason and exits 2', async () => {
    const { code, stderr } = await runCli(['report', join(dir, 'results.json'), '--allure']);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^conformance: Expected an allure-results folder at .*allure-results, received nothing there\n$/,
    );
    expect(code).toBe(2);
  });

  test('refuses a file that is not a results file with exit 2', async () => {
    const bogus = join(dir, 'package.json');
    writeFileSync(bogus, '{"name":"x","version":"1"}');
    const { code, stderr } = await runCli(['report', bogus]);
    expect(stderr).toMatch(
      /^conformance: .*package\.json is not a results file: expected "suite" with a name and a version\n$/,
    );
    expect(code).toBe(2);
  });
});
