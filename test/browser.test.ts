/**
 * The report in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
 * browser). A failing run against the sandbox writes report.html; the page is opened from disk and
 * used as a reviewer would: verdict, filters, keyboard, evidence with its curl command, print.
 * Every request the page makes is recorded: only the report file itself may be loaded.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { CHROMIUM, launchChromium } from './support/chromium.ts';
import { readResults, reportDir, ROOT, runCli } from './support/cli.ts';

const OUTPUT = join(ROOT, 'test-output');

let browser: Browser;
let page: Page;
let reportUrl: string;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), as the preflight of npm test (scripts/preflight.mjs) does`,
    );
  }
  const sandbox = await startSandbox({ faults: ['no-match-status-200', 'bill-bundle-collection'] });
  const dir = reportDir();
  try {
    const { code } = await runCli(
      [
        'run',
        '--target',
        sandbox.url,
        '--only',
        'find-member-v2,search-bills',
        '--report-dir',
        dir,
        '--seed',
        '20261122',
        '--runs',
        '5',
      ],
      { timeoutMs: 180_000 },
    );
    expect(code).toBe(1);
  } finally {
    await sandbox.close();
  }
  expect(readResults(dir).verdict).toBe('not-conformant');
  reportUrl = pathToFileURL(join(dir, 'report.html')).href;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(reportUrl);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

const visible = (selector: string): Promise<number> =>
  page
    .locator(selector)
    .evaluateAll(
      (els) => els.filter((el) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0).length,
    );

describe('report.html in Chromium', () => {
  test('lists the coverage phase per operation: counts, and the values and boundaries exercised', async () => {
    await page.locator('nav a[href="#coverage-phase"]').click();
    const rows = page.locator('#coverage-phase-table > tbody > tr');
    expect((await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-operation')))).sort()).toEqual([
      'find-member-v2',
      'search-bills',
    ]);
    const row = page.locator('#coverage-phase-table > tbody > tr[data-operation="search-bills"]');
    const sent = Number(await row.locator('[data-count="sent"]').innerText());
    expect(sent).toBeGreaterThan(3);
    const details = row.locator('details');
    await details.locator('summary').click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const entries = details.locator('tr[data-outcome]');
    expect(await visible('#coverage-phase-table tr[data-operation="search-bills"] tr[data-outcome]')).toBe(
      await entries.count(),
    );
    const labels = await entries.locator('td:first-child').allInnerTexts();
    // The documented insurer of the search and the negative cases of its required parameter.
    expect(labels.some((l) => /^insurerid=/.test(l))).toBe(true);
    expect(labels.some((l) => /^invalid: required insurerid is missing/.test(l))).toBe(true);
    expect(await details.locator('tbody[data-aspect]').count()).toBeGreaterThan(1);
  });

  test('shows the verdict in large type, with the run facts', async () => {
    const verdict = page.locator('#verdict');
    await expect.poll(() => verdict.getAttribute('data-verdict')).toBe('not-conformant');
    expect(await verdict.innerText()).toBe('Not conformant');
    const size = await verdict.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(32);
    expect(await page.locator('#integrity').getAttribute('data-integrity')).toBe('intact');
    expect(await page.locator('[data-fact="seed"]').innerText()).toBe('20261122');
  });

  test('filters to failures with the status boxes', async () => {
    const findings = page.locator('article.finding');
    const total = await findings.count();
    expect(total).toBeGreaterThan(0);
    for (const status of ['pass', 'warn', 'skip', 'omit', 'error', 'not-tested', 'not-run']) {
      await page.locator(`#filters input[name="status"][value="${status}"]`).uncheck();
    }
    const shownStatuses = await page
      .locator('[data-filterable]:not([hidden])')
      .evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute('data-status')))]);
    expect(shownStatuses).toEqual(['fail']);
    expect(await visible('article.finding')).toBeGreaterThan(0);
    expect(await page.locator('#filter-count').innerText()).toMatch(
      /^Showing \d+ of \d+ failures, warnings and errors; \d+ of \d+ results; \d+ of \d+ requirements\.$/,
    );
  });

  test('narrows by operation and by search typed after the / shortcut, and Escape clears the search', async () => {
    await page.locator('#filter-operation').selectOption('search-bills');
    const ops = await page
      .locator('article.finding:not([hidden])')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-operation')));
    expect(ops.length).toBeGreaterThan(0);
    expect(new Set(ops)).toEqual(new Set(['search-bills']));
    await page.locator('#filter-operation').selectOption('');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter-text');
    await page.keyboard.type('error-status-and-code');
    const checks = await page.locator('article.finding:not([hidden]) .check-id').allInnerTexts();
    expect(checks.length).toBeGreaterThan(0);
    expect(new Set(checks)).toEqual(new Set(['error-status-and-code']));
    await page.keyboard.press('Escape');
    expect(await page.locator('#filter-text').inputValue()).toBe('');
  });

  test('opens the findings by cause, expands one and follows it to one of its results (issue 24)', async () => {
    const causes = page.locator('#causes li.cause');
    expect(await causes.count()).toBeGreaterThan(0);
    // The findings are the first section after the verdict, MUST failures first.
    const order = await page.locator('main > section').evaluateAll((els) => els.map((el) => el.id));
    expect(order[0]).toBe('causes');
    const first = causes.first();
    expect([await first.getAttribute('data-level'), await first.getAttribute('data-status')]).toEqual(['MUST', 'fail']);
    const details = first.locator('details.cause-details');
    expect(await first.locator('.cause-change').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await first.locator('.cause-change').innerText()).toMatch(/^What to change: Change \S/);
    const link = first.locator('ul.cause-results a').first();
    const target = (await link.getAttribute('href')) ?? '';
    expect(target).toMatch(/^#result-\d+$/);
    await link.click();
    expect(await page.evaluate(() => location.hash)).toBe(target);
    expect(await page.locator(`article${target}`).isVisible()).toBe(true);
  });

  test('expands a failure and reads its curl command, with the token replaced', async () => {
    const first = page.locator('article.finding[data-status="fail"]').first();
    const details = first.locator('details.evidence');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await details.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const curl = await first.locator('pre.curl').innerText();
    expect(curl).toMatch(/^curl /);
    expect(curl).toContain('$CONFORMANCE_TOKEN');
    expect(curl).not.toMatch(/Bearer (?!\$CONFORMANCE_TOKEN)[A-Za-z0-9._-]{8,}/);
    expect(await first.locator('.exchange-facts').innerText()).toMatch(/Duration\s+[\d.]+ ms/);
    mkdirSync(OUTPUT, { recursive: true });
    await first.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, 'report-failure-expanded.png') });
  });

  test('is usable from the keyboard: the first Tab reaches the skip link', async () => {
    await page.locator('#filter-reset').click();
    await page.goto(reportUrl);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => location.hash)).toBe('#findings');
  });

  test('prints without the controls and with the evidence opened', async () => {
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#filters').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    expect(await page.locator('nav').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    await page.emulateMedia({ media: 'screen' });
    // The browser fires beforeprint/afterprint around printing; the page opens every evidence block for it.
    const openDuring = await page.evaluate(() => {
      window.dispatchEvent(new Event('beforeprint'));
      const all = [...document.querySelectorAll('details')].every((d) => d.open);
      window.dispatchEvent(new Event('afterprint'));
      return all;
    });
    expect(openDuring).toBe(true);
    expect(await page.locator('details[open]').count()).toBeLessThan(await page.locator('details').count());
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    mkdirSync(OUTPUT, { recursive: true });
    await page.pdf({ path: join(OUTPUT, 'report-failing.pdf'), format: 'A4' });
  });

  test('saves a screenshot of the page', async () => {
    await page.goto(reportUrl);
    mkdirSync(OUTPUT, { recursive: true });
    const file = join(OUTPUT, 'report-failing.png');
    await page.screenshot({ path: file, fullPage: false });
    expect(existsSync(file)).toBe(true);
  });

  test('loaded nothing but the report itself, and raised no error', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests)).toEqual(new Set([reportUrl]));
    expect(problems).toEqual([]);
  });
});
