/**
 * The audit trail (issue 33, item 3), over real HTTP on 127.0.0.1 against a clean sandbox, on the
 * embedded database and on PostgreSQL (skipped with a line when its binaries are not installed):
 * a browser-less walk (an organisation, an invite accepted, a product registered, a secret entered,
 * a run started and certified, its certificate revoked with a reason and a confirmation) leaves
 * those actions on the operator's audit page, newest first, and in the JSON lines export, oldest
 * first, in the order they happened, with who, from where and on what, and never the secret's
 * value. A member of the organisation sees its rows alone; a member of another sees none of them;
 * someone not signed in is sent to the sign-in page (401 for the export). The table refuses every
 * update and delete, and retention leaves it whole. Pages hold 50 rows, older ones a link away.
 */
import { lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type AuditLine, audit } from '../service/audit.ts';
import { pruneRuns } from '../service/retention.ts';
import { AUDIT_PAGE } from '../service/routes/audit.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { inviteLinkOf, newPartner, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const PASSWORD = 'partner-password-1';
/** One operation keeps the run to seconds, and a conformant run of it earns a certificate. */
const ONLY = 'find-member-v2';
const SECRET_VALUE = 'the-secret-value-never-shown-9f3a';
const REASON = 'The partner withdrew the product from sale.';

let pg: ThrowawayPostgres | undefined;
let sandbox: RunningSandbox;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
  sandbox = await startSandbox({ port: 0 });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  pg?.stop();
});

