/**
 * Client certifications as jobs of the certification service (issue 25), over real HTTP on the
 * embedded database: a partner registers a client product with its attestation, starts a
 * workspace, reads the addresses and credentials on the workspace page (and as JSON), and the
 * reference client (examples/reference-client) runs the scenarios against them: judged
 * conformant, and not conformant when it breaks a rule. "Finish and judge" ends a workspace the
 * client never called (inconclusive). Another organisation can neither see nor finish it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { type ClientConfig, type ClientFault, ReferenceClient } from '../examples/reference-client/referenceClient.ts';
import { type RunningService, startService } from '../service/startService.ts';
import {
  inviteLinkOf,
  newPartner,
  Person,
  startWorkspace as startWorkspaceOf,
} from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const ATTESTATION = {
  organisation: 'Lambda Health',
  product: 'Lambda PMS 4.2',
  environment: 'staging',
  person: 'QA lead',
};

let service: RunningService;
let partner: Person;
let stranger: Person;
let product: string;

const partnerOf = (name: string): Promise<Person> => newPartner(service.url!, OPERATOR, name);

beforeAll(async () => {
  service = await startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-client-')),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '12'.repeat(32),
    },
    allowRanges: ['loopback'],
  });
  [partner, stranger] = [await partnerOf('Lambda'), await partnerOf('Mu')];
  const registered = await partner.post('/products', {
    name: 'Lambda PMS',
    version: '4.2',
    kind: 'client',
    ...Object.fromEntries(Object.entries(ATTESTATION).map(([k, v]) => [`attestation.${k}`, v])),
  });
  expect(registered.status).toBe(303);
  product = registered.location!;
}, 60_000);
afterAll(() => service?.close());

/** Starts a workspace of the scenarios; answers the run's id. */
const startWorkspace = (scenarios: string[], timeoutSeconds = 120): Promise<string> =>
  startWorkspaceOf(partner, product, scenarios, timeoutSeconds);

