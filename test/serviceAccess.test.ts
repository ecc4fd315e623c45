/**
 * The certification service's people and their isolation (issue 25), over real HTTP on
 * 127.0.0.1, on the embedded database and on PostgreSQL (a throwaway cluster; skipped with a
 * line when the server binaries are not installed): the operator creates organisations and
 * one-time invites, partners set their password and sign in, and a partner of one organisation
 * is answered 404 on every route of service/routes/ that names another organisation's row.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTES } from '../service/routes/index.ts';
import { openSecrets } from '../service/secretHosts.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { inviteLinkOf, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const PASSWORD = 'partner-password-1';

let pg: ThrowawayPostgres | undefined;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(() => pg?.stop());

/** A clock the tests move (invite expiry). */
const clock = { offsetMs: 0 };

async function serviceOn(engine: 'sqlite' | 'postgres', extra: Parameters<typeof startService>[0] = {}) {
  return startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-access-')),
    ...(engine === 'postgres'
      ? { databaseUrl: await pg!.createDatabase(`access_${Math.floor(Math.random() * 1e9)}`) }
      : {}),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'ab'.repeat(32),
    },
    allowRanges: ['loopback'],
    // No run of these tests needs to start: the access checks are judged on queued rows.
    workerConcurrency: 0,
    now: () => new Date(Date.now() + clock.offsetMs),
    ...extra,
  });
}

async function organisationWithPartner(operator: Person, service: RunningService, name: string) {
  const created = await operator.post('/organisations', { name }, '/organisations');
  expect(created.status).toBe(303);
  const orgPath = created.location!;
  const invite = await operator.post(`${orgPath}/invites`, { email: `someone@${name.toLowerCase()}.test` }, orgPath);
  expect(invite.status).toBe(200);
  const partner = new Person(service.url!);
  const accepted = await partner.acceptInvite(inviteLinkOf(invite.text), PASSWORD);
  expect(accepted).toMatchObject({ status: 303, location: '/products' });
  const product = await partner.post('/products', {
    name: `${name} server`,
    version: '1.0',
    baseUrl: 'http://127.0.0.1:9',
    only: 'diary-post-auth',
  });
  expect(product.status).toBe(303);
  const productPath = product.location!;
  const run = await partner.post(`${productPath}/runs`, {}, productPath);
  expect(run.status).toBe(303);
  return {
    partner,
    ids: {
      organisationId: orgPath.split('/').pop()!,
      productId: productPath.split('/').pop()!,
      runId: run.location!.split('/').pop()!,
    },
  };
}