const cookieOf = (person: Person) => [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** The export as the person fetches it: status, content type and its lines. */
async function exported(person: Person, query = ''): Promise<{ status: number; type: string; lines: AuditLine[] }> {
  const response = await fetch(`${person.base}/audit.jsonl${query}`, {
    headers: { cookie: cookieOf(person) },
    redirect: 'manual',
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    lines:
      response.status === 200
        ? text
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as AuditLine)
        : [],
  };
}

/** The actions of an audit page's rows, as listed (newest first). */
const actionsOn = (page: string): string[] =>
  [...page.matchAll(/<tr data-seq="\d+" data-action="([\w-]+)">/g)].map((m) => m[1]);

const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  let service: RunningService;
  let operator: Person;
  let partner: Person;
  let organisationId: string;
  let productPath: string;
  let runId: string;
  let certificateId: string;

  beforeAll(async () => {
    service = await startService({
      dataDir: mkdtempSync(join(tmpdir(), 'service-audit-')),
      ...(engine === 'postgres'
        ? { databaseUrl: await pg!.createDatabase(`audit_${Math.floor(Math.random() * 1e9)}`) }
        : {}),
      environment: {
        CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
        CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
        CONFORMANCE_SERVICE_KEY: '7e'.repeat(32),
      },
      allowRanges: ['loopback'],
      signIn: { max: 1000, windowMs: 60_000 },
    });
    operator = new Person(service.url!);
    expect((await operator.signIn(OPERATOR.email, OPERATOR.password)).status).toBe(303);
  }, 60_000);
  afterAll(() => service?.close());

  test('a walk (invite, register, a secret, a run certified, its certificate revoked) is listed in order on the operator’s page and in the export', async () => {
    const created = await operator.post('/organisations', { name: `Audited-${engine}` }, '/organisations');
    expect(created.status).toBe(303);
    const orgPath = created.location!;
    organisationId = orgPath.split('/').pop()!;
    const email = `someone@audited-${engine}.test`;
    const invite = await operator.post(`${orgPath}/invites`, { email }, orgPath);
    partner = new Person(service.url!);
    expect((await partner.acceptInvite(inviteLinkOf(invite.text), PASSWORD)).status).toBe(303);
    productPath = (
      await partner.post('/products', { name: 'Audited members', version: '1.0', baseUrl: sandbox.url, only: ONLY })
    ).location!;
    expect(productPath).toMatch(/^\/products\/[\w-]+$/);
    const saved = await partner.post(
      `${productPath}/config`,
      { mode: 'json', config: '', secrets: `AUDIT_TOKEN=${SECRET_VALUE}` },
      `${productPath}/config`,
    );
    expect(saved.status, saved.text).toBe(303);
    const run = await partner.post(`${productPath}/runs`, {}, productPath);
    expect(run.status).toBe(303);
    runId = run.location!.split('/').pop()!;
    // Until the run has ended (the test's own time-out bounds the wait).
    for (;;) {
      const row = await service.ctx.db
        .selectFrom('runs')
        .select('state')
        .where('id', '=', runId)
        .executeTakeFirstOrThrow();
      if (row.state !== 'queued' && row.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    certificateId = /<a id="certificate" href="\/certificates\/([\w-]+)">/.exec(
      (await partner.get(run.location!)).text,
    )![1];

    // Revocation asks for a reason and a confirmation.
    const certificatePage = (await operator.get(`/certificates/${certificateId}`)).text;
    expect(certificatePage).toMatch(/<textarea name="reason" required maxlength="2000">/);
    expect(certificatePage).toMatch(/<input type="checkbox" name="confirm" value="revoke" required>/);
    const unconfirmed = await operator.post(
      `/certificates/${certificateId}/revoke`,
      { reason: REASON },
      `/certificates/${certificateId}`,
    );
    expect(unconfirmed.status).toBe(400);
    const revoked = await operator.post(
      `/certificates/${certificateId}/revoke`,
      { reason: REASON, confirm: 'revoke' },
      `/certificates/${certificateId}`,
    );
    expect(revoked.status).toBe(303);
    expect((await partner.get(`/certificates/${certificateId}`)).text).toContain(
      `<span id="revocation-reason">${REASON}</span>`,
    );

    const walk = [
      'organisation-created',
      'invite',
      'invite-accepted',
      'product-registered',
      'secrets-changed',
      'run-started',
      'certificate-issued',
      'certificate-revoked',
    ];
    // The operator's page of the organisation: newest first.
    const page = await operator.get(`/audit?organisation=${organisationId}`);
    expect(page.status).toBe(200);
    expect(actionsOn(page.text)).toEqual([...walk].reverse());
    // The whole trail holds them in the same order, among the service's other rows (the operator's sign-in).
    const all = actionsOn((await operator.get('/audit')).text);
    expect(all.filter((a) => walk.includes(a))).toEqual([...walk].reverse());
    expect(all.at(-1)).toBe('sign-in');

    const { status, type, lines } = await exported(operator, `?organisation=${organisationId}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/jsonl/);
    expect(lines.map((l) => l.action)).toEqual(walk);
    expect(lines.map((l) => l.seq)).toEqual([...lines.map((l) => l.seq)].sort((a, b) => a - b));
    const [productId] = productPath.split('/').slice(-1);
    const by = Object.fromEntries(lines.map((l) => [l.action, l]));
    expect(by.invite).toMatchObject({
      actor: { kind: 'operator', email: OPERATOR.email },
      organisationId,
      address: '127.0.0.1',
    });
    expect(by.invite.detail).toContain(email);
    expect(by['product-registered']).toMatchObject({ actor: { kind: 'partner', email }, organisationId, productId });
    expect(by['secrets-changed'].detail).toBe('entered: AUDIT_TOKEN');
    expect(by['run-started']).toMatchObject({ actor: { kind: 'partner', email }, productId, runId });
    expect(by['certificate-issued']).toMatchObject({ actor: { kind: 'system' }, runId, certificateId });
    expect(by['certificate-revoked']).toMatchObject({
      actor: { kind: 'operator', email: OPERATOR.email },
      certificateId,
      runId,
      detail: REASON,
    });
    // Never a secret's value, on the page or in the export.
    const everything = await exported(operator);
    expect(JSON.stringify(everything.lines)).not.toContain(SECRET_VALUE);
    expect((await operator.get('/audit')).text).not.toContain(SECRET_VALUE);

    if (engine === 'sqlite') {
      // The run's folders, as the run engine wrote them and the service signed them: the service's alone.
      const folder = join(service.ctx.settings.dataDir, 'reports', runId);
      const modes = (path: string): number[] => {
        const stat = lstatSync(path);
        return stat.isDirectory()
          ? [stat.mode & 0o777, ...readdirSync(path).flatMap((n) => modes(join(path, n)))]
          : [stat.mode & 0o777];
      };
      const seen = modes(folder);
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.every((m) => m === 0o600 || m === 0o700)).toBe(true);
    }
  }, 180_000);

  test('a member sees their organisation’s rows alone; another organisation’s member none of them; not signed in, the sign-in page or 401', async () => {
    const mine = await exported(partner, '?organisation=none-of-mine');
    expect(mine.lines.length).toBeGreaterThan(0);
    expect(mine.lines.every((l) => l.organisationId === organisationId)).toBe(true);
    // The operator's own sign-in (no organisation) is not theirs.
    expect(mine.lines.some((l) => l.action === 'sign-in' && l.actor.email === OPERATOR.email)).toBe(false);
    const page = await partner.get('/audit');
    expect(page.status).toBe(200);
    expect(actionsOn(page.text)).toEqual(mine.lines.map((l) => l.action).reverse());
    // The addresses rows came from are the operator's to see, not a member's.
    const partnerSignIns = (await exported(operator)).lines.filter(
      (l) => l.action === 'invite-accepted' && l.organisationId === organisationId,
    );
    expect(partnerSignIns.map((l) => l.address)).toEqual(['127.0.0.1']);
    expect(mine.lines.filter((l) => l.address !== undefined)).toEqual([]);
    expect(page.text).not.toContain('<td>127.0.0.1</td>');

    const stranger = await newPartner(service.url!, operator, `Stranger-${engine}`);
    const theirs = await exported(stranger, `?organisation=${organisationId}`);
    expect(theirs.status).toBe(200);
    expect(theirs.lines.length).toBeGreaterThan(0);
    expect(theirs.lines.some((l) => l.organisationId === organisationId)).toBe(false);
    const strangerPage = (await stranger.get(`/audit?organisation=${organisationId}`)).text;
    expect(strangerPage).not.toContain(runId.slice(0, 8));
    expect(strangerPage).not.toContain('Audited members');
    expect(strangerPage).not.toContain('certificate-revoked');

    const anonymous = new Person(service.url!);
    expect(await anonymous.get('/audit')).toMatchObject({ status: 302, location: '/' });
    expect((await exported(anonymous)).status).toBe(401);
    expect(
      (await fetch(`${service.url}/audit.jsonl`, { headers: { cookie: 'conformance_session=forged' } })).status,
    ).toBe(401);
  });

  test('append-only: the database refuses an update or a delete, retention prunes none of it', async () => {
    const count = async () =>
      Number(
        (
          await service.ctx.db
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(service.ctx.db.updateTable('audit_events').set({ detail: 'rewritten' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(service.ctx.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
    await pruneRuns(service.ctx);
    expect(await count()).toBe(before);
  });

  test(`pages of ${AUDIT_PAGE} rows, newest first, older ones behind a link`, async () => {
    const created = await operator.post('/organisations', { name: `Paged-${engine}` }, '/organisations');
    const paged = created.location!.split('/').pop()!;
    for (let i = 0; i < AUDIT_PAGE + 5; i++)
      await audit(service.ctx, {
        action: 'product-changed',
        actor: { kind: 'system' },
        organisationId: paged,
        detail: `row ${i}`,
      });
    const first = (await operator.get(`/audit?organisation=${paged}`)).text;
    expect(actionsOn(first)).toHaveLength(AUDIT_PAGE);
    expect(first).toContain('<td>row 54</td>');
    const older = /<a id="audit-older" href="([^"]+)">/.exec(first)![1].replace(/&amp;/g, '&');
    const second = (await operator.get(older)).text;
    // The rest: five of the rows, then the organisation’s creation.
    expect(actionsOn(second)).toEqual([...Array(5).fill('product-changed'), 'organisation-created']);
    expect(second).toContain('<td>row 0</td>');
    expect(second).not.toContain('id="audit-older"');
  });
});
