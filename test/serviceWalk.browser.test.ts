/**
 * The certification service walked in a real browser (issue 25, "Done when"): Debian's Chromium
 * driven by playwright-core, as the report's browser test does. The operator signs in through the
 * first operator's one-time invite, creates an organisation and invites a partner; the partner
 * sets a password, signs in, registers a product against a sandbox, starts a run, sees its
 * progress change live, opens the report and gets a certificate; the partner's server then breaks
 * a documented rule (the sandbox restarts on the same address with a fault: a product's address
 * cannot be edited, and the history compares runs of one product), the next run is not conformant
 * and the history says what changed since the previous run. A partner of another organisation is
 * answered 404 on every address of the first partner's, and the operator revokes the certificate.
 * The product is registered with its target's changes not allowed (the form's checkbox left
 * unticked): its certificate names Find Member certified and the acknowledgement of a batch left
 * out, with why; the partner then allows changes on the product's page, and against a server that
 * keeps acknowledged batches the run is not conformant (issue 32).
 *
 * The steps share one service and run in order; a failing step leaves screenshots of every open
 * page in a temporary folder (its path printed). The time of each step is printed at the end.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { ROUTES } from '../service/routes/index.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { CHROMIUM, launchChromium } from './support/chromium.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const PARTNER = { email: 'partner@acme.test', password: 'partner-password-1' };
const STRANGER = { email: 'someone@globex.test', password: 'stranger-password-1' };
/**
 * Two operations keep each run to seconds: Find Member, judged on every testable MUST row in scope
 * against the clean sandbox (conformant, so a certificate can be earned), and the acknowledgement
 * of a batch, whose steps change data (omitted: the product does not allow changes, so it is left
 * out of the certificate); the fault breaks one of Find Member's documented rules (a search
 * matching no one answered 200).
 */
const CERTIFIED = 'find-member-v2';
const LEFT_OUT = 'ack-remittance';
const ONLY = `${CERTIFIED},${LEFT_OUT}`;
const FAULT = 'no-match-status-200';
const RUN_TIMEOUT_MS = 90_000;

let service: RunningService;
let sandbox: RunningSandbox;
let sandboxPort: number;
let browser: Browser;
let dataDir: string;
const contexts: BrowserContext[] = [];
const problems: string[] = [];
const timings: [string, number][] = [];
const started = Date.now();

/** What the walk learns on its way, for the steps after. */
const walk = {
  operator: undefined as Page | undefined,
  partner: undefined as Page | undefined,
  stranger: undefined as Page | undefined,
  anonymous: undefined as Page | undefined,
  certificatePath: '',
  organisationPath: '',
  partnerInvite: '',
  productPath: '',
  firstRunPath: '',
  secondRunPath: '',
  firstVerdict: '',
};

/**
 * Records, in the tab's sessionStorage (it survives the reload at the end of a run), what the run
 * page showed when loaded and every change made to it afterwards without a reload.
 */
const WATCH_RUN_PAGE = `addEventListener('DOMContentLoaded', () => {
  const state = document.getElementById('state');
  const progress = document.getElementById('progress');
  if (!state || !progress) return;
  const key = 'walk-live:' + location.pathname;
  const log = JSON.parse(sessionStorage.getItem(key) || '[]');
  const note = (kind) => {
    log.push({ kind, state: state.textContent, progress: progress.textContent });
    sessionStorage.setItem(key, JSON.stringify(log));
  };
  note('load');
  const observer = new MutationObserver(() => note('live'));
  for (const el of [state, progress]) observer.observe(el, { childList: true, characterData: true, subtree: true });
});`;

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(WATCH_RUN_PAGE);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${String(e)}`));
  page.on('console', (m) => {
    // The walk asks for a used invite (410) and for others' addresses (404) on purpose.
    if (m.type() === 'error' && !/responded with a status of (404|410)\b/.test(m.text()))
      problems.push(`${page.url()}: ${m.text()}`);
  });
  return page;
}

/** A step of the walk: timed, and on failure every open page is saved as a screenshot. */
function step(name: string, body: () => Promise<void>, timeoutMs = 60_000): void {
  test(
    name,
    async () => {
      onTestFailed(async () => {
        const folder = mkdtempSync(join(tmpdir(), 'service-walk-failure-'));
        let i = 0;
        for (const context of contexts)
          for (const page of context.pages())
            await page
              .screenshot({ path: join(folder, `${++i}-${new URL(page.url()).pathname.replace(/\W+/g, '_')}.png`) })
              .catch(() => {});
        console.error(`service walk: "${name}" failed; screenshots of the open pages in ${folder}`);
      });
      const t0 = Date.now();
      try {
        await body();
      } finally {
        timings.push([name, Date.now() - t0]);
      }
    },
    timeoutMs,
  );
}

const pathOf = (page: Page): string => new URL(page.url()).pathname;

async function setPassword(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL((u) => u.pathname !== new URL(link).pathname);
}

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${service.url}/`);
  await page.locator('input[name="email"]').fill(who.email);
  await page.locator('input[name="password"]').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname !== '/');
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}

