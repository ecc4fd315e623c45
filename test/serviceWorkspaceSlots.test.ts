/**
 * An open client workspace mostly waits for the partner's client (for up to an hour), so it has room
 * of its own in a worker (settings.workspaceConcurrency) and never holds the slot of a server run
 * (settings.workerConcurrency); a client product is not run as a server; a pact file of up to 1 MB
 * is taken although form encoding makes its request larger. A real service (embedded database)
 * and a real sandbox on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SCENARIOS } from '../certify/scenarios.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import type { RunState } from '../service/db/schema.ts';
import { MAX_PACT_BYTES } from '../service/routes/pacts.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, type Person, startWorkspace as startWorkspaceOf } from '../service/testSupport/browserless.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };

let service: RunningService;
let sandbox: RunningSandbox;
let partner: Person;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  service = await startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-slots-')),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '34'.repeat(32),
    },
    allowRanges: ['loopback'],
    workerConcurrency: 1,
    workspaceConcurrency: 1,
    organisationConcurrency: 3,
  });
  partner = await newPartner(service.url!, OPERATOR, 'Slots');
}, 60_000);
afterAll(async () => {
  await service?.close();
  await sandbox?.close();
});

async function clientProduct(name: string): Promise<string> {
  const answer = await partner.post('/products', { name, version: '1', kind: 'client' });
  expect(answer.status).toBe(303);
  return answer.location!;
}

const startWorkspace = (product: string): Promise<string> => startWorkspaceOf(partner, product, [SCENARIOS[0].id], 300);

const stateOf = async (runId: string): Promise<RunState> =>
  (await service.ctx.db.selectFrom('runs').select('state').where('id', '=', runId).executeTakeFirstOrThrow()).state;

async function until(runId: string, states: RunState[]): Promise<RunState> {
  for (let i = 0; i < 1200; i++) {
    const state = await stateOf(runId);
    if (states.includes(state)) return state;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Expected run ${runId} to become ${states.join(' or ')}, it is ${await stateOf(runId)}`);
}

test('an open workspace holds no server run’s slot; a second workspace waits for the workspace slot', async () => {
  const [first, second] = [await clientProduct('Client A'), await clientProduct('Client B')];
  const server = (
    await partner.post('/products', { name: 'Server', version: '1', baseUrl: sandbox.url, only: 'diary-post-auth' })
  ).location!;

  const workspaceA = await startWorkspace(first);
  expect(await until(workspaceA, ['running'])).toBe('running');
  // One worker slot for server runs, and the workspace does not take it.
  const run = (await partner.post(`${server}/runs`, {}, server)).location!.split('/').pop()!;
  expect(await until(run, ['finished', 'failed'])).toBe('finished');
  expect(await stateOf(workspaceA)).toBe('running');

  // One workspace slot: the second waits while the first is open, and starts once it ends.
  const workspaceB = await startWorkspace(second);
  await new Promise((r) => setTimeout(r, 2500));
  expect(await stateOf(workspaceB)).toBe('queued');
  await partner.post(`/runs/${workspaceA}/finish`, {}, `/runs/${workspaceA}/workspace`);
  expect(await until(workspaceA, ['finished', 'failed'])).toBe('finished');
  expect(await until(workspaceB, ['running'])).toBe('running');
  await partner.post(`/runs/${workspaceB}/finish`, {}, `/runs/${workspaceB}/workspace`);
  expect(await until(workspaceB, ['finished', 'failed'])).toBe('finished');
  // The run page of a workspace links to it.
  expect((await partner.get(`/runs/${workspaceB}`)).text).toContain(`href="/runs/${workspaceB}/workspace"`);
}, 120_000);

test('a client product is not run as a server: one line, 400, nothing queued', async () => {
  const product = await clientProduct('Client C');
  const before = (await service.ctx.db.selectFrom('runs').select('id').execute()).length;
  const answer = await partner.post(`${product}/runs`, {}, product);
  expect(answer.status).toBe(400);
  expect(answer.text).toContain('Expected a server product, received a client product');
  expect((await service.ctx.db.selectFrom('runs').select('id').execute()).length).toBe(before);
});

test('a pact file of nearly 1 MB is taken although its form encoding is larger; a larger one is refused in one line', async () => {
  const product = await clientProduct('Client D');
  const pacts = `${product}/pacts`;
  // Quotes and braces are each three bytes form-encoded: the request is well over 1 MiB.
  const padding = Array.from({ length: Math.floor((MAX_PACT_BYTES - 200) / 10) }, () => ({ a: 'b' }));
  const pact = JSON.stringify({ consumer: { name: 'c' }, provider: { name: 'p' }, interactions: [], padding });
  expect(pact.length).toBeLessThanOrEqual(MAX_PACT_BYTES);
  const taken = await partner.post(pacts, { pact }, pacts);
  expect(taken.status).toBe(303);
  const refused = await partner.post(pacts, { pact: `${pact}${' '.repeat(4096)}` }, pacts);
  expect(refused.status).toBe(400);
  expect(refused.text).toMatch(/1 MB|1048576/);
});