/** The workspaces' addresses and credentials, once the worker has started them. */
async function workspacesOf(person: Person, runId: string): Promise<ClientConfig[]> {
  for (let i = 0; i < 200; i++) {
    const answer = await person.get(`/runs/${runId}/workspace.json`);
    if (answer.status === 200) return JSON.parse(answer.text) as ClientConfig[];
    expect(answer.status).toBe(409);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The workspaces never started');
}

async function ended(runId: string, on: RunningService = service) {
  for (let i = 0; i < 600; i++) {
    const row = await on.ctx.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    if (row.state === 'finished' || row.state === 'failed') return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The run never ended');
}

async function certifiedWith(scenarios: string[], faults: ClientFault[]) {
  const runId = await startWorkspace(scenarios);
  const configs = await workspacesOf(partner, runId);
  expect(configs.map((c) => c.scenario)).toEqual(scenarios);
  // The page shows what to configure, the credentials included (to the organisation only).
  const page = await partner.get(`/runs/${runId}/workspace`);
  expect(page.status).toBe(200);
  for (const c of configs) {
    expect(page.text).toContain(c.tokenUrl);
    expect(page.text).toContain(c.clientId);
    expect(page.text).toContain(c.clientSecret);
  }
  expect(page.text).toContain('Finish and judge');
  // Live through a script file: the pages' policy allows no inline script.
  expect(page.text).not.toMatch(/<script>/);
  expect(page.text).toContain(`<script src="/assets/workspace.js" data-run-id="${runId}"></script>`);
  const script = await fetch(`${service.url}/assets/workspace.js`);
  expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
  // The credentials rest sealed in the run's row.
  const row = await service.ctx.db
    .selectFrom('runs')
    .select('progress')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  for (const c of configs) expect(row.progress).not.toContain(c.clientSecret);
  await Promise.all(configs.map((c) => new ReferenceClient(c, faults).run().catch(() => {})));
  // A client that breaks a rule may not get to the scenario's end: the partner finishes it.
  if (faults.length > 0) await partner.post(`/runs/${runId}/finish`, {}, `/runs/${runId}/workspace`);
  const done = await ended(runId);
  const results = JSON.parse(
    (
      await service.ctx.db
        .selectFrom('run_files')
        .select('content')
        .where('run_id', '=', runId)
        .where('name', '=', 'results.json')
        .executeTakeFirstOrThrow()
    ).content,
  ) as RunResults;
  return { runId, done, results };
}

test('the reference client certified through a workspace job: conformant, with the product’s attestation', async () => {
  const started = Date.now();
  // Every scenario complete: judged without waiting for the time-out or the partner.
  const { runId, done, results } = await certifiedWith(['find-member-two-step', 'patient-create'], []);
  expect(done).toMatchObject({ state: 'finished', verdict: 'conformant', kind: 'client' });
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(results.attestation).toEqual(ATTESTATION);
  // Signed with the service's key, as a server run is.
  expect(done.signature).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+$/);
  expect(done.results_digest).toBe(results.integrity?.digest);
  expect(results.signedBy?.name).toBeTruthy();
  // Conformant on every testable requirement of its scenarios: a client certificate of their operations.
  const certificates = await service.ctx.db
    .selectFrom('certificates')
    .selectAll()
    .where('run_id', '=', runId)
    .execute();
  expect(certificates.map((c) => JSON.parse(c.scope ?? '{}'))).toEqual([
    { kind: 'client', documents: ['D1', 'D3'], operations: ['create-patient', 'find-member-v2'], leftOut: [] },
  ]);
  expect(results.results.filter((r) => r.status === 'fail')).toEqual([]);
  const report = await partner.get(`/runs/${runId}/report`);
  expect(report.status).toBe(200);
  expect(report.text).toContain('Lambda Health');
  const page = await partner.get(`/runs/${runId}/workspace`);
  expect(page.text).toContain('id="report"');
  expect(page.text).not.toContain('Finish and judge');
}, 120_000);

test('a client that creates a patient with an id of its own is judged not conformant', async () => {
  const { done, results } = await certifiedWith(['patient-create'], ['patient-with-own-id']);
  expect(done).toMatchObject({ state: 'finished', verdict: 'not-conformant' });
  expect(results.results.filter((r) => r.status === 'fail').map((r) => r.check)).toContain('client-create-without-id');
}, 120_000);

test('another organisation can neither see nor finish the workspace; its owner finishes it, inconclusive', async () => {
  const runId = await startWorkspace(['patient-create'], 600);
  const configs = await workspacesOf(partner, runId);
  // The product page links the open workspace.
  expect((await partner.get(product)).text).toContain(`<a href="/runs/${runId}/workspace">`);
  for (const path of [`/runs/${runId}/workspace`, `/runs/${runId}/workspace.json`]) {
    const answer = await stranger.get(path);
    expect(answer.status, path).toBe(404);
    expect(answer.text).not.toContain(configs[0].clientId);
  }
  expect((await stranger.post(`/runs/${runId}/finish`, {})).status).toBe(404);
  const still = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
  expect(still.state).toBe('running');
  expect(still.input).not.toContain('finishRequestedAt');

  // A workspace no request has reached says so once 30 s have passed (not only at the time-out):
  // the worker's progress is dated back, the page read again.
  const dated = async (ago: number) => {
    const progress = JSON.parse(still.progress as string) as { startedAt: string };
    progress.startedAt = new Date(Date.now() - ago).toISOString();
    await service.ctx.db
      .updateTable('runs')
      .set({ progress: JSON.stringify(progress) })
      .where('id', '=', runId)
      .execute();
    return (await partner.get(`/runs/${runId}/workspace`)).text;
  };
  expect(await dated(1_000)).not.toContain('class="no-request"');
  expect(await dated(31_000)).toContain(
    '<p class="no-request">No request has reached this workspace yet: configure your client with the discovery address, token endpoint and credentials below, then run the scenario.</p>',
  );

  const finish = await partner.post(`/runs/${runId}/finish`, {}, `/runs/${runId}/workspace`);
  expect(finish).toMatchObject({ status: 303, location: `/runs/${runId}/workspace` });
  const done = await ended(runId);
  // The client never called: the scenario did not end, and the verdict says it could not judge.
  expect(done).toMatchObject({ state: 'finished', verdict: 'inconclusive' });
  // The report says the workspace was finished early, not that 600 s passed.
  const results = JSON.parse(
    (
      await service.ctx.db
        .selectFrom('run_files')
        .select('content')
        .where('run_id', '=', runId)
        .where('name', '=', 'results.json')
        .executeTakeFirstOrThrow()
    ).content,
  ) as RunResults;
  const completed = results.results.find((r) => r.check === 'scenario-completed');
  expect(completed?.message).toMatch(
    /^Expected the client to run ".+" before the workspace was finished \(after \d+ of 600 s\), received 0 request\(s\) and no end: your client never made a create patient answered 201 or 200$/,
  );
  // A finished workspace cannot be finished again; its addresses are gone.
  const again = await partner.post(`/runs/${runId}/finish`, {}, `/runs/${runId}/workspace`);
  expect(again.status).toBe(400);
  expect(again.text).toContain('Expected a client certification still waiting, received one finished.');
  await expect(fetch(configs[0].tokenUrl, { method: 'POST' })).rejects.toThrow();
}, 120_000);

test('a server product starts no workspace, and unknown scenarios or time-outs are refused with one line', async () => {
  const server = (await partner.post('/products', { name: 'Lambda API', version: '1', baseUrl: 'http://127.0.0.1:9' }))
    .location!;
  const refused = await partner.post(`${server}/workspaces`, {}, server);
  expect(refused.status).toBe(400);
  expect(refused.text).toContain('Expected a client product, received a server product.');
  const unknown = await partner.post(`${product}/workspaces`, { scenarios: 'nope', timeoutSeconds: '5' }, product);
  expect(unknown.status).toBe(400);
  expect(unknown.text).toMatch(/Expected scenarios of find-member-two-step, .*received nope\./);
  expect(unknown.text).toContain('Expected a time-out of 30 to 3600 seconds, received &quot;5&quot;.');
});

describe.skipIf(!postgresAvailable())('on PostgreSQL, a web service and a workers-only service', () => {
  let pg: ThrowawayPostgres;
  let web: RunningService;
  let workers: RunningService;
  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    const databaseUrl = await pg.createDatabase(`client_${Math.floor(Math.random() * 1e9)}`);
    const environment = {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '56'.repeat(32),
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'service-client-pg-'));
    // The web service performs no run: the workspace is the other service's.
    web = await startService({ dataDir, databaseUrl, environment, workerConcurrency: 0 });
    workers = await startService({ dataDir, databaseUrl, environment, workersOnly: true });
  }, 120_000);
  afterAll(async () => {
    await web?.close();
    await workers?.close();
    pg?.stop();
  });

  test('the workspace started by the worker is shown by the web service, and finished from it', async () => {
    const operator = new Person(web.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    const org = (await operator.post('/organisations', { name: 'Omicron' }, '/organisations')).location!;
    const invite = await operator.post(`${org}/invites`, { email: 'someone@omicron.test' }, org);
    const person = new Person(web.url!);
    await person.acceptInvite(inviteLinkOf(invite.text), 'partner-password-1');
    const client = (await person.post('/products', { name: 'Omicron app', version: '1', kind: 'client' })).location!;
    const started = await person.post(
      `${client}/workspaces`,
      { scenarios: 'find-member-two-step', timeoutSeconds: '600' },
      client,
    );
    const runId = started.location!.split('/')[2];
    const [config] = await workspacesOf(person, runId);
    await new ReferenceClient(config).run();
    // Complete: judged by the worker without the partner's finish.
    expect(await ended(runId, web)).toMatchObject({ state: 'finished', verdict: 'conformant' });
    // A second workspace, never called, finished from the web service.
    const second = (
      await person.post(`${client}/workspaces`, { scenarios: 'patient-create', timeoutSeconds: '600' }, client)
    ).location!.split('/')[2];
    await workspacesOf(person, second);
    expect((await person.post(`/runs/${second}/finish`, {}, `/runs/${second}/workspace`)).status).toBe(303);
    expect(await ended(second, web)).toMatchObject({ state: 'finished', verdict: 'inconclusive' });
  }, 120_000);
});
