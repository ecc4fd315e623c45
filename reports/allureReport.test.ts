import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AllureReportError, buildAllureReport, withoutAnalytics } from './allureReport.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'allure-report-test-'));

/** One passed test, as allure-vitest writes it. */
function writeResult(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, '3f1c2b9e-0000-4000-8000-000000000001-result.json'),
    JSON.stringify({
      uuid: '3f1c2b9e-0000-4000-8000-000000000001',
      name: 'step 1: a single match returns a Coverage',
      fullName: 'suites/find-member.suite.ts#find-member-v2 step 1',
      historyId: 'h1',
      status: 'passed',
      stage: 'finished',
      steps: [],
      attachments: [],
      parameters: [],
      links: [],
      labels: [
        { name: 'operation', value: 'find-member-v2' },
        { name: 'severity', value: 'critical' },
      ],
      start: 1,
      stop: 2,
    }),
  );
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('Expected a failure, received success');
}

describe('buildAllureReport', () => {
  test('refuses a missing results folder with a one-line message', async () => {
    const dir = join(tmp(), 'allure-results');
    const e = await failure(buildAllureReport(dir, join(tmp(), 'out')));
    expect(e).toBeInstanceOf(AllureReportError);
    expect(e.message).toBe(`Expected an allure-results folder at ${dir}, received nothing there`);
    expect(e.stack).not.toMatch(/\n/);
  });

  test('refuses a folder without results', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'environment.properties'), 'seed=1\n');
    const e = await failure(buildAllureReport(dir, join(tmp(), 'out')));
    expect(e.message).toBe(`Expected Allure results (*-result.json) in ${dir}, received an empty folder`);
    expect(e.stack).not.toMatch(/\n/);
  });

  test('builds one index.html that loads nothing from the network', async () => {
    const results = join(tmp(), 'allure-results');
    writeResult(results);
    const out = join(tmp(), 'nested', 'allure-report');
    const { index } = await buildAllureReport(results, out);
    expect(index).toBe(join(out, 'index.html'));
    expect(existsSync(index)).toBe(true);
    const html = readFileSync(index, 'utf8');
    expect(html).toMatch(/<html/);
    expect(html).not.toMatch(/googletagmanager|gtag\(/);
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  }, 30_000);
});

describe('withoutAnalytics', () => {
  const page = (analytics: string) => `<body><div id="app"></div>${analytics}<script>window.data = 1</script></body>`;
  const gtag = `<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>
    <script>
        window.dataLayer = window.dataLayer || [];
        function gtag(){dataLayer.push(arguments);}
        gtag('config', 'G-X', {});
    </script>`;

  test('removes the analytics loader and its configuration, and nothing else', () => {
    expect(withoutAnalytics(page(gtag))).toBe(page(''));
  });

  test('leaves a page without analytics as it is', () => {
    expect(withoutAnalytics(page(''))).toBe(page(''));
  });
});
