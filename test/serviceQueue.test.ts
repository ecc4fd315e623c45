/**
 * The queue an operator can run for years (issue 33, item 1), over real HTTP on 127.0.0.1, on the
 * embedded database and on PostgreSQL (pg-boss; skipped with a line when its binaries are not
 * installed): organisations take worker slots in turn whatever the queue's depth (proved by the
 * order the worker takes runs, each claim's slot number, never by the clock); an organisation has
 * a limit of runs queued or running, beyond which a start is refused with a message (429, as a page
 * or JSON); a queued and a running run are cancelled by a member (the running one's engine stops);
 * retention prunes an old run's report and record and keeps the run a certificate rests on.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { migrationProvider } from '../service/db/migrations.ts';
import { openDatabase } from '../service/db/openDatabase.ts';
import type { Database } from '../service/db/schema.ts';
import { WasmSqlite } from '../service/db/wasmSqlite.ts';
import { cancelRun } from '../service/jobs/claims.ts';
import { pruneRuns } from '../service/retention.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
/** A product whose runs end at once: its address is private, refused before any request. */
const REFUSED_URL = 'http://10.1.2.3:8080';
const DAY = 86_400_000;

let pg: ThrowawayPostgres | undefined;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(() => pg?.stop());

/** A clock the tests move (retention). */
const clock = { offsetMs: 0 };

type Options = NonNullable<Parameters<typeof startService>[0]>;

async function databaseOf(engine: 'sqlite' | 'postgres'): Promise<Options> {
  return {
    dataDir: mkdtempSync(join(tmpdir(), 'service-queue-')),
    ...(engine === 'postgres'
      ? { databaseUrl: await pg!.createDatabase(`queue_${Math.floor(Math.random() * 1e9)}`) }
      : {}),
  };
}

function serviceOn(where: Options, extra: Options = {}): Promise<RunningService> {
  return startService({
    ...where,
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '9d'.repeat(32),
    },
    allowRanges: ['loopback'],
    now: () => new Date(Date.now() + clock.offsetMs),
    ...extra,
  });
}

/**
 * Waits until `ready` answers true, looking every 100 ms: no deadline of its own (the test's
 * time-out is the bound), so a loaded machine makes the wait longer, not the test fail.
 */
async function until(ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 100));
}

async function registered(partner: Person, name: string, baseUrl: string, only?: string): Promise<string> {
  const answer = await partner.post('/products', { name, version: '1', baseUrl, ...(only ? { only } : {}) });
  expect(answer.status, answer.text).toBe(303);
  return answer.location!;
}

/** Starts `n` runs of the product (one page's CSRF token for all); answers their ids. */
async function start(partner: Person, product: string, n: number): Promise<string[]> {
  const token = await partner.token(product);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = await partner.request('POST', `${product}/runs`, { _csrf: token });
    expect(answer.status, answer.text).toBe(303);
    ids.push(answer.location!.split('/').pop()!);
  }
  return ids;
}