/** The operator makes an organisation and a one-time invite for one of its people; answers the link. */
async function organisationAndInvite(page: Page, name: string, email: string): Promise<string> {
  await page.goto(`${service.url}/organisations`);
  await page.locator('input[name="name"]').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/organisations\/[^/]+$/);
  const organisationPath = pathOf(page);
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Create a one-time invite link' }).click();
  const link = (await page.locator('#invite-link').innerText()).trim();
  expect(link).toMatch(new RegExp(`^${service.url}/invite/\\S+$`));
  await page.goto(`${service.url}${organisationPath}`);
  return link;
}

/**
 * Starts a run from the product's page and follows it on the run page until it has ended (the page
 * reloads itself then and shows the report's link); answers the run page's log of what it showed.
 */
async function startRunAndFollow(page: Page): Promise<{ state: string; progress: string; kind: string }[]> {
  await page.goto(`${service.url}${walk.productPath}`);
  await page.getByRole('button', { name: 'Start a run' }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await page.locator('#report').waitFor({ timeout: RUN_TIMEOUT_MS });
  expect(await page.locator('#state').innerText()).toBe('finished');
  return page.evaluate(() => JSON.parse(sessionStorage.getItem(`walk-live:${location.pathname}`) ?? '[]'));
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium), as the preflight of npm test (scripts/preflight.mjs) does`,
    );
  }
  dataDir = mkdtempSync(join(tmpdir(), 'service-walk-'));
  // No operator password in the environment: the service makes the first operator a one-time invite.
  service = await startService({
    dataDir,
    environment: { CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email, CONFORMANCE_SERVICE_KEY: 'c4'.repeat(32) },
    allowRanges: ['loopback'],
  });
  sandbox = await startSandbox({ port: 0 });
  sandboxPort = Number(new URL(sandbox.url).port);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `service walk in Chromium: ${total} s in all (the clean server's run: ${walk.firstVerdict || 'no verdict'})\n${timings.map(([n, ms]) => `  ${(ms / 1000).toFixed(1).padStart(5)} s  ${n}`).join('\n')}`,
  );
}, 60_000);

