/**
 * A run page a person watches (issue 33 item 6), in Debian's Chromium over real HTTP: a partner
 * starts a run of three operations against a sandbox that answers each request after a while (so
 * that the run lasts long enough to be watched) and breaks one of Find Member's documented rules;
 * on the run page the progress bar advances and the operations' rows go from waiting to running to
 * done with their counts, all without a reload; when the run ends the verdict, the coverage and
 * the MUST findings (with their requirement rows, linked to the report) appear, still without a
 * reload, and a reload shows the same. Without JavaScript the page shows the plain progress line
 * and a link to reload. The product's page then has a history chart with axes and a legend.
 *
 * Every wait is on the page's own changes (the event stream's updates), never a fixed sleep; the
 * service, the sandbox and the browser are ended when the file ends, passed or failed.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, type Person } from '../service/testSupport/browserless.ts';
import { CHROMIUM, launchChromium } from './support/chromium.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
/** Three suites, one operation each; the fault breaks one of Find Member's rules (a MUST failure). */
const OPERATIONS = ['find-member-v2', 'get-code-set', 'list-insurers'];
const FAULT = 'no-match-status-200';
/** Each answer of the sandbox waits this long: the run takes seconds, its progress written many times. */
const LATENCY_MS = 25;
const RUN_TIMEOUT_MS = 150_000;

let service: RunningService;
let sandbox: RunningSandbox;
let browser: Browser;
let dataDir: string;
let partner: Person;
let productPath = '';
let runPath = '';
const contexts: BrowserContext[] = [];
const problems: string[] = [];

/**
 * Notes, in the page itself, every change the event stream makes to the progress bar and the
 * operations' rows; a reload would lose the page's `loadedAt` (the test compares it).
 */
const WATCH = `addEventListener('DOMContentLoaded', () => {
  window.loadedAt = performance.timeOrigin;
  window.watched = { bar: [], rows: [] };
  const bar = document.getElementById('progress-bar');
  const table = document.getElementById('operations');
  if (!bar || !table) return;
  const note = () => {
    const value = bar.getAttribute('value');
    const last = window.watched.bar.at(-1);
    if (value !== null && (!last || last.value !== value || last.max !== bar.getAttribute('max')))
      window.watched.bar.push({ value, max: bar.getAttribute('max') });
    for (const tr of table.querySelectorAll('tr[data-operation]')) {
      const seen = { id: tr.dataset.operation, state: tr.dataset.state, pass: tr.querySelector('.count-pass')?.textContent };
      const before = window.watched.rows.findLast((r) => r.id === seen.id);
      if (!before || before.state !== seen.state || before.pass !== seen.pass) window.watched.rows.push(seen);
    }
  };
  note();
  new MutationObserver(note).observe(document.getElementById('run-progress-detail'), {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
});`;