const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  let service: RunningService;
  let operator: Person;
  let a: Awaited<ReturnType<typeof organisationWithPartner>>;
  let b: Awaited<ReturnType<typeof organisationWithPartner>>;

  beforeAll(async () => {
    service = await serviceOn(engine);
    operator = new Person(service.url!);
    expect(await operator.signIn(OPERATOR.email, OPERATOR.password)).toMatchObject({
      status: 303,
      location: '/organisations',
    });
    a = await organisationWithPartner(operator, service, 'Alpha');
    b = await organisationWithPartner(operator, service, 'Beta');
  }, 60_000);
  afterAll(() => service?.close());

  test('every route naming another organisation’s row answers 404 to a partner, and the operator’s routes too', async () => {
    const tried: string[] = [];
    for (const route of ROUTES) {
      const owned = /:(organisationId|productId|runId)\b/.test(route.url);
      if (!owned && route.access !== 'operator') continue;
      const path = route.url.replace(
        /:(organisationId|productId|runId)\b/g,
        (_m, name: keyof typeof a.ids) => a.ids[name],
      );
      const answer =
        route.method === 'GET'
          ? await b.partner.get(path)
          : await b.partner.post(path, { name: 'x', email: 'x@y.test', config: '', secrets: '' });
      expect(answer.status, `${route.method} ${path}`).toBe(404);
      expect(answer.text).not.toContain('Alpha');
      tried.push(`${route.method} ${route.url}`);
    }
    // Each owned route was tried, and the rows are there: their owner reaches them.
    expect(tried.length).toBeGreaterThanOrEqual(10);
    for (const path of [`/products/${a.ids.productId}`, `/runs/${a.ids.runId}`])
      expect((await a.partner.get(path)).status).toBe(200);
    for (const path of [
      `/products/${a.ids.productId}`,
      `/runs/${a.ids.runId}`,
      `/organisations/${a.ids.organisationId}`,
    ])
      expect((await operator.get(path)).status).toBe(200);
    // Nothing of the other organisation is listed either.
    const list = await b.partner.get('/products');
    expect(list.text).toContain('Beta server');
    expect(list.text).not.toContain('Alpha server');
  });

  test('a form without its CSRF token, or with another session’s, is refused (403) and changes nothing', async () => {
    const productPath = `/products/${a.ids.productId}`;
    const without = await a.partner.request('POST', `${productPath}/runs`, {});
    expect(without.status).toBe(403);
    expect(without.text).toContain('CSRF token');
    const foreign = await a.partner.request('POST', `${productPath}/runs`, {
      _csrf: await operator.token('/organisations'),
    });
    expect(foreign.status).toBe(403);
    const runs = await service.ctx.db
      .selectFrom('runs')
      .select('id')
      .where('product_id', '=', a.ids.productId)
      .execute();
    expect(runs).toHaveLength(1);
  });

  test('session cookie: httpOnly, SameSite=Lax, not Secure over http; a forged or signed-out cookie opens nothing', async () => {
    const person = new Person(service.url!);
    const token = await person.token('/');
    const answer = await person.request('POST', '/sign-in', {
      _csrf: token,
      email: OPERATOR.email,
      password: OPERATOR.password,
    });
    const setCookie = answer.headers.getSetCookie().find((c) => c.startsWith('conformance_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const stolen = person.cookies.get('conformance_session')!;
    // Stored only as its hash.
    const rows = await service.ctx.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).not.toContain(stolen);

    const forger = new Person(service.url!);
    forger.cookies.set('conformance_session', `${stolen.slice(0, -2)}AA`);
    expect(await forger.get('/organisations')).toMatchObject({ status: 302, location: '/' });

    expect(await person.post('/sign-out', {}, '/organisations')).toMatchObject({ status: 303, location: '/' });
    const replay = new Person(service.url!);
    replay.cookies.set('conformance_session', stolen);
    expect(await replay.get('/organisations')).toMatchObject({ status: 302, location: '/' });
  });

  test('a wrong password is one answer for an unknown address and a wrong password alike', async () => {
    const person = new Person(service.url!);
    const wrong = await person.signIn(OPERATOR.email, 'not-the-password');
    const unknown = await person.signIn('nobody@example.test', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
    expect(unknown.text).toContain('Wrong email or password.');
    expect(person.cookies.has('conformance_session')).toBe(false);
  });

  test('an invite works once and not after its expiry', async () => {
    const orgPath = `/organisations/${a.ids.organisationId}`;
    const once = inviteLinkOf(
      (await operator.post(`${orgPath}/invites`, { email: 'second@alpha.test' }, orgPath)).text,
    );
    const first = new Person(service.url!);
    expect((await first.acceptInvite(once, PASSWORD)).status).toBe(303);
    const second = new Person(service.url!);
    const again = await second.get(once.replace(/^https?:\/\/[^/]+/, ''));
    expect(again.status).toBe(410);
    expect(again.text).toContain('has been used already');

    const late = inviteLinkOf((await operator.post(`${orgPath}/invites`, { email: 'third@alpha.test' }, orgPath)).text);
    clock.offsetMs = (service.ctx.settings.inviteHours + 1) * 3_600_000;
    try {
      const expired = await new Person(service.url!).get(late.replace(/^https?:\/\/[^/]+/, ''));
      expect(expired.status).toBe(410);
      expect(expired.text).toContain('has expired');
    } finally {
      clock.offsetMs = 0;
    }
  });

  test('a config that fails the schema, or names the service’s files, is refused and not stored', async () => {
    const productPath = `/products/${a.ids.productId}`;
    const bad = await a.partner.post(`${productPath}/config`, { config: '{"target": 3}', secrets: '' }, productPath);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/The config is invalid at \/target/);
    const files = await a.partner.post(
      `${productPath}/config`,
      { config: '{"http": {"caFile": "/etc/shadow"}}', secrets: '' },
      productPath,
    );
    expect(files.status).toBe(400);
    expect(files.text).toContain('http.caFile');
    const stored = await service.ctx.db
      .selectFrom('product_configs')
      .selectAll()
      .where('product_id', '=', a.ids.productId)
      .executeTakeFirst();
    expect(stored?.config_json).toBeNull();
  });

  test('secrets are stored encrypted and never shown back', async () => {
    const productPath = `/products/${a.ids.productId}`;
    const saved = await a.partner.post(
      `${productPath}/config`,
      { config: '', secrets: 'CONFORMANCE_CLIENT_SECRET=very-secret-value' },
      productPath,
    );
    expect(saved.status).toBe(303);
    const page = await a.partner.get(productPath);
    expect(page.text).toContain('CONFORMANCE_CLIENT_SECRET');
    expect(page.text).not.toContain('very-secret-value');
    const stored = await service.ctx.db
      .selectFrom('product_configs')
      .selectAll()
      .where('product_id', '=', a.ids.productId)
      .executeTakeFirst();
    expect(stored?.secrets_encrypted).not.toContain('very-secret-value');
    expect(openSecrets(service.ctx.box, stored?.secrets_encrypted).values).toEqual({
      CONFORMANCE_CLIENT_SECRET: 'very-secret-value',
    });
  });
});

