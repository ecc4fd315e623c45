/**
 * The certification service's runs (issue 25), over real HTTP against a sandbox as the partner's
 * server, on the embedded database (in-process jobs) and on PostgreSQL (pg-boss): a partner
 * starts a run, follows it live (server-sent events), reads the report, and after the server
 * breaks a rule sees the run fail and the history say what changed. Claims honour one run per
 * product and the organisation's limit; a dead worker's run is retried once, then failed; a
 * verdict is written only under the claim that holds; private addresses are refused. A certificate
 * written with its run supersedes, in the same transaction, the standing ones of its product's
 * version and scope, and no other (issue 32).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { iso, type ServiceContext } from '../service/context.ts';
import { certificateStatus } from '../service/certificates.ts';
import type { CertificatesTable } from '../service/db/schema.ts';
import { claimNextRun, finishRun, recoverRuns } from '../service/jobs/claims.ts';
import { guardTarget, TargetRefused } from '../service/ssrf.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, type Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };

let pg: ThrowawayPostgres | undefined;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(() => pg?.stop());

async function serviceOn(engine: 'sqlite' | 'postgres', extra: Parameters<typeof startService>[0] = {}) {
  return startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-runs-')),
    ...(engine === 'postgres'
      ? { databaseUrl: await pg!.createDatabase(`runs_${Math.floor(Math.random() * 1e9)}`) }
      : {}),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'ef'.repeat(32),
    },
    allowRanges: ['loopback'],
    ...extra,
  });
}

const partnerOf = (service: RunningService, name: string): Promise<Person> => newPartner(service.url!, OPERATOR, name);

/** Reads the run's server-sent events until `done`; answers every event's name and data. */
async function followRun(person: Person, runId: string): Promise<{ event: string; data: string }[]> {
  const response = await fetch(`${person.base}/runs/${runId}/events`, {
    headers: { cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
      data: /^data: (.*)$/m.exec(block)?.[1] ?? '',
    }));
}