async function newPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // The partner signed in over HTTP (service/testSupport/browserless.ts): the browser holds the same session.
  await context.addCookies([...partner.cookies].map(([name, value]) => ({ name, value, url: service.url! })));
  await context.addInitScript(WATCH);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${String(e)}`));
  page.on('console', (m) => {
    // The service has no favicon (Chromium asks for one): any other failure is a problem.
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico'))
      problems.push(`${page.url()}: ${m.text()} (${m.location().url})`);
  });
  return page;
}

interface Watched {
  bar: { value: string; max: string }[];
  rows: { id: string; state: string; pass: string }[];
}

const watched = (page: Page): Promise<Watched> =>
  page.evaluate(() => (window as unknown as { watched: Watched }).watched);
const loadedAt = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { loadedAt: number }).loadedAt);

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), as the preflight of npm test (scripts/preflight.mjs) does`,
    );
  dataDir = mkdtempSync(join(tmpdir(), 'service-run-page-'));
  service = await startService({
    dataDir,
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'd5'.repeat(32),
    },
    allowRanges: ['loopback'],
  });
  sandbox = await startSandbox({ port: 0, faults: [FAULT], latencyMs: LATENCY_MS });
  browser = await launchChromium();
  partner = await newPartner(service.url!, OPERATOR, 'Watchful');
  const product = await partner.post('/products', {
    name: 'Watchful server',
    version: '1.0',
    baseUrl: sandbox.url,
    only: OPERATIONS.join(','),
  });
  expect(product.status).toBe(303);
  productPath = product.location!;
}, 90_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await service?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('the run page in Chromium', () => {
  test(
    'the progress bar advances and the operations fill in live; the verdict and findings appear without a reload',
    async () => {
      const page = await newPage();
      await page.goto(`${service.url}${productPath}`);
      await page.getByRole('button', { name: 'Start a run' }).click();
      await page.waitForURL(/\/runs\/[^/]+$/);
      runPath = new URL(page.url()).pathname;
      const firstLoad = await loadedAt(page);
      // The worker names the operations: a row each, waiting or already running.
      await page.waitForFunction(
        (n) => document.querySelectorAll('#operations tr[data-operation]').length === n,
        OPERATIONS.length,
        { timeout: 60_000 },
      );
      expect(await page.locator('#operations').isVisible()).toBe(true);
      expect(await page.locator('#operations tr[data-operation] code').allInnerTexts()).toEqual(
        expect.arrayContaining(OPERATIONS),
      );
      // Without JavaScript: the same page, its plain progress line and a link to reload it.
      const plain = await newPage({ javaScriptEnabled: false });
      await plain.goto(`${service.url}${runPath}`);
      expect(await plain.locator('#progress').innerText()).toMatch(/^\d+ of 3 suites done|^waiting for a worker$/);
      expect(await plain.locator(`noscript a[href="${runPath}"]`).count()).toBe(1);
      expect(await plain.getByRole('link', { name: 'reload it' }).isVisible()).toBe(true);
      // Some operation is judged while another still waits or runs: the bar has moved, not finished.
      await page.waitForFunction(
        () => {
          const bar = document.getElementById('progress-bar') as HTMLProgressElement | null;
          return bar !== null && bar.value >= 1 && bar.value < bar.max;
        },
        undefined,
        { timeout: RUN_TIMEOUT_MS },
      );
      // Then the run ends: the page swaps in its outcome, no reload.
      await page.locator('body[data-run-ended="yes"]').waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(await loadedAt(page)).toBe(firstLoad);
      const seen = await watched(page);
      // The bar went up step by step to all three.
      const values = seen.bar.map((b) => Number(b.value));
      expect(values, JSON.stringify(seen.bar)).toEqual([...values].sort((a, b) => a - b));
      expect(values.some((v) => v >= 1 && v < 3)).toBe(true);
      expect(seen.bar.at(-1)).toEqual({ value: '3', max: '3' });
      // Each operation's row was seen running, then done; counts grew along the way.
      for (const id of OPERATIONS) {
        const states = seen.rows.filter((r) => r.id === id).map((r) => r.state);
        expect(states, `${id}: ${JSON.stringify(seen.rows)}`).toContain('done');
        expect(states.indexOf('done')).toBeGreaterThan(states.indexOf('running'));
        expect(states.lastIndexOf('waiting')).toBeLessThan(states.indexOf('done'));
      }
      expect(seen.rows.some((r) => r.state === 'running' && Number(r.pass) > 0)).toBe(true);
      // The outcome: state, verdict, coverage, the report's link, the MUST findings with their rows.
      expect(await page.locator('#state').innerText()).toBe('finished');
      expect(await page.locator('#verdict').innerText()).toBe('not-conformant');
      expect(await page.locator('#coverage').innerText()).toMatch(/Coverage: \d+% \(\d+\/\d+\)/);
      expect(await page.locator('#report').getAttribute('href')).toBe(`${runPath}/report`);
      expect(await page.locator('#no-certificate').innerText()).toMatch(/^No certificate: /);
      const findings = page.locator('#must-findings li.finding');
      expect(await findings.count()).toBeGreaterThan(0);
      const first = findings.first();
      expect(await first.innerText()).toMatch(/^MUST failure \S+ on find-member-v2 /);
      const rowLink = first.locator('.row-id a').first();
      const rowId = (await rowLink.innerText()).trim();
      expect(rowId).toMatch(/^D1-[\d.]+-\d+$/);
      expect(await rowLink.getAttribute('href')).toBe(`${runPath}/report#req-${rowId}`);
      // The operations table now holds the results: Find Member not conformant, every row done.
      expect(await page.locator('#operations tr[data-operation="find-member-v2"] .op-verdict').innerText()).toBe(
        'not-conformant',
      );
      expect(await page.locator('#operations tr[data-operation][data-state="done"]').count()).toBe(OPERATIONS.length);
      expect(await page.locator('#cancel').count()).toBe(0);
      // The row's link opens the report at that requirement's row.
      await rowLink.click();
      await page.waitForURL((u) => u.pathname === `${runPath}/report` && u.hash === `#req-${rowId}`);
      expect(await page.locator(`[id="req-${rowId}"]`).count()).toBe(1);
      // A reload shows the same outcome.
      await page.goto(`${service.url}${runPath}`);
      expect(await page.locator('#verdict').innerText()).toBe('not-conformant');
      expect(await page.locator('#must-findings li.finding').count()).toBe(await findings.count());
      expect(await page.locator('#progress-bar').getAttribute('value')).toBe('3');
      // Programs read the same progress from the run's JSON.
      const json = JSON.parse((await partner.get(`${runPath}.json`)).text) as {
        state: string;
        progress: { done: number; total: number; operations: { id: string; state: string; pass?: number }[] };
      };
      expect(json.state).toBe('finished');
      expect(json.progress).toMatchObject({ done: 3, total: 3 });
      expect(json.progress.operations.map((o) => o.id).sort()).toEqual([...OPERATIONS].sort());
      expect(json.progress.operations.every((o) => o.state === 'done' && (o.pass ?? 0) > 0)).toBe(true);
      expect(problems).toEqual([]);
    },
    RUN_TIMEOUT_MS + 60_000,
  );

  test('the product’s history chart has axes, a legend in words, and a title per point', async () => {
    expect(runPath, 'the run of the test before').not.toBe('');
    const page = await newPage();
    await page.goto(`${service.url}${productPath}`);
    const chart = page.locator('#history-chart');
    expect(await chart.isVisible()).toBe(true);
    expect(await chart.locator('.y-axis text').allTextContents()).toEqual([
      '0%',
      '25%',
      '50%',
      '75%',
      '100%',
      'MUST coverage',
    ]);
    const xAxis = await chart.locator('.x-axis text').allTextContents();
    expect(xAxis[0]).toBe('#1');
    expect(xAxis[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(xAxis.at(-1)).toBe('Runs, oldest first');
    expect(await chart.locator('.legend text').allTextContents()).toEqual([
      'conformant (green)',
      'not conformant (red)',
      'inconclusive (amber)',
    ]);
    expect(await chart.locator('circle').count()).toBe(1);
    expect(await chart.locator('circle').getAttribute('fill')).toBe('#a00');
    expect(await chart.locator('circle title').textContent()).toMatch(/^Run 1 of 1, .*: not-conformant, coverage \d+%/);
    // What a screen reader is given: the chart's title and its description.
    const label = await chart.evaluate((svg) =>
      (svg.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' '),
    );
    expect(label).toMatch(
      /^Verdict and MUST coverage of each finished run, oldest first 1 finished run on \S+: 1 not conformant\./,
    );
    // The point sits inside the plot, between the axes.
    const box = await chart.boundingBox();
    const point = await chart.locator('circle').boundingBox();
    expect(point!.x).toBeGreaterThan(box!.x);
    expect(point!.y + point!.height).toBeLessThan(box!.y + box!.height);
    expect(problems).toEqual([]);
  });
});
