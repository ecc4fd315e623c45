/**
 * pg-boss's lost jobs (issue 25): a run left queued without a job (the process died between
 * writing the run and sending it, or pg-boss failed or expired the job) is sent again when a
 * worker starts, once however many workers look, and performed once (the claim is fenced). On a
 * throwaway PostgreSQL cluster; skipped with a line saying why when its server binaries are not
 * installed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { iso } from '../service/context.ts';
import { ORPHAN_AFTER_MS, RUN_QUEUE } from '../service/jobs/pgBossQueue.ts';
import { type RunningService, type ServiceOptions, startService } from '../service/startService.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG) console.warn('PostgreSQL server binaries not installed: the pg-boss tests of the service are skipped');

let pg: ThrowawayPostgres | undefined;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(() => pg?.stop());

const options = (databaseUrl: string, extra: ServiceOptions = {}): ServiceOptions => ({
  dataDir: mkdtempSync(join(tmpdir(), 'service-pgboss-')),
  databaseUrl,
  environment: { CONFORMANCE_SERVICE_KEY: 'ef'.repeat(32) },
  allowRanges: ['loopback'],
  ...extra,
});

/** The pg-boss jobs of a run, by state. */
async function jobsOf(service: RunningService, runId: string): Promise<string[]> {
  const rows = await sql<{ state: string }>`
    select state from pgboss.job where name = ${RUN_QUEUE} and data->>'runId' = ${runId}`.execute(service.ctx.db);
  return rows.rows.map((r) => r.state);
}

test.skipIf(!PG)(
  'a queued run without a job is sent again when workers start, once, and performed once',
  async () => {
    const databaseUrl = await pg!.createDatabase(`pgboss_${Date.now()}`);
    // A web process writes an organisation, a product and its run, and dies before sending the job.
    const web = await startService(options(databaseUrl, { workerConcurrency: 0 }));
    const { db } = web.ctx;
    const old = iso(new Date(Date.now() - 2 * ORPHAN_AFTER_MS));
    const [organisationId, productId, orphan, fresh] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await db.insertInto('organisations').values({ id: organisationId, name: 'Delta', created_at: old }).execute();
    await db
      .insertInto('products')
      .values({
        id: productId,
        organisation_id: organisationId,
        name: 'Delta server',
        version: '1.0',
        // Nothing listens there: the run is performed to a failure at once.
        base_url: 'http://127.0.0.1:9',
        only: 'diary-post-auth',
        created_at: old,
        attestation: null,
      })
      .execute();
    const run = (id: string, created: string) => ({
      id,
      product_id: productId,
      organisation_id: organisationId,
      state: 'queued' as const,
      verdict: null,
      coverage_judged: null,
      coverage_in_scope: null,
      report_dir: null,
      progress: null,
      problem: null,
      created_at: created,
      started_at: null,
      finished_at: null,
      lease_until: null,
      worker: null,
      input: null,
      results_digest: null,
      signature: null,
    });
    // The fresh one is being sent by its own request: no one sends it again yet.
    await db
      .insertInto('runs')
      .values([run(orphan, old), run(fresh, iso(new Date()))])
      .execute();
    await web.close();

    // Two worker processes start at once: both look for runs without a job.
    const workers = await Promise.all([
      startService(options(databaseUrl, { workersOnly: true, workerConcurrency: 1 })),
      startService(options(databaseUrl, { workersOnly: true, workerConcurrency: 1 })),
    ]);
    try {
      const [first] = workers;
      let state = '';
      for (let i = 0; i < 120 && !['finished', 'failed'].includes(state); i++) {
        await new Promise((r) => setTimeout(r, 250));
        state =
          (await first.ctx.db.selectFrom('runs').select('state').where('id', '=', orphan).executeTakeFirst())?.state ??
          '';
      }
      expect(state).toBe('failed');
      // Give a second job, had there been one, time to be worked on.
      await new Promise((r) => setTimeout(r, 1500));
      const ended = await first.ctx.db
        .selectFrom('runs')
        .selectAll()
        .where('id', '=', orphan)
        .executeTakeFirstOrThrow();
      expect(ended.attempt).toBe(1);
      expect(ended.problem).toMatch(/127\.0\.0\.1:9/);
      // One job was sent, by one of the two.
      expect(await jobsOf(first, orphan)).toHaveLength(1);
      // The fresh run was left to its own request.
      expect(await jobsOf(first, fresh)).toEqual([]);
      expect(
        (await first.ctx.db.selectFrom('runs').select('state').where('id', '=', fresh).executeTakeFirstOrThrow()).state,
      ).toBe('queued');
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  },
  120_000,
);