const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  let service: RunningService;
  let sandbox: RunningSandbox;
  let port: number;
  beforeAll(async () => {
    service = await serviceOn(engine);
    sandbox = await startSandbox({ port: 0 });
    port = Number(new URL(sandbox.url).port);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await sandbox?.close();
  });

  test('a partner runs a product, follows it live, reads the report; a broken rule fails the next run and the history names it', async () => {
    const partner = await partnerOf(service, `Gamma-${engine}`);
    const product = (
      await partner.post('/products', {
        name: 'Gamma server',
        version: '2.1',
        baseUrl: sandbox.url,
        only: 'diary-post-auth',
      })
    ).location!;
    const first = (await partner.post(`${product}/runs`, {}, product)).location!;
    const firstId = first.split('/').pop()!;
    const events = await followRun(partner, firstId);
    expect(events.map((e) => e.event)).toContain('progress');
    expect(events.some((e) => /suites done/.test(e.data))).toBe(true);
    expect(events.at(-1)?.event).toBe('done');
    const runPage = await partner.get(first);
    expect(runPage.text).toMatch(/State: <strong id="state">finished<\/strong>/);
    const firstRow = await service.ctx.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', firstId)
      .executeTakeFirstOrThrow();
    expect(firstRow).toMatchObject({ state: 'finished', attempt: 1 });
    expect(firstRow.verdict).not.toBe('not-conformant');
    expect(firstRow.coverage_in_scope).toBeGreaterThan(0);
    const report = await partner.get(`${first}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/html/);
    expect(report.text).toContain('<html');

    // The partner's server now breaks a documented rule of the operation.
    await sandbox.close();
    sandbox = await startSandbox({ port, faults: ['diary-unmapped-as-unauthorized'] });
    const second = (await partner.post(`${product}/runs`, {}, product)).location!;
    const secondId = second.split('/').pop()!;
    expect((await followRun(partner, secondId)).at(-1)?.event).toBe('done');
    const secondRow = await service.ctx.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', secondId)
      .executeTakeFirstOrThrow();
    expect(secondRow).toMatchObject({ state: 'finished', verdict: 'not-conformant' });
    const history = await partner.get(product);
    expect(history.text).toMatch(/\d+ new, 0 fixed<ul class="new-findings"><li>MUST /);
    expect(history.text).toContain('verdict-not-conformant');
    // The chart: one point per finished run, the latest red (not conformant).
    const chart = /<svg id="history-chart"[\s\S]*?<\/svg>/.exec(history.text)![0];
    expect(chart.match(/<circle /g)).toHaveLength(2);
    expect(chart).toMatch(/fill="#a00"><title>[^<]*: not-conformant/);
  }, 240_000);

  test('a config naming a variable of the service’s own environment is refused before any request', async () => {
    const partner = await partnerOf(service, `Epsilon-${engine}`);
    const product = (
      await partner.post('/products', { name: 'Epsilon', version: '1', baseUrl: sandbox.url, only: 'diary-post-auth' })
    ).location!;
    const { DEMO_CONFIG_FILE } = await import('../server/demoConfig.ts');
    const { readFileSync } = await import('node:fs');
    const config = readFileSync(DEMO_CONFIG_FILE, 'utf8').replaceAll(
      'CONFORMANCE_CLIENT_SECRET',
      'CONFORMANCE_SERVICE_KEY',
    );
    expect(
      (await partner.post(`${product}/config`, { config, secrets: 'CONFORMANCE_SERVICE_KEY=mine' }, product)).status,
    ).toBe(303);
    const run = (await partner.post(`${product}/runs`, {}, product)).location!;
    await followRun(partner, run.split('/').pop()!);
    const page = await partner.get(run);
    expect(page.text).toContain('id="state">failed<');
    expect(page.text).toContain('The config names CONFORMANCE_SERVICE_KEY, set in the service&#39;s own environment');
  }, 60_000);

  test('a product URL in a private range is refused, with one line on the run, and no request is sent', async () => {
    const partner = await partnerOf(service, `Delta-${engine}`);
    const product = (await partner.post('/products', { name: 'Delta', version: '1', baseUrl: 'http://10.1.2.3:8080' }))
      .location!;
    const run = (await partner.post(`${product}/runs`, {}, product)).location!;
    expect((await followRun(partner, run.split('/').pop()!)).at(-1)?.data).toContain('"failed"');
    const page = await partner.get(run);
    expect(page.text).toContain('Refused: 10.1.2.3 resolves to 10.1.2.3, a private address');
  }, 60_000);
});

test('the SSRF guard judges every address a name resolves to; loopback only when allowed', async () => {
  const resolver = (addresses: string[]) => async () => addresses.map((address) => ({ address }));
  await expect(guardTarget('https://partner.example', [], resolver(['93.184.215.14']))).resolves.toBeUndefined();
  for (const [address, range] of [
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['192.168.1.5', 'private'],
    ['172.20.0.1', 'private'],
    ['fd00::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'reserved'],
  ]) {
    const refused = await guardTarget('https://partner.example', [], resolver(['93.184.215.14', address])).catch(
      (e) => e,
    );
    expect(refused, address).toBeInstanceOf(TargetRefused);
    expect((refused as Error).message).toContain(`a ${range} address`);
  }
  await expect(guardTarget('http://127.0.0.1:1', ['loopback'])).resolves.toBeUndefined();
  await expect(guardTarget('http://[::1]:1', [])).rejects.toThrow(/a loopback address/);
  await expect(guardTarget('file:///etc/passwd', ['loopback'])).rejects.toThrow(/Expected an http or https URL/);
});

describe('claims', () => {
  let service: RunningService;
  let ctx: ServiceContext;
  beforeAll(async () => {
    // No worker: the test claims by hand.
    service = await serviceOn('sqlite', { workerConcurrency: 0, organisationConcurrency: 2 });
    ctx = service.ctx;
  });
  afterAll(() => service?.close());

  // Each run queued a millisecond after the one before: runs queued in the same millisecond are
  // equally old, and the queue breaks that tie by id, which this test does not choose.
  let clock = Date.now();
  async function queued(organisationId: string, productId: string): Promise<string> {
    const id = randomUUID();
    clock += 1;
    await ctx.db
      .insertInto('runs')
      .values({
        id,
        product_id: productId,
        organisation_id: organisationId,
        state: 'queued',
        verdict: null,
        coverage_judged: null,
        coverage_in_scope: null,
        report_dir: null,
        progress: null,
        problem: null,
        created_at: iso(new Date(clock)),
        started_at: null,
        finished_at: null,
        lease_until: null,
        worker: null,
      })
      .execute();
    return id;
  }

  async function organisationWithProducts(n: number) {
    const org = randomUUID();
    await ctx.db
      .insertInto('organisations')
      .values({ id: org, name: org, created_at: iso(new Date()) })
      .execute();
    const products: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      await ctx.db
        .insertInto('products')
        .values({
          id,
          organisation_id: org,
          name: `p${i}`,
          version: '1',
          base_url: 'http://127.0.0.1:9',
          only: null,
          created_at: iso(new Date()),
        })
        .execute();
      products.push(id);
    }
    return { org, products };
  }

  test('one run per product at a time, and no more than the organisation’s limit', async () => {
    const { org, products } = await organisationWithProducts(3);
    const sameProduct = [await queued(org, products[0]), await queued(org, products[0])];
    await queued(org, products[1]);
    await queued(org, products[2]);
    const first = await claimNextRun(ctx, 'test');
    const second = await claimNextRun(ctx, 'test');
    const third = await claimNextRun(ctx, 'test');
    expect(first?.runId).toBe(sameProduct[0]);
    expect(second).toBeDefined();
    expect(second?.runId).not.toBe(sameProduct[1]);
    // The organisation's limit is 2.
    expect(third).toBeUndefined();
    // Another organisation is not held back by this one.
    const other = await organisationWithProducts(1);
    const elsewhere = await queued(other.org, other.products[0]);
    expect((await claimNextRun(ctx, 'test'))?.runId).toBe(elsewhere);
  });

  test('a dead worker’s run is queued again once, then failed; a verdict is written only under the claim that holds', async () => {
    // A clean slate: the runs of the test before end.
    await ctx.db.updateTable('runs').set({ state: 'failed' }).execute();
    const { org, products } = await organisationWithProducts(1);
    const id = await queued(org, products[0]);
    const firstClaim = (await claimNextRun(ctx, 'dead-worker'))!;
    expect(firstClaim).toEqual({ runId: id, attempt: 1, kind: 'server' });
    // The service restarts: every running run of the embedded engine belonged to the dead process.
    expect(await recoverRuns(ctx, { everyRunning: true })).toContain(id);
    const retried = await ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(retried).toMatchObject({ state: 'queued', attempt: 1 });
    expect(retried.problem).toContain('queued again');
    const secondClaim = (await claimNextRun(ctx, 'second-worker'))!;
    expect(secondClaim).toEqual({ runId: id, attempt: 2, kind: 'server' });
    // The first worker, thought dead, comes back with a verdict: not written.
    const outcome = {
      state: 'finished' as const,
      verdict: 'conformant',
      coverage_judged: 1,
      coverage_in_scope: 1,
      report_dir: null,
      problem: null,
    };
    expect(await finishRun(ctx, firstClaim, outcome)).toBe(false);
    // The second dies too: no attempts left, the run fails with no verdict.
    await recoverRuns(ctx, { everyRunning: true });
    const failed = await ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ state: 'failed', verdict: null, attempt: 2 });
    expect(await finishRun(ctx, secondClaim, outcome)).toBe(false);
  });

  test('a certificate supersedes the standing ones of its version and scope; a lost claim, none', async () => {
    await ctx.db.updateTable('runs').set({ state: 'failed' }).execute();
    const { org, products } = await organisationWithProducts(1);
    const earlierRun = await queued(org, products[0]);
    await ctx.db.updateTable('runs').set({ state: 'finished' }).where('id', '=', earlierRun).execute();
    const now = new Date();
    const leftOut = (reason: string) => [{ operation: 'ack-remittance', reason }];
    const scope = (operations: string[], left: { operation: string; reason: string }[]) =>
      JSON.stringify({ kind: 'server', documents: ['D1'], operations, leftOut: left });
    const certificate = (id: string, runId: string, other: Partial<CertificatesTable> = {}): CertificatesTable => ({
      id,
      organisation_id: org,
      product_id: products[0],
      run_id: runId,
      issued_at: iso(now),
      expires_at: iso(new Date(now.getTime() + 86_400_000)),
      revoked_at: null,
      jws: null,
      product_name: 'p0',
      product_version: '1',
      suite_version: '0.1.0',
      scope: scope(['find-member-v2'], leftOut('omitted: the product did not allow changes')),
      results_digest: null,
      superseded_by: null,
      superseded_at: null,
      ...other,
    });
    const earlier = [
      certificate('same', earlierRun),
      // The same operations left out for another reason: the same scope.
      certificate('same-otherwise-left-out', earlierRun, { scope: scope(['find-member-v2'], leftOut('not judged')) }),
      certificate('other-version', earlierRun, { product_version: '0.9' }),
      certificate('other-scope', earlierRun, { scope: scope(['ack-remittance', 'find-member-v2'], []) }),
      certificate('revoked', earlierRun, { revoked_at: iso(now) }),
      certificate('expired', earlierRun, { expires_at: iso(new Date(now.getTime() - 1000)) }),
    ];
    for (const c of earlier) await ctx.db.insertInto('certificates').values(c).execute();
    const id = await queued(org, products[0]);
    const claim = (await claimNextRun(ctx, 'worker'))!;
    expect(claim.runId).toBe(id);
    const outcome = {
      state: 'finished' as const,
      verdict: 'conformant',
      coverage_judged: 1,
      coverage_in_scope: 1,
      report_dir: null,
      problem: null,
    };
    const supersededBy = async () =>
      Object.fromEntries(
        (
          await ctx.db
            .selectFrom('certificates')
            .select(['id', 'superseded_by'])
            .where('product_id', '=', products[0])
            .execute()
        ).map((c) => [c.id, c.superseded_by]),
      );
    // A claim that no longer holds writes neither the certificate nor its superseding.
    expect(await finishRun(ctx, { ...claim, attempt: claim.attempt + 1 }, outcome, {}, certificate('lost', id))).toBe(
      false,
    );
    expect(Object.values(await supersededBy())).toEqual(earlier.map(() => null));
    expect(await finishRun(ctx, claim, outcome, {}, certificate('newest', id))).toBe(true);
    expect(await supersededBy()).toEqual({
      same: 'newest',
      'same-otherwise-left-out': 'newest',
      'other-version': null,
      'other-scope': null,
      revoked: null,
      expired: null,
      newest: null,
    });
    const rows = await ctx.db.selectFrom('certificates').selectAll().where('product_id', '=', products[0]).execute();
    const statusOf = (id: string) => certificateStatus(rows.find((r) => r.id === id)!, now);
    expect(['same', 'other-scope', 'revoked', 'expired', 'newest'].map(statusOf)).toEqual([
      'superseded',
      'valid',
      'revoked',
      'expired',
      'valid',
    ]);
    expect(rows.find((r) => r.id === 'same')?.superseded_at).toBe(iso(now));
  });
});