async function fetchAs(person: Person, method: 'GET' | 'POST', path: string, body?: Record<string, string>) {
  const response = await fetch(person.base + path, {
    method,
    redirect: 'manual',
    headers: {
      accept: 'application/json',
      cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const stateOf = async (service: RunningService, id: string) =>
  (await service.ctx.db.selectFrom('runs').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
const ended = (state: string) => state !== 'queued' && state !== 'running';

/** A server that accepts connections and never answers: a run against it stays running until stopped. */
async function silentServer(): Promise<{ url: string; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  test('a database of the schema before issue 33: its runs, files and certificates kept, and a run may now be cancelled', async () => {
    const where = await databaseOf(engine);
    const earlier = new Kysely<Database>({
      dialect:
        where.databaseUrl === undefined
          ? new SqliteDialect({ database: new WasmSqlite(join(where.dataDir!, 'service.db')) })
          : new PostgresDialect({
              pool: new (await import('pg')).default.Pool({ connectionString: where.databaseUrl, max: 1 }),
            }),
    });
    expect(
      (await new Migrator({ db: earlier, provider: migrationProvider }).migrateTo('0004-scope-and-superseding')).error,
    ).toBeUndefined();
    const at = new Date(0).toISOString();
    await earlier.insertInto('organisations').values({ id: 'o1', name: 'Acme', created_at: at }).execute();
    await earlier
      .insertInto('products')
      .values({
        id: 'p1',
        organisation_id: 'o1',
        name: 'P',
        version: '1',
        base_url: 'http://x',
        only: null,
        created_at: at,
        attestation: null,
      })
      .execute();
    const run = (id: string, state: 'queued' | 'finished') => ({
      id,
      product_id: 'p1',
      organisation_id: 'o1',
      state,
      verdict: state === 'finished' ? 'conformant' : null,
      coverage_judged: null,
      coverage_in_scope: null,
      report_dir: null,
      progress: null,
      problem: null,
      created_at: at,
      started_at: null,
      finished_at: null,
      lease_until: null,
      worker: null,
    });
    await earlier
      .insertInto('runs')
      .values([run('r1', 'finished'), run('r2', 'queued')])
      .execute();
    await earlier.insertInto('run_files').values({ run_id: 'r1', name: 'results.json', content: '{}' }).execute();
    await earlier
      .insertInto('certificates')
      .values({
        id: 'c1',
        organisation_id: 'o1',
        product_id: 'p1',
        run_id: 'r1',
        issued_at: at,
        expires_at: at,
        revoked_at: null,
        jws: null,
      })
      .execute();
    await earlier.destroy();

    const opened = await openDatabase({ dataDir: where.dataDir!, databaseUrl: where.databaseUrl });
    try {
      const db = opened.db;
      expect(await db.selectFrom('runs').select(['id', 'state', 'slot']).orderBy('id').execute()).toEqual([
        { id: 'r1', state: 'finished', slot: null },
        { id: 'r2', state: 'queued', slot: null },
      ]);
      expect(await db.selectFrom('run_files').select('run_id').execute()).toEqual([{ run_id: 'r1' }]);
      expect(await db.selectFrom('certificates').select('run_id').execute()).toEqual([{ run_id: 'r1' }]);
      expect(await db.selectFrom('organisations').select(['last_slot', 'disabled_at']).execute()).toEqual([
        { last_slot: 0, disabled_at: null },
      ]);
      // The rebuilt table keeps its keys and checks: a file of no run, or an unknown state, is refused.
      await expect(
        db.insertInto('run_files').values({ run_id: 'none', name: 'x', content: '' }).execute(),
      ).rejects.toThrow();
      await expect(
        db
          .updateTable('runs')
          .set({ state: 'lost' as 'failed' })
          .where('id', '=', 'r2')
          .execute(),
      ).rejects.toThrow();
      const ctx = { db, now: () => new Date() } as Parameters<typeof cancelRun>[0];
      expect(await cancelRun(ctx, 'r2', 'Cancelled by a test.')).toBe(true);
      expect(await cancelRun(ctx, 'r1', 'Cancelled by a test.')).toBe(false);
    } finally {
      await opened.close();
    }
  });

  test('105 queued runs of one organisation delay another’s by one run at most: organisations take the worker in turn', async () => {
    const where = await databaseOf(engine);
    // Queued while no worker works (the workers were down), then one worker slot takes them.
    const queueing = await serviceOn(where, { workerConcurrency: 0, organisationQueueLimit: 200 });
    const runs: Record<'A' | 'B' | 'C', string[]> = { A: [], B: [], C: [] };
    try {
      for (const [name, n] of [
        ['A', 105],
        ['B', 1],
        ['C', 2],
      ] as const) {
        const partner = await newPartner(queueing.url!, OPERATOR, `${name}-queue-${engine}`);
        runs[name] = await start(partner, await registered(partner, name, REFUSED_URL), n);
      }
    } finally {
      await queueing.close();
    }
    const working = await serviceOn(where, { workerConcurrency: 1, organisationQueueLimit: 200 });
    try {
      const waiting = [...runs.B, ...runs.C];
      await until(async () => (await Promise.all(waiting.map((id) => stateOf(working, id)))).every(ended));
      const taken = await working.ctx.db
        .selectFrom('runs')
        .select(['id', 'slot'])
        .where('slot', 'is not', null)
        .orderBy('slot')
        .execute();
      const organisationOf = (id: string) => (['A', 'B', 'C'] as const).find((o) => runs[o].includes(id));
      // The oldest run first; then each organisation in turn, the one that least recently had the slot.
      expect(taken.slice(0, 5).map((r) => organisationOf(r.id))).toEqual(['A', 'B', 'C', 'A', 'C']);
      expect(taken.slice(0, 5).map((r) => r.slot)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await working.close();
    }
  }, 300_000);

  test('beyond its limit of runs queued or running, an organisation’s start is refused (429) with a message; a cancelled queued run makes room', async () => {
    const service = await serviceOn(await databaseOf(engine), { workerConcurrency: 0, organisationQueueLimit: 2 });
    try {
      const partner = await newPartner(service.url!, OPERATOR, `Limited-${engine}`);
      const product = await registered(partner, 'Limited', REFUSED_URL);
      const [first] = await start(partner, product, 2);
      const refused = await partner.post(`${product}/runs`, {}, product);
      expect(refused.status).toBe(429);
      expect(refused.text).toContain(
        'Expected at most 2 runs queued or running for the organisation, received a start beyond them (2 are): cancel one or wait for one to end, then start again.',
      );
      const asJson = await fetchAs(partner, 'POST', `${product}/runs`, { _csrf: await partner.token(product) });
      expect(asJson.status).toBe(429);
      expect(asJson.json.error).toMatch(/^Expected at most 2 runs queued or running/);
      // Another organisation is not limited by this one's runs.
      const other = await newPartner(service.url!, OPERATOR, `Unlimited-${engine}`);
      await start(other, await registered(other, 'Unlimited', REFUSED_URL), 1);

      // Cancel a queued run: a member of the organisation, with the page's form; another's member gets 404.
      expect((await other.post(`/runs/${first}/cancel`, {})).status).toBe(404);
      expect((await partner.request('POST', `/runs/${first}/cancel`, {})).status).toBe(403);
      const page = await partner.get(`/runs/${first}`);
      expect(page.text).toContain(`action="/runs/${first}/cancel"`);
      expect(await partner.post(`/runs/${first}/cancel`, {}, `/runs/${first}`)).toMatchObject({
        status: 303,
        location: `/runs/${first}`,
      });
      const cancelled = await partner.get(`/runs/${first}`);
      expect(cancelled.text).toContain('id="state">cancelled<');
      expect(cancelled.text).not.toContain(`action="/runs/${first}/cancel"`);
      expect(await fetchAs(partner, 'GET', `/runs/${first}.json`)).toMatchObject({
        status: 200,
        json: { id: first, state: 'cancelled', verdict: null },
      });
      // Nothing left to cancel: 409.
      const again = await fetchAs(partner, 'POST', `/runs/${first}/cancel`, { _csrf: await partner.token(product) });
      expect(again).toMatchObject({ status: 409 });
      expect(again.json.error).toContain('received a cancelled one');
      // Room again.
      expect((await partner.post(`${product}/runs`, {}, product)).status).toBe(303);
    } finally {
      await service.close();
    }
  }, 120_000);

  test('a running run cancelled: recorded cancelled at once, its engine stops, nothing of it is written after', async () => {
    const silent = await silentServer();
    const service = await serviceOn(await databaseOf(engine), { workerConcurrency: 1, claimCheckMs: 200 });
    try {
      const partner = await newPartner(service.url!, OPERATOR, `Stopped-${engine}`);
      const product = await registered(partner, 'Stopped', silent.url, 'diary-post-auth');
      const [id] = await start(partner, product, 1);
      // Running, and waiting on the target's answer.
      await until(async () => (await stateOf(service, id)) === 'running' && silent.sockets.size > 0);
      expect(await partner.post(`/runs/${id}/cancel`, {}, `/runs/${id}`)).toMatchObject({ status: 303 });
      expect(await fetchAs(partner, 'GET', `/runs/${id}.json`)).toMatchObject({ json: { state: 'cancelled' } });
      // The worker sees it and stops the run's engine (a request in flight ends at its time-out at the
      // latest): the worker's slot is free.
      await until(async () => service.workers.active === 0);
      const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'cancelled', verdict: null, signature: null });
      expect(row.problem).toBe(`Cancelled by someone@stopped-${engine}.test.`);
      expect(await service.ctx.db.selectFrom('run_files').select('name').where('run_id', '=', id).execute()).toEqual(
        [],
      );
      expect(existsSync(join(service.ctx.settings.dataDir, 'reports', id))).toBe(false);
      const page = await partner.get(`/runs/${id}`);
      expect(page.text).toContain('id="state">cancelled<');
      expect(page.text).toContain('Cancelled by someone@stopped-');
    } finally {
      await service.close();
      await silent.close();
    }
  }, 120_000);
});

describe('retention', () => {
  let clean: RunningSandbox;
  let faulty: RunningSandbox;
  beforeAll(async () => {
    clean = await startSandbox({ port: 0 });
    faulty = await startSandbox({ port: 0, faults: ['no-match-status-200'] });
  }, 60_000);
  afterAll(async () => {
    await clean?.close();
    await faulty?.close();
  });

  test('past --retain-days an old run’s report and record are pruned; a certified run keeps its evidence', async () => {
    const service = await serviceOn(await databaseOf('sqlite'), { retainDays: 30 });
    try {
      const partner = await newPartner(service.url!, OPERATOR, 'Kept');
      const certified = await registered(partner, 'Certified', clean.url, 'find-member-v2');
      const broken = await registered(partner, 'Broken', faulty.url, 'find-member-v2');
      const [kept] = await start(partner, certified, 1);
      const [old] = await start(partner, broken, 1);
      await until(async () => ended(await stateOf(service, kept)) && ended(await stateOf(service, old)));
      const certificate = /<a id="certificate" href="(\/certificates\/[\w-]+)">/.exec(
        (await partner.get(`/runs/${kept}`)).text,
      )?.[1];
      expect(certificate, 'the clean run earns a certificate').toBeDefined();
      expect((await partner.get(`/runs/${old}/report`)).status).toBe(200);
      const folder = (id: string) => join(service.ctx.settings.dataDir, 'reports', id);
      expect(existsSync(folder(old))).toBe(true);

      // Within the days kept, nothing goes.
      clock.offsetMs = 29 * DAY;
      expect(await pruneRuns(service.ctx)).toEqual({ runs: 0, folders: 0 });
      clock.offsetMs = 31 * DAY;
      expect((await pruneRuns(service.ctx)).runs).toBe(1);
      // A month on, the partner signs in afresh (sessions last hours).
      await partner.signIn('someone@kept.test', 'partner-password-1');
      expect((await partner.get(`/runs/${old}`)).status).toBe(404);
      expect((await partner.get(`/runs/${old}/report`)).status).toBe(404);
      expect(existsSync(folder(old))).toBe(false);
      expect(await service.ctx.db.selectFrom('run_files').select('name').where('run_id', '=', old).execute()).toEqual(
        [],
      );
      // The certified run: its page, report, signed folder and certificate stay.
      expect((await partner.get(`/runs/${kept}`)).status).toBe(200);
      expect((await partner.get(`/runs/${kept}/report`)).status).toBe(200);
      expect((await partner.get(`/runs/${kept}/report.tar.gz`)).status).toBe(200);
      expect(existsSync(folder(kept))).toBe(true);
      expect((await new Person(service.url!).get(certificate!)).status).toBe(200);
    } finally {
      clock.offsetMs = 0;
      await service.close();
    }
  }, 240_000);
});
