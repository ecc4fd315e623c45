/**
 * The certification service's web hardening (issue 25, OWASP basics), over real HTTP on
 * 127.0.0.1 and the embedded database: a Content-Security-Policy on every answer of every GET
 * route (a partner's report under a sandboxed one of its own), the cookies' flags, a new session
 * id at every sign-in, expired sessions and spent invites swept, and a sign-in rate limit keyed on
 * X-Forwarded-For only behind a trusted proxy.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { renderHtml } from '../reports/html/renderHtml.ts';
import { buildServiceApp, REPORT_POLICY } from '../service/app.ts';
import { RUN_PROGRESS_PATH } from '../service/assets/runProgress.ts';
import { iso } from '../service/context.ts';
import { ROUTES } from '../service/routes/index.ts';
import { tokenHash } from '../service/secrets.ts';
import { sweepSessions } from '../service/sessions.ts';
import { type RunningService, type ServiceOptions, startService } from '../service/startService.ts';
import { inviteLinkOf, Person } from '../service/testSupport/browserless.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const PASSWORD = 'partner-password-1';

function serviceWith(extra: ServiceOptions = {}): Promise<RunningService> {
  return startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-hardening-')),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'cd'.repeat(32),
    },
    allowRanges: ['loopback'],
    // No run starts: the pages are judged on queued rows.
    workerConcurrency: 0,
    ...extra,
  });
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/** The page policy's promises, whatever else it says. */
function expectPagePolicy(policy: string | null, where: string): void {
  const d = directives(policy);
  expect(d.get('default-src'), where).toEqual(["'self'"]);
  expect(d.get('frame-ancestors'), where).toEqual(["'none'"]);
  expect(d.get('form-action'), where).toEqual(["'self'"]);
  expect(d.get('base-uri'), where).toEqual(["'none'"]);
  expect(d.get('object-src'), where).toEqual(["'none'"]);
  for (const name of ['script-src', 'style-src']) {
    expect(d.get(name), `${where} ${name}`).toContain("'self'");
    expect(d.get(name), `${where} ${name}`).not.toContain("'unsafe-inline'");
    expect(d.get(name), `${where} ${name}`).not.toContain("'unsafe-eval'");
  }
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('pages', () => {
  let service: RunningService;
  let operator: Person;
  let partner: Person;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    service = await serviceWith();
    operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    const created = await operator.post('/organisations', { name: 'Gamma' }, '/organisations');
    const orgPath = created.location!;
    const invite = await operator.post(`${orgPath}/invites`, { email: 'someone@gamma.test' }, orgPath);
    ids.token = inviteLinkOf(invite.text).split('/').pop()!;
    partner = new Person(service.url!);
    await partner.acceptInvite(`/invite/${ids.token}`, PASSWORD);
    const product = await partner.post('/products', {
      name: 'Gamma server',
      version: '1.0',
      baseUrl: 'http://127.0.0.1:9',
      only: 'diary-post-auth',
    });
    const run = await partner.post(`${product.location!}/runs`, {}, product.location!);
    Object.assign(ids, {
      organisationId: orgPath.split('/').pop()!,
      productId: product.location!.split('/').pop()!,
      runId: run.location!.split('/').pop()!,
    });
  }, 60_000);
  afterAll(() => service?.close());

  test('every GET route of ROUTES answers with the page policy: scripts and styles of the service alone, no framing, forms to the service, no base', async () => {
    const tried: string[] = [];
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      const path = route.url.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? 'unknown');
      const who = route.access === 'operator' ? operator : partner;
      // The event stream of a queued run never ends: its headers are read, then it is left.
      const leave = new AbortController();
      const answer = await fetch(service.url + path, {
        headers: { cookie: [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        redirect: 'manual',
        signal: leave.signal,
      });
      leave.abort();
      expect(answer.status, path).toBeLessThan(500);
      expectPagePolicy(answer.headers.get('content-security-policy'), `GET ${route.url}`);
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      tried.push(route.url);
    }
    expect(tried).toEqual(expect.arrayContaining(['/', '/products', '/runs/:runId', '/runs/:runId/events']));
    // Signed out, and an address no route serves: the same policy.
    for (const path of ['/', '/no-such-page', `/runs/${ids.runId}`])
      expectPagePolicy(
        (await fetch(service.url + path, { redirect: 'manual' })).headers.get('content-security-policy'),
        path,
      );
  });

  test("the page layout's style is allowed by hash, the run page's progress script served as a file; no inline script", async () => {
    const page = await partner.get(`/runs/${ids.runId}`);
    const d = directives(page.headers.get('content-security-policy'));
    for (const [, style] of page.text.matchAll(/<style>([\s\S]*?)<\/style>/g))
      expect(d.get('style-src')).toContain(sha256(style));
    const inline = [...page.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const files = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    // A queued run's page follows its progress from the file; the policy allows no inline script.
    expect(inline).toEqual([]);
    expect(files).toEqual([RUN_PROGRESS_PATH]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    const script = await fetch(service.url + RUN_PROGRESS_PATH);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('dataset.runId');
    // Another page has no inline script, and its policy allows none.
    const products = await partner.get('/products');
    expect(products.text).not.toMatch(/<script>/);
    expect(directives(products.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
  });

  test('a report.html is served sandboxed under a policy of its own, which allows its inline script and style and loads nothing', async () => {
    const report = renderHtml(loadFixture('failing'));
    await service.ctx.db
      .insertInto('run_files')
      .values({ run_id: ids.runId, name: 'report.html', content: report })
      .execute();
    const answer = await partner.get(`/runs/${ids.runId}/report`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(report);
    const policy = answer.headers.get('content-security-policy');
    expect(policy).toBe(REPORT_POLICY);
    const d = directives(policy);
    expect(d.get('sandbox')).toEqual(['allow-scripts']);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    // The report is self-contained: everything it needs is inline, which its policy allows.
    expect(answer.text).toMatch(/<script>/);
    expect(answer.text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'"]);
    expect(d.get('style-src')).toEqual(["'unsafe-inline'"]);
    // Another organisation's report, or none, answers 404 under the page policy.
    expectPagePolicy((await operator.get('/runs/unknown/report')).headers.get('content-security-policy'), '404');
  });
});

describe('cookies and sessions', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await serviceWith({ publicUrl: 'https://conformance.example.test' });
  });
  afterAll(() => service?.close());

  test('behind an https public address every cookie is Secure, HttpOnly and SameSite=Lax', async () => {
    const anonymous = await fetch(`${service.url}/`);
    const csrf = anonymous.headers.getSetCookie().find((c) => c.startsWith('conformance_csrf='));
    expect(csrf).toMatch(/; HttpOnly/);
    expect(csrf).toMatch(/; Secure/);
    expect(csrf).toMatch(/; SameSite=Lax/);
    const person = new Person(service.url!);
    const token = await person.token('/');
    const signedIn = await person.request('POST', '/sign-in', {
      _csrf: token,
      email: OPERATOR.email,
      password: OPERATOR.password,
    });
    expect(signedIn.status).toBe(303);
    const session = signedIn.headers.getSetCookie().find((c) => c.startsWith('conformance_session='));
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\//);
  });

  test('signing in again gives a new session id and ends the one the request came with', async () => {
    const person = new Person(service.url!);
    await person.signIn(OPERATOR.email, OPERATOR.password);
    const first = person.cookies.get('conformance_session')!;
    const again = await person.request('POST', '/sign-in', {
      _csrf: await person.token('/organisations'),
      email: OPERATOR.email,
      password: OPERATOR.password,
    });
    expect(again.status).toBe(303);
    const second = person.cookies.get('conformance_session')!;
    expect(second).not.toBe(first);
    const old = new Person(service.url!);
    old.cookies.set('conformance_session', first);
    expect((await old.get('/organisations')).status).toBe(302);
    expect((await person.get('/organisations')).status).toBe(200);
  });

  test('expired sessions and expired invites, used or not, are swept; live ones stay', async () => {
    const { db } = service.ctx;
    const now = Date.now();
    const at = (ms: number) => iso(new Date(now + ms));
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const session = (name: string, expiresIn: number) => ({
      id_hash: tokenHash(name),
      user_id: user.id,
      expires_at: at(expiresIn),
      csrf_secret: 'x',
      created_at: at(-1000),
    });
    const invite = (name: string, expiresIn: number, usedAgo?: number) => ({
      id: randomUUID(),
      token_hash: tokenHash(name),
      email: `${name}@example.test`,
      role: 'partner' as const,
      organisation_id: null,
      expires_at: at(expiresIn),
      used_at: usedAgo === undefined ? null : at(-usedAgo),
      created_at: at(-100_000),
    });
    await db
      .insertInto('sessions')
      .values([session('expired-session', -1), session('live-session', 3_600_000)])
      .execute();
    await db
      .insertInto('invites')
      .values([
        invite('expired-unused', -1),
        invite('expired-used', -1, 5000),
        invite('live-used', 3_600_000, 5000),
        invite('live-unused', 3_600_000),
      ])
      .execute();
    await sweepSessions(service.ctx);
    const sessions = await db.selectFrom('sessions').select('id_hash').execute();
    expect(sessions.map((s) => s.id_hash)).toContain(tokenHash('live-session'));
    expect(sessions.map((s) => s.id_hash)).not.toContain(tokenHash('expired-session'));
    const invites = (await db.selectFrom('invites').select('email').execute()).map((i) => i.email);
    expect(invites).toEqual(expect.arrayContaining(['live-used@example.test', 'live-unused@example.test']));
    expect(invites).not.toContain('expired-unused@example.test');
    expect(invites).not.toContain('expired-used@example.test');
  });

  test('the app sweeps on a timer, which its close stops', async () => {
    const app = await buildServiceApp(service.ctx, { sweepMs: 50 });
    const { db } = service.ctx;
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const expired = (name: string) => ({
      id_hash: tokenHash(name),
      user_id: user.id,
      expires_at: iso(new Date(Date.now() - 1)),
      csrf_secret: 'x',
      created_at: iso(new Date()),
    });
    await db.insertInto('sessions').values(expired('swept-by-timer')).execute();
    const gone = async (name: string) =>
      (await db.selectFrom('sessions').select('id_hash').where('id_hash', '=', tokenHash(name)).execute()).length === 0;
    for (let i = 0; i < 40 && !(await gone('swept-by-timer')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await gone('swept-by-timer')).toBe(true);
    await app.close();
    await db.insertInto('sessions').values(expired('after-close')).execute();
    await new Promise((r) => setTimeout(r, 300));
    expect(await gone('after-close')).toBe(false);
  });
});

describe('the sign-in rate limit and --trust-proxy', () => {
  /** Failed sign-ins from one claimed address: the statuses answered. */
  async function attempts(service: RunningService, forwardedFor: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const person = new Person(service.url!);
      const token = await person.token('/');
      const answer = await fetch(`${service.url}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-forwarded-for': forwardedFor,
        },
        body: new URLSearchParams({ _csrf: token, email: OPERATOR.email, password: 'wrong-password-0' }).toString(),
      });
      statuses.push(answer.status);
      await answer.text();
    }
    return statuses;
  }

  test('behind a trusted proxy the limit counts per X-Forwarded-For address', async () => {
    const service = await serviceWith({ trustProxy: true, signIn: { max: 2, windowMs: 60_000 } });
    try {
      expect(await attempts(service, '203.0.113.7', 3)).toEqual([401, 401, 429]);
      // Another client behind the same proxy is not held back by the first one's attempts.
      expect(await attempts(service, '203.0.113.8', 1)).toEqual([401]);
    } finally {
      await service.close();
    }
  });

  test('without --trust-proxy X-Forwarded-For is ignored: the limit counts per connecting address', async () => {
    const service = await serviceWith({ signIn: { max: 2, windowMs: 60_000 } });
    try {
      expect(await attempts(service, '203.0.113.7', 2)).toEqual([401, 401]);
      // A claimed address of its own changes nothing: the connection is the same client's.
      expect(await attempts(service, '203.0.113.8', 1)).toEqual([429]);
    } finally {
      await service.close();
    }
  });
});