test('sign-in is rate limited per address (429 after the limit, the right password included)', async () => {
  const service = await serviceOn('sqlite', { signIn: { max: 3, windowMs: 60_000 } });
  try {
    const person = new Person(service.url!);
    for (let i = 0; i < 3; i++) expect((await person.signIn(OPERATOR.email, 'wrong-password')).status).toBe(401);
    const limited = await person.signIn(OPERATOR.email, OPERATOR.password);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many attempts');
  } finally {
    await service.close();
  }
});

test('without an operator password, the first start prints a one-time operator invite, and a restart withdraws it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-first-'));
  const first = await startService({ dataDir, environment: {} });
  const link = first.operatorInvite!;
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invite\/[\w-]{43}$/);
  await first.close();
  const second = await startService({ dataDir, environment: {} });
  try {
    const old = await new Person(second.url!).get(link.replace(/^https?:\/\/[^/]+/, ''));
    expect(old.status).toBe(410);
    const person = new Person(second.url!);
    expect(await person.acceptInvite(second.operatorInvite!, OPERATOR.password)).toMatchObject({
      status: 303,
      location: '/organisations',
    });
    expect((await person.get('/organisations')).status).toBe(200);
  } finally {
    await second.close();
  }
  // With an operator in place, no link is printed.
  const third = await startService({ dataDir, environment: {} });
  expect(third.operatorInvite).toBeUndefined();
  await third.close();
});

test('behind https (--public-url https://...), every cookie is Secure, and invite links name the public address', async () => {
  const service = await serviceOn('sqlite', { publicUrl: 'https://certify.example.test' });
  try {
    const person = new Person(service.url!);
    const page = await person.get('/');
    expect(page.headers.getSetCookie().find((c) => c.startsWith('conformance_csrf='))).toMatch(/; Secure/i);
    const signIn = await person.request('POST', '/sign-in', {
      _csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1],
      email: OPERATOR.email,
      password: OPERATOR.password,
    });
    expect(signIn.headers.getSetCookie().find((c) => c.startsWith('conformance_session='))).toMatch(/; Secure/i);
    const org = (await person.post('/organisations', { name: 'Sigma' }, '/organisations')).location!;
    const invite = await person.post(`${org}/invites`, { email: 'someone@sigma.test' }, org);
    expect(inviteLinkOf(invite.text)).toMatch(/^https:\/\/certify\.example\.test\/invite\/[\w-]{43}$/);
  } finally {
    await service.close();
  }
});
