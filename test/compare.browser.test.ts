/**
 * compare.html in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), scripts disabled (the page has none and needs none). A sandbox with a fault is compared
 * with a clean one; the page is opened from disk and used as a reviewer would: the outcome, the
 * table of differences, one difference followed to its pair of answers side by side (the member
 * that differs marked in each), then to the documented row it breaks in the candidate's report;
 * and the candidate's report.html, whose section "Comparison with ..." leads from the contents to
 * a difference and from it to the same pair of answers, unfolded without a script.
 * Every request the page makes is recorded: only the files of the report folder may be loaded.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { CHROMIUM, launchChromium } from './support/chromium.ts';
import { reportDir, ROOT, runCli } from './support/cli.ts';

const OUTPUT = join(ROOT, 'test-output');

let browser: Browser | undefined;
let page: Page;
let dir: string;
let compareUrl: string;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), as the preflight of npm test (scripts/preflight.mjs) does`,
    );
  }
  const candidate = await startSandbox({ host: '127.0.0.1', port: 0, faults: ['bill-bundle-collection'] });
  const reference = await startSandbox({ host: '127.0.0.1', port: 0 });
  dir = reportDir();
  try {
    const r = await runCli(
      [
        'compare',
        '--target',
        candidate.url,
        '--reference',
        reference.url,
        '--only',
        'search-bills',
        '--seed',
        '20261128',
        '--runs',
        '3',
        '--report-dir',
        dir,
      ],
      { timeoutMs: 240_000 },
    );
    expect(r.code, r.stderr).toBe(1);
  } finally {
    await Promise.all([candidate.close(), reference.close()]);
  }
  compareUrl = pathToFileURL(join(dir, 'compare.html')).href;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(compareUrl);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

/** Whether the element's top is within the window (the page scrolled to it). */
const inView = (selector: string): Promise<boolean> =>
  page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight;
  });

describe('compare.html in Chromium, without scripts', () => {
  test('says the outcome and lists the differences, loading nothing but itself', async () => {
    expect(await page.title()).toMatch(/^Comparison: DIFFERENT · http:\/\/127\.0\.0\.1:\d+ · /);
    expect(await page.locator('h1').innerText()).toBe('DIFFERENT');
    expect(await page.locator('script').count()).toBe(0);
    const rows = page.locator('#differences-table > tbody > tr');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await page.locator('#differences-table').innerText()).toMatch(/search-bills\s+\/type\s+value changed/);
    expect(requests).toEqual([compareUrl]);
    expect(problems).toEqual([]);
  });

  test('follows a difference to its pair of answers, side by side, the member that differs marked in each', async () => {
    const row = page.locator('#differences-table > tbody > tr', { hasText: '/type' });
    const link = row.locator('a.to-pair');
    const target = (await link.getAttribute('href')) ?? '';
    expect(target).toMatch(/^#d\d+$/);
    await link.click();
    expect(await page.evaluate(() => location.hash)).toBe(target);
    const article = page.locator(`article${target}`);
    expect(await article.isVisible()).toBe(true);
    expect(await inView(`article${target}`)).toBe(true);
    const [reference, candidate] = [article.locator('.answer-reference'), article.locator('.answer-candidate')];
    // Side by side: the candidate's answer to the right of the reference's, at the same height.
    const [r, c] = [await reference.boundingBox(), await candidate.boundingBox()];
    expect(r && c && c.x > r.x + r.width - 1 && Math.abs(c.y - r.y) < 2).toBe(true);
    expect(await reference.locator('mark').first().innerText()).toBe('"type": "searchset"');
    expect(await candidate.locator('mark').first().innerText()).toBe('"type": "collection"');
    expect(await reference.locator('code').first().innerText()).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/claims\/claim\/search\?/,
    );
    // The request as curl, the token an environment variable.
    const curl = candidate.locator('details', { hasText: 'The request as curl' });
    await curl.locator('summary').click();
    expect(await curl.locator('pre').innerText()).toContain('$CONFORMANCE_TOKEN');
    expect(await article.innerText()).toMatch(/breaks [^\n]*D1-4\.11-05/);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'compare-pair.png') });
  });

  test("the rule a difference breaks leads to its row in the candidate's report", async () => {
    const article = page.locator('article.difference.breaks', { hasText: '/type' });
    await article.locator('.rule-breaks a', { hasText: 'D1-4.11-05' }).click();
    await page.waitForURL(/report\.html#req-D1-4\.11-05$/);
    expect(await page.locator('[id="req-D1-4.11-05"]').count()).toBe(1);
    // Only files of the report folder were loaded.
    const folder = pathToFileURL(dir).href;
    expect(requests.every((u) => u.startsWith(folder))).toBe(true);
    await page.goBack();
    await page.locator('article.difference.breaks a', { hasText: 'Back to the differences' }).first().click();
    expect(await page.evaluate(() => location.hash)).toBe('#differences');
  });
});

