// Regenerates the README's screenshots of a report in Debian's Chromium:
//   node docs/screenshots.mjs REPORT_DIR
// (REPORT_DIR from a failing run, e.g. `npx conformance start --fault no-match-status-200 --report-dir /tmp/r`).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node docs/screenshots.mjs REPORT_DIR');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CONFORMANCE_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
await page.goto(pathToFileURL(join(dir, 'report.html')).href);
const out = new URL('.', import.meta.url).pathname;
await page.screenshot({ path: join(out, 'report-header.png') });
await page.locator('#summary').scrollIntoViewIfNeeded();
await page.screenshot({
  path: join(out, 'report-summary.png'),
  clip: {
    x: 0,
    y: await page.evaluate(() => document.getElementById('summary').getBoundingClientRect().top + window.scrollY),
    width: 1280,
    height: 1000,
  },
});
for (const s of ['pass', 'warn', 'skip', 'omit', 'error', 'not-tested', 'not-run'])
  await page.locator(`#filters input[value="${s}"]`).uncheck();
const finding = page.locator('article.finding[data-status="fail"]').nth(1);
await finding.locator('details.evidence > summary').click();
const top = await page.evaluate(() => document.getElementById('filters').getBoundingClientRect().top + window.scrollY);
await page.screenshot({
  path: join(out, 'report-failure.png'),
  clip: { x: 0, y: top, width: 1280, height: 1400 },
  fullPage: true,
});
await page.locator('#traceability').scrollIntoViewIfNeeded();
const traceTop = await page.evaluate(
  () => document.getElementById('traceability').getBoundingClientRect().top + window.scrollY,
);
await page.locator('#filters input[value="pass"]').check();
await page.screenshot({
  path: join(out, 'report-traceability.png'),
  clip: { x: 0, y: traceTop, width: 1280, height: 900 },
  fullPage: true,
});
await browser.close();
