/**
 * People and organisations over their life (issue 33, item 2), over real HTTP on 127.0.0.1, on the
 * embedded database and on PostgreSQL (skipped with a line when its binaries are not installed):
 * the operator disables, enables and removes a person or an organisation, which ends their
 * sessions at once (the open session's next request is refused); a password change or reset ends
 * every other session; an invite is for one organisation, and a newer invite withdraws the older.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

async function serviceOn(engine: 'sqlite' | 'postgres') {
  return startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-lifecycle-')),
    ...(engine === 'postgres'
      ? { databaseUrl: await pg!.createDatabase(`lifecycle_${Math.floor(Math.random() * 1e9)}`) }
      : {}),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'c3'.repeat(32),
    },
    allowRanges: ['loopback'],
    // No run needs to start: runs are judged queued, and cancelled.
    workerConcurrency: 0,
    // Every test signs in many times from one address.
    signIn: { max: 1000, windowMs: 60_000 },
  });
}

/** A GET asking for JSON with the person's cookies: what a script holding the session receives. */
async function getJson(person: Person, path: string): Promise<number> {
  const response = await fetch(person.base + path, {
    headers: { accept: 'application/json', cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

/** The user id of a person on the organisation page (its operator's "Disable" form names it). */
async function userIdOf(operator: Person, orgPath: string, email: string): Promise<string> {
  const page = (await operator.get(orgPath)).text;
  const item = new RegExp(`<li>${email.replace(/[.]/g, '\\.')}(.*?)</li>`).exec(page)?.[1] ?? '';
  const id = /action="\/users\/([\w-]+)\/(?:disable|enable)"/.exec(item)?.[1];
  if (!id) throw new Error(`No controls of ${email} on ${orgPath}`);
  return id;
}

/** Whether the person's session still opens pages: 'open', or how it is refused (GET page, GET JSON, POST form). */
async function sessionOf(person: Person): Promise<'open' | { page: string; json: number; form: number }> {
  const page = await person.get('/products');
  if (page.status === 200) return 'open';
  return {
    page: `${page.status} ${page.location ?? ''}`,
    json: await getJson(person, '/products'),
    form: (await person.request('POST', '/products', { _csrf: 'none', name: 'x' })).status,
  };
}
const ENDED = { page: '302 /', json: 401, form: 401 };

const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  let service: RunningService;
  let operator: Person;

  beforeAll(async () => {
    service = await serviceOn(engine);
    operator = new Person(service.url!);
    expect((await operator.signIn(OPERATOR.email, OPERATOR.password)).status).toBe(303);
  }, 60_000);
  afterAll(() => service?.close());

  async function organisation(name: string): Promise<string> {
    const created = await operator.post('/organisations', { name }, '/organisations');
    expect(created.status).toBe(303);
    return created.location!;
  }

  async function invite(orgPath: string, email: string): Promise<string> {
    const answer = await operator.post(`${orgPath}/invites`, { email }, orgPath);
    expect(answer.status, answer.text).toBe(200);
    return inviteLinkOf(answer.text);
  }

  async function member(orgPath: string, email: string): Promise<Person> {
    const person = new Person(service.url!);
    expect(await person.acceptInvite(await invite(orgPath, email), PASSWORD)).toMatchObject({ status: 303 });
    return person;
  }

  async function signedIn(email: string, password = PASSWORD): Promise<Person> {
    const person = new Person(service.url!);
    expect(await person.signIn(email, password)).toMatchObject({ status: 303, location: '/products' });
    return person;
  }

  test('a disabled person’s open sessions are refused at their next request (401), and they cannot sign in until enabled', async () => {
    const org = await organisation(`Disabled-${engine}`);
    const email = `someone@disabled-${engine}.test`;
    const first = await member(org, email);
    const second = await signedIn(email);
    const colleague = await member(org, `colleague@disabled-${engine}.test`);
    expect(await sessionOf(first)).toBe('open');
    const id = await userIdOf(operator, org, email);

    // Only the operator may, and only with the form's token.
    expect((await colleague.post(`/users/${id}/disable`, {})).status).toBe(404);
    expect((await operator.request('POST', `/users/${id}/disable`, {})).status).toBe(403);
    expect(await sessionOf(first)).toBe('open');

    expect(await operator.post(`/users/${id}/disable`, {}, org)).toMatchObject({ status: 303, location: org });
    expect(await sessionOf(first)).toEqual(ENDED);
    expect(await sessionOf(second)).toEqual(ENDED);
    expect(await sessionOf(colleague)).toBe('open');
    const again = await new Person(service.url!).signIn(email, PASSWORD);
    expect(again.status).toBe(403);
    expect(again.text).toContain('This account is disabled');
    expect((await operator.get(org)).text).toMatch(/disabled<\/strong>.*action="\/users\/[\w-]+\/enable"/);

    expect((await operator.post(`/users/${id}/enable`, {}, org)).status).toBe(303);
    expect(await sessionOf(await signedIn(email))).toBe('open');

    // Removed: the account is gone, and its address may be invited afresh.
    const third = await signedIn(email);
    expect((await operator.post(`/users/${id}/remove`, {}, org)).status).toBe(303);
    expect(await sessionOf(third)).toEqual(ENDED);
    expect((await new Person(service.url!).signIn(email, PASSWORD)).status).toBe(401);
    expect((await operator.get(org)).text).not.toContain(email);
    // The operator cannot lock themself out.
    const me = (
      await service.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', OPERATOR.email)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await operator.post(`/users/${me}/disable`, {}, org)).status).toBe(409);
  });

  test('a disabled organisation: every session of its people ends, its runs are cancelled, none starts; removed, only its certificates would stay', async () => {
    const org = await organisation(`Frozen-${engine}`);
    const person = await member(org, `someone@frozen-${engine}.test`);
    const product = (await person.post('/products', { name: 'Frozen', version: '1', baseUrl: 'http://127.0.0.1:9' }))
      .location!;
    const run = (await person.post(`${product}/runs`, {}, product)).location!;
    const other = await organisation(`Thawed-${engine}`);
    const bystander = await member(other, `someone@thawed-${engine}.test`);

    expect((await bystander.post(`${org}/disable`, {})).status).toBe(404);
    expect((await operator.post(`${org}/disable`, {}, org)).status).toBe(303);
    expect(await sessionOf(person)).toEqual(ENDED);
    expect(await sessionOf(bystander)).toBe('open');
    expect((await new Person(service.url!).signIn(`someone@frozen-${engine}.test`, PASSWORD)).status).toBe(403);
    const row = await service.ctx.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', run.split('/').pop()!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'cancelled', verdict: null });
    expect(row.problem).toContain('the organisation was disabled');
    // The operator starting a run of it is refused too, with the reason.
    const refused = await operator.post(`${product}/runs`, {}, product);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('received a disabled one');

    expect((await operator.post(`${org}/enable`, {}, org)).status).toBe(303);
    const back = await signedIn(`someone@frozen-${engine}.test`);
    expect(await sessionOf(back)).toBe('open');

    // Removal asks for the name; then its people, products and runs are gone.
    expect((await operator.post(`${org}/remove`, { confirm: 'no' }, org)).status).toBe(400);
    expect(await sessionOf(back)).toBe('open');
    expect((await operator.post(`${org}/remove`, { confirm: `Frozen-${engine}` }, org)).status).toBe(303);
    expect(await sessionOf(back)).toEqual(ENDED);
    expect((await new Person(service.url!).signIn(`someone@frozen-${engine}.test`, PASSWORD)).status).toBe(401);
    const id = org.split('/').pop()!;
    const left = {
      users: await service.ctx.db.selectFrom('users').select('id').where('organisation_id', '=', id).execute(),
      products: await service.ctx.db.selectFrom('products').select('id').where('organisation_id', '=', id).execute(),
      runs: await service.ctx.db.selectFrom('runs').select('id').where('organisation_id', '=', id).execute(),
    };
    expect(left).toEqual({ users: [], products: [], runs: [] });
    const page = await operator.get(org);
    expect(page.text).toContain('id="organisation-state">Removed on');
    expect(
      (await operator.request('POST', `${org}/invites`, { _csrf: await operator.token(org), email: 'x@y.test' }))
        .status,
    ).toBe(409);
  });

  test('a reset by a new invite ends every session of the account; a password change every other one', async () => {
    const org = await organisation(`Reset-${engine}`);
    const email = `someone@reset-${engine}.test`;
    const first = await member(org, email);
    const second = await signedIn(email);

    // The operator invites the address again: a password reset, once accepted.
    const reset = new Person(service.url!);
    expect((await reset.acceptInvite(await invite(org, email), 'the-reset-password-1')).status).toBe(303);
    expect(await sessionOf(first)).toEqual(ENDED);
    expect(await sessionOf(second)).toEqual(ENDED);
    expect(await sessionOf(reset)).toBe('open');
    expect((await new Person(service.url!).signIn(email, PASSWORD)).status).toBe(401);

    const elsewhere = await signedIn(email, 'the-reset-password-1');
    const wrong = await reset.post(
      '/account/password',
      { current: 'not-it', password: 'the-third-password' },
      '/account',
    );
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Expected your current password, received another.');
    const spaces = await reset.post(
      '/account/password',
      { current: 'the-reset-password-1', password: ' '.repeat(12) },
      '/account',
    );
    expect(spaces.status).toBe(400);
    expect(await sessionOf(elsewhere)).toBe('open');
    const changed = await reset.post(
      '/account/password',
      { current: 'the-reset-password-1', password: 'the-third-password' },
      '/account',
    );
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('id="password-changed"');
    expect(await sessionOf(elsewhere)).toEqual(ENDED);
    // The session that changed it goes on, under a new cookie.
    expect(await sessionOf(reset)).toBe('open');
    expect((await new Person(service.url!).signIn(email, 'the-reset-password-1')).status).toBe(401);
    await signedIn(email, 'the-third-password');
  });

  /** Sends the invite form to a withdrawn link (its page has no form: the token of the sign-in page). */
  async function acceptWithdrawn(link: string) {
    const person = new Person(service.url!);
    return person.request('POST', link.replace(/^https?:\/\/[^/]+/, ''), {
      _csrf: await person.token('/'),
      password: PASSWORD,
    });
  }

  test('a newer invite withdraws the older; an invite of another organisation is refused for a member', async () => {
    const x = await organisation(`Xeno-${engine}`);
    const y = await organisation(`Ypsilon-${engine}`);
    const email = `someone@twice-${engine}.test`;
    // An invite of X, still open, then one of Y: the X link no longer works.
    const ofX = await invite(x, email);
    const ofY = await invite(y, email);
    const stale = await new Person(service.url!).get(ofX.replace(/^https?:\/\/[^/]+/, ''));
    expect(stale.status).toBe(410);
    expect(stale.text).toContain('This invite link was withdrawn');
    expect((await acceptWithdrawn(ofX)).status).toBe(410);
    const joined = new Person(service.url!);
    expect((await joined.acceptInvite(ofY, PASSWORD)).status).toBe(303);
    // A member of Y: X's invite is refused when made, and Y's account keeps its password.
    const refused = await operator.post(`${x}/invites`, { email }, x);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('belongs to another organisation');
    expect(await sessionOf(joined)).toBe('open');
    expect(await sessionOf(await signedIn(email))).toBe('open');

    // Within one organisation too: of two invites of an address, the newer alone works.
    const older = await invite(y, `second@twice-${engine}.test`);
    const newer = await invite(y, `second@twice-${engine}.test`);
    expect((await acceptWithdrawn(older)).status).toBe(410);
    expect((await new Person(service.url!).acceptInvite(newer, PASSWORD)).status).toBe(303);
  });
});