describe("report.html's comparison section in Chromium, without scripts", () => {
  test('is found from the contents, and follows a difference to its pair of answers side by side, the member marked', async () => {
    const reportUrl = pathToFileURL(join(dir, 'report.html')).href;
    await page.goto(reportUrl);
    await page.locator('nav a[href="#comparison"]').click();
    expect(await page.evaluate(() => location.hash)).toBe('#comparison');
    const section = page.locator('section#comparison');
    expect(await section.locator('h2').innerText()).toMatch(/^Comparison with http:\/\/127\.0\.0\.1:\d+$/);
    expect(await section.innerText()).toMatch(/DIFFERENT under --fail-on any \(exit 1\)/);
    const row = section.locator('#comparison-table > tbody > tr', { hasText: '/type' });
    expect(await row.innerText()).toMatch(/search-bills\s+\/type\s+value changed\s+\d+\s+breaks [^\n]*D1-4\.11-05/);
    // The pair is folded in a <details>: following the link to it unfolds it (no script involved).
    const link = row.locator('a.to-pair');
    const target = (await link.getAttribute('href')) ?? '';
    expect(target).toMatch(/^#comparison-d\d+-answers$/);
    const pair = page.locator(target);
    expect(await pair.isVisible()).toBe(false);
    await link.click();
    expect(await page.evaluate(() => location.hash)).toBe(target);
    await pair.waitFor({ state: 'visible' });
    expect(await inView(target)).toBe(true);
    const [reference, candidate] = [pair.locator('.answer-reference'), pair.locator('.answer-candidate')];
    const [r, c] = [await reference.boundingBox(), await candidate.boundingBox()];
    expect(r && c && c.x > r.x + r.width - 1 && Math.abs(c.y - r.y) < 2).toBe(true);
    expect(await reference.locator('mark').first().innerText()).toBe('"type": "searchset"');
    expect(await candidate.locator('mark').first().innerText()).toBe('"type": "collection"');
    const answers = await pair.innerHTML();
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'compare-report-section.png') });
    // The rule leads to its row in the same page.
    await page
      .locator(`${target.replace(/-answers$/, '')} .rule-breaks a`, { hasText: 'D1-4.11-05' })
      .first()
      .click();
    expect(await page.evaluate(() => location.hash)).toBe('#req-D1-4.11-05');
    // The same masked answers as compare.html shows for the group, rendered alike.
    const group = /^#comparison-(d\d+)-answers$/.exec(target)?.[1];
    await page.goto(`${compareUrl}#${group}`);
    expect(await page.locator(`article#${group} .side-by-side`).innerHTML()).toBe(answers);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`id="comparison-${group}"`);
    // Only the folder's files were loaded.
    const folder = pathToFileURL(dir).href;
    expect(requests.every((u) => u.startsWith(folder))).toBe(true);
    expect(problems).toEqual([]);
  });
});