describe('the certification service in Chromium: a partner from invite to certificate', () => {
  step(
    'the operator sets a password through the first operator’s invite, creates an organisation and invites a partner',
    async () => {
      expect(service.operatorInvite).toMatch(/\/invite\/\S+$/);
      const page = await newPage();
      walk.operator = page;
      await setPassword(page, service.operatorInvite!, OPERATOR.password);
      expect(pathOf(page)).toBe('/organisations');
      // The invite works once.
      const again = await (await newPage()).goto(service.operatorInvite!);
      expect(again?.status()).toBe(410);
      const link = await organisationAndInvite(page, 'Acme Health', PARTNER.email);
      walk.organisationPath = pathOf(page);
      walk.partnerInvite = link;
    },
  );

  step('the partner sets a password, signs out and in, and registers a product against the sandbox', async () => {
    const page = await newPage();
    walk.partner = page;
    await setPassword(page, walk.partnerInvite, PARTNER.password);
    expect(pathOf(page)).toBe('/products');
    await signOut(page);
    await signIn(page, PARTNER);
    expect(pathOf(page)).toBe('/products');
    await page.locator('input[name="name"]').fill('Acme Practice Server');
    await page.locator('input[name="version"]').fill('3.2');
    await page.locator('input[name="baseUrl"]').fill(sandbox.url);
    await page.locator('input[name="only"]').fill(ONLY);
    // The target's changes: a checkbox with its plain explanation, left unticked.
    const changes = page.getByLabel(
      'The target is a test environment: runs may change its data (acknowledge batches, create and delete records)',
    );
    expect(await changes.isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/products\/[^/]+$/);
    walk.productPath = pathOf(page);
    expect(await page.locator('h1').innerText()).toBe('Acme Practice Server 3.2');
    expect(await page.locator('main').innerText()).toContain(`Server: ${sandbox.url}`);
    expect(await page.locator('#allow-changes').innerText()).toMatch(/^Changes not allowed: /);
    await page.goto(`${service.url}/products`);
    expect(await page.locator(`a[href="${walk.productPath}"]`).innerText()).toBe('Acme Practice Server');
    // The operator sees the partner and the product on the organisation's page.
    await walk.operator!.goto(`${service.url}${walk.organisationPath}`);
    const organisation = await walk.operator!.locator('main').innerText();
    expect(organisation).toContain(PARTNER.email);
    expect(organisation).not.toContain('(invited)');
    expect(organisation).toContain('Acme Practice Server 3.2');
  });

  step(
    'the partner starts a run, sees its progress change live, and opens the report with its verdict',
    async () => {
      const page = walk.partner!;
      const log = await startRunAndFollow(page);
      walk.firstRunPath = pathOf(page);
      // What the page showed when it was loaded, then changed without a reload (server-sent events).
      const firstLoad = log.findIndex((e) => e.kind === 'load');
      expect(firstLoad).toBe(0);
      const live = log.slice(1).filter((e) => e.kind === 'live');
      expect(
        live.some((e) => e.state !== log[0].state || e.progress !== log[0].progress),
        JSON.stringify(log),
      ).toBe(true);
      expect(live.map((e) => e.progress).some((p) => /\d+ of \d+ suites done/.test(p))).toBe(true);
      // The run's end is shown without a reload: one load, the last change live, finished.
      expect(log.filter((e) => e.kind === 'load')).toHaveLength(1);
      expect(log.at(-1)).toMatchObject({ kind: 'live', state: 'finished' });
      const verdict = (await page.locator('#verdict').innerText()).trim();
      expect(verdict).toBe('conformant');
      expect(await page.locator('main').innerText()).toMatch(/Coverage: 100% \(\d+\/\d+\)/);
      walk.firstVerdict = verdict;
      await page.locator('#report').click();
      await page.waitForURL(/\/runs\/[^/]+\/report$/);
      await expect.poll(() => page.locator('#verdict').getAttribute('data-verdict')).toBe(verdict);
      expect(await page.locator('#integrity').getAttribute('data-integrity')).toBe('intact');
      await page.goBack();
      expect(pathOf(page)).toBe(walk.firstRunPath);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  step(
    'the conformant run earns a certificate: the run page links it, its public page says valid, signed out too, signed with a published key',
    async () => {
      const page = walk.partner!;
      await page.goto(`${service.url}${walk.firstRunPath}`);
      const link = page.locator('a#certificate');
      walk.certificatePath = (await link.getAttribute('href')) ?? '';
      expect(walk.certificatePath).toMatch(/^\/certificates\/[^/]+$/);
      await link.click();
      await page.waitForURL((u) => u.pathname === walk.certificatePath);
      expect(await page.locator('#certificate-status').innerText()).toBe('valid');
      expect(await page.locator('#certificate-organisation').innerText()).toBe('Acme Health');
      expect(await page.locator('#certificate-product').innerText()).toBe('Acme Practice Server');
      expect(await page.locator('#certificate-version').innerText()).toBe('3.2');
      // Only what was judged is certified; the operation whose steps were omitted is named with why.
      expect(await page.locator('#certificate-operations').innerText()).toBe(CERTIFIED);
      expect(await page.locator('#certificate-left-out li').allInnerTexts()).toEqual([
        `${LEFT_OUT}: omitted: the product did not allow changes`,
      ]);
      // Only the operator revokes.
      expect(await page.locator('#revoke').count()).toBe(0);
      // The product's page lists it, valid.
      await page.goto(`${service.url}${walk.productPath}`);
      const row = page.locator(`#certificates tr:has(a[href="${walk.certificatePath}"])`);
      expect(await row.locator('td.certificate-valid').innerText()).toBe('valid');
      // Anyone shown it checks it, signed out, in a browser of their own.
      const anonymous = await newPage();
      walk.anonymous = anonymous;
      const answer = await anonymous.goto(`${service.url}${walk.certificatePath}`);
      expect(answer?.status()).toBe(200);
      expect(pathOf(anonymous)).toBe(walk.certificatePath);
      expect(await anonymous.locator('#certificate-status').innerText()).toBe('valid');
      expect(await anonymous.locator('#certificate-product').innerText()).toBe('Acme Practice Server');
      expect(await anonymous.locator(`a[href="${walk.firstRunPath}"]`).count()).toBe(0);
      // The certificate is a JWS of a key the service publishes, stating this certificate.
      const jws = await anonymous.locator('#certificate-jws').inputValue();
      // The page's own link to the key set, followed (its answer read as sent, not as Chromium shows JSON).
      const [keySet] = await Promise.all([
        anonymous.waitForResponse((r) => new URL(r.url()).pathname === '/.well-known/jwks.json'),
        anonymous.getByRole('link', { name: '/.well-known/jwks.json' }).click(),
      ]);
      expect(keySet.status()).toBe(200);
      const jwks = (await keySet.json()) as { keys: (JWK & { kid?: string })[] };
      expect(jwks.keys.length).toBeGreaterThan(0);
      expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
      const { kid } = decodeProtectedHeader(jws);
      const key = jwks.keys.find((k) => k.kid === kid);
      expect(key, `key ${kid}`).toBeDefined();
      const { payload } = await compactVerify(jws, await importJWK(key!, 'EdDSA'));
      const statement = JSON.parse(new TextDecoder().decode(payload)) as {
        id: string;
        runId: string;
        product: { name: string; version: string };
      };
      expect(statement).toMatchObject({
        id: walk.certificatePath.split('/').pop(),
        runId: walk.firstRunPath.split('/').pop(),
        product: { name: 'Acme Practice Server', version: '3.2' },
      });
    },
  );

  step(
    'the partner’s server breaks a documented rule: the next run is not conformant and the history names what changed',
    async () => {
      await sandbox.close();
      sandbox = await startSandbox({ port: sandboxPort, faults: [FAULT] });
      const page = walk.partner!;
      await startRunAndFollow(page);
      walk.secondRunPath = pathOf(page);
      expect(await page.locator('#verdict').innerText()).toBe('not-conformant');
      // No certificate, and one line why.
      expect(await page.locator('#certificate').count()).toBe(0);
      expect(await page.locator('#no-certificate').innerText()).toMatch(/^No certificate: \S/);
      await page.locator('#report').click();
      await page.waitForURL(/\/report$/);
      await expect.poll(() => page.locator('#verdict').getAttribute('data-verdict')).toBe('not-conformant');
      await page.goBack();
      await page.getByRole('link', { name: 'History of the product' }).click();
      await page.waitForURL((u) => u.pathname === walk.productPath);
      const rows = page.locator('#history tr:has(td)');
      expect(await rows.count()).toBe(2);
      // Newest first: the failing run, with what is new since the previous one.
      const newest = rows.first();
      expect(await newest.locator('a').getAttribute('href')).toBe(walk.secondRunPath);
      expect(await newest.locator('td.verdict-not-conformant').innerText()).toContain('not-conformant');
      const since = await newest.locator('td').last().innerText();
      expect(since).toMatch(/^[1-9]\d* new, 0 fixed/);
      const findings = await newest.locator('.new-findings li').allInnerTexts();
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.every((f) => f.startsWith('MUST ') && f.includes(CERTIFIED))).toBe(true);
      expect(await rows.nth(1).locator(`td.verdict-${walk.firstVerdict}`).count()).toBe(1);
      // The chart: one point per finished run, the latest red.
      expect(await page.locator('#history-chart circle').count()).toBe(2);
      expect(await page.locator('#history-chart circle').last().getAttribute('fill')).toBe('#a00');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  step(
    'the partner allows changes; against a server keeping acknowledged batches the run is not conformant',
    async () => {
      const page = walk.partner!;
      await page.goto(`${service.url}${walk.productPath}`);
      const changes = page.locator('#changes-form input[name="allowChanges"]');
      expect(await changes.isChecked()).toBe(false);
      await changes.check();
      await page.getByRole('button', { name: 'Save whether runs may change data' }).click();
      await page.waitForURL((u) => u.pathname === walk.productPath);
      await expect.poll(() => page.locator('#allow-changes').getAttribute('data-allow-changes')).toBe('yes');
      expect(await page.locator('#allow-changes').innerText()).toMatch(/^Changes allowed: /);
      expect(await page.locator('#changes-form input[name="allowChanges"]').isChecked()).toBe(true);
      // The acknowledgement's steps now run, and find the batch still listed (a MUST break).
      await sandbox.close();
      sandbox = await startSandbox({ port: sandboxPort, faults: ['ack-keeps-batch'] });
      await startRunAndFollow(page);
      expect(await page.locator('#verdict').innerText()).toBe('not-conformant');
      expect(await page.locator('#certificate').count()).toBe(0);
      expect(await page.locator('#no-certificate').innerText()).toBe(
        'No certificate: the run is not conformant (verdict not-conformant).',
      );
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  step('a partner of another organisation is answered 404 on every address of the first partner’s', async () => {
    const link = await organisationAndInvite(walk.operator!, 'Globex Clinics', STRANGER.email);
    const page = await newPage();
    walk.stranger = page;
    await setPassword(page, link, STRANGER.password);
    expect(pathOf(page)).toBe('/products');
    expect(await page.locator(`a[href="${walk.productPath}"]`).count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toContain('Acme');
    // Every address the walk went through, and every other route of the service naming one of the
    // first partner's rows (or the operator's alone), filled with the first partner's ids.
    const ids: Record<string, string[]> = {
      organisationId: [walk.organisationPath.split('/').pop()!],
      certificateId: [walk.certificatePath.split('/').pop()!],
      productId: [walk.productPath.split('/').pop()!],
      runId: [walk.firstRunPath.split('/').pop()!, walk.secondRunPath.split('/').pop()!],
    };
    expect(
      Object.values(ids)
        .flat()
        .every((id) => id.length > 8),
    ).toBe(true);
    const gets = new Set([
      walk.productPath,
      walk.firstRunPath,
      walk.secondRunPath,
      `${walk.firstRunPath}/report`,
      `${walk.secondRunPath}/report`,
      `${walk.firstRunPath}/events`,
      walk.organisationPath,
    ]);
    const posts = new Set<string>();
    for (const route of ROUTES) {
      if (route.access === 'public') continue;
      const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      if (params.some((p) => !(p in ids))) continue;
      if (params.length === 0 && route.access !== 'operator') continue;
      let paths = [route.url];
      for (const p of params) paths = paths.flatMap((u) => ids[p].map((id) => u.replace(`:${p}`, id)));
      for (const path of paths) (route.method === 'GET' ? gets : posts).add(path);
    }
    expect(gets.size).toBeGreaterThanOrEqual(8);
    for (const path of gets) {
      const answer = await page.goto(`${service.url}${path}`);
      expect(answer?.status(), path).toBe(404);
      expect(await page.locator('h1').innerText(), path).toBe('Not found');
      expect(await page.locator('main').innerText(), path).not.toMatch(/Acme|conformant|finished/);
    }
    // Forms sent with the stranger's own valid token (their session's) are refused too.
    await page.goto(`${service.url}/products`);
    const csrf = await page.locator('input[name="_csrf"]').first().getAttribute('value');
    expect(posts).toContain(`${walk.productPath}/runs`);
    expect(posts).toContain(`${walk.certificatePath}/revoke`);
    for (const path of posts) {
      const answer = await page.request.post(`${service.url}${path}`, {
        form: { _csrf: csrf!, name: 'x', email: 'x@globex.test', config: '', secrets: 'X=1' },
        maxRedirects: 0,
      });
      expect(answer.status(), path).toBe(404);
      expect(await answer.text(), path).not.toContain('Acme');
    }
    // Nothing was started on the first partner's product.
    const runs = await service.ctx.db
      .selectFrom('runs')
      .select('id')
      .where('product_id', '=', walk.productPath.split('/').pop()!)
      .execute();
    expect(runs).toHaveLength(3);
    // Signed out, the same addresses lead to the sign-in page.
    const anonymous = await newPage();
    for (const path of [walk.productPath, walk.firstRunPath, `${walk.firstRunPath}/report`]) {
      await anonymous.goto(`${service.url}${path}`);
      expect(pathOf(anonymous), path).toBe('/');
      expect(await anonymous.locator('h1').innerText()).toBe('Sign in');
    }
  });

  step(
    'the operator revokes the certificate: its public page says revoked, to anyone; the stranger could not',
    async () => {
      // The stranger sees the public page, with no revoke button and no link into the partner's run.
      const stranger = walk.stranger!;
      await stranger.goto(`${service.url}${walk.certificatePath}`);
      expect(await stranger.locator('#certificate-status').innerText()).toBe('valid');
      expect(await stranger.locator('#revoke').count()).toBe(0);
      expect(await stranger.locator(`a[href="${walk.firstRunPath}"]`).count()).toBe(0);
      const operator = walk.operator!;
      await operator.goto(`${service.url}${walk.certificatePath}`);
      expect(await operator.locator('#certificate-status').innerText()).toBe('valid');
      // Revocation asks for a reason and a confirmation.
      await operator.locator('#revoke-form textarea[name="reason"]').fill('The partner withdrew the product.');
      await operator.locator('#revoke-form input[name="confirm"]').check();
      await operator.locator('#revoke').click();
      await operator.waitForLoadState();
      await expect.poll(() => operator.locator('#certificate-status').innerText()).toBe('revoked');
      expect(pathOf(operator)).toBe(walk.certificatePath);
      expect(await operator.locator('#revoke').count()).toBe(0);
      // Signed out, in the browser that saw it valid.
      const anonymous = walk.anonymous!;
      await anonymous.goto(`${service.url}${walk.certificatePath}`);
      expect(await anonymous.locator('#certificate-status').innerText()).toBe('revoked');
      const status = await anonymous.request.get(`${service.url}${walk.certificatePath}.json`);
      expect(await status.json()).toMatchObject({ status: 'revoked' });
      // The partner's product page says so too.
      const partner = walk.partner!;
      await partner.goto(`${service.url}${walk.productPath}`);
      const row = partner.locator(`#certificates tr:has(a[href="${walk.certificatePath}"])`);
      expect(await row.locator('td.certificate-revoked').innerText()).toBe('revoked');
    },
  );

  step(
    "the operator's audit page lists the walk's actions in order, newest first: invite, register, run, revoke",
    async () => {
      const operator = walk.operator!;
      await operator.goto(`${service.url}/audit`);
      const actions = await operator
        .locator('#audit tr[data-action]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
      const walked = [
        'organisation-created',
        'invite',
        'invite-accepted',
        'product-registered',
        'run-started',
        'certificate-issued',
        'certificate-revoked',
      ];
      // Newest first: the walk's actions appear in the reverse of the order they were taken, from
      // the first organisation's creation on (before it, the first operator's own invite).
      const since = actions.slice(0, actions.lastIndexOf('organisation-created') + 1);
      const firstSeen = walked.map((a) => since.lastIndexOf(a));
      expect(
        firstSeen.every((i) => i >= 0),
        `${walked} in ${actions}`,
      ).toBe(true);
      expect([...firstSeen].sort((a, b) => b - a)).toEqual(firstSeen);
      const revoked = operator.locator('#audit tr[data-action="certificate-revoked"]').first();
      expect(await revoked.innerText()).toContain('The partner withdrew the product.');
      expect(await revoked.innerText()).toContain(OPERATOR.email);
    },
  );

  step('the pages raised no script error', async () => {
    expect(problems).toEqual([]);
  });
});
