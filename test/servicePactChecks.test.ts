/**
 * Pact checks as jobs of the certification service (issue 25), over real HTTP on the embedded
 * database: a partner uploads the pact of its consumer test (examples/partner-consumer, written by
 * Pact's own mock server) and the run judges it as `conformance pact check` does, verification
 * against a fresh sandbox included: conformant without the batch cycle reserved for the operator's
 * products, not conformant with it; a file that is no pact fails the run with one line.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { writePartnerPact } from '../examples/partner-consumer/writePartnerPact.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, type Person } from '../service/testSupport/browserless.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };

let service: RunningService;
let partner: Person;
let product: string;
let examplePact: string;

const partnerOf = (name: string): Promise<Person> => newPartner(service.url!, OPERATOR, name);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-pacts-'));
  service = await startService({
    dataDir: join(dir, 'data'),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '34'.repeat(32),
    },
    allowRanges: ['loopback'],
  });
  examplePact = readFileSync(await writePartnerPact(join(dir, 'partner')), 'utf8');
  partner = await partnerOf('Nu');
  product = (await partner.post('/products', { name: 'Nu practice app', version: '3', kind: 'client' })).location!;
}, 60_000);
afterAll(() => service?.close());

/** Uploads a pact on the product's pact page; answers the run's row once it has ended. */
async function checked(pact: string) {
  const pacts = `${product}/pacts`;
  const answer = await partner.post(pacts, { pact }, pacts);
  expect(answer.status).toBe(303);
  const runId = answer.location!.split('/').pop()!;
  for (let i = 0; i < 1200; i++) {
    const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    if (row.state === 'finished' || row.state === 'failed') {
      const file = await service.ctx.db
        .selectFrom('run_files')
        .select('content')
        .where('run_id', '=', runId)
        .where('name', '=', 'results.json')
        .executeTakeFirst();
      return { row, results: file ? (JSON.parse(file.content) as RunResults) : undefined };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The pact check never ended');
}

test('the partner example without the reserved batch cycle is conformant; the report is served', async () => {
  const pact = JSON.parse(examplePact) as { interactions: { request: { path: string } }[] };
  pact.interactions = pact.interactions.filter((i) => !i.request.path.startsWith('/claims/'));
  const { row, results } = await checked(JSON.stringify(pact, null, 2));
  expect(row).toMatchObject({ state: 'finished', verdict: 'conformant', kind: 'pact' });
  expect(results?.results.filter((r) => r.status === 'fail')).toEqual([]);
  // Signed as any run is, and no certificate: a pact is not the client's behaviour.
  expect(row.signature).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+$/);
  expect(row.results_digest).toBe(results?.integrity?.digest);
  // The signed statement says what it is: a client's pact, named as the upload, no folder of the service.
  const [, payload] = (row.signature as string).split('.');
  const statement = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8')) as Record<string, unknown>;
  expect(statement).toMatchObject({
    party: 'client',
    target: 'pact partner-practice-app -> api-family (the uploaded pact file)',
  });
  expect(JSON.stringify(results)).not.toContain(service.ctx.settings.dataDir);
  expect(await service.ctx.db.selectFrom('certificates').selectAll().where('run_id', '=', row.id).execute()).toEqual(
    [],
  );
  // Part (c): every interaction verified with Pact's Verifier against a fresh sandbox.
  expect(results?.results.filter((r) => r.check === 'pact-interaction-verified').length).toBe(pact.interactions.length);
  const report = await partner.get(`/runs/${row.id}/report`);
  expect(report.status).toBe(200);
  expect(report.text).toContain('partner-practice-app');
  const page = await partner.get(`${product}/pacts`);
  expect(page.text).not.toMatch(/<script>/);
  expect(page.text).toContain('<script src="/assets/pact-file.js"></script>');
  expect((await fetch(`${service.url}/assets/pact-file.js`)).status).toBe(200);
  expect(page.text).toMatch(
    new RegExp(`<a href="/runs/${row.id}">[^<]+</a></td><td>finished</td><td class="verdict-conformant">`),
  );
}, 120_000);

test('the whole example, which acknowledges remittance batches, is not conformant for a partner', async () => {
  const { row, results } = await checked(examplePact);
  expect(row).toMatchObject({ state: 'finished', verdict: 'not-conformant' });
  expect(new Set(results?.results.filter((r) => r.status === 'fail').map((r) => r.check))).toEqual(
    new Set(['client-avoids-reserved']),
  );
}, 120_000);

test('a file that is no pact fails the run with one line; an empty one is refused at once', async () => {
  const { row } = await checked('{"consumer": {"name": "nu"}, "interactions": [');
  expect(row).toMatchObject({ state: 'failed', verdict: null });
  expect(row.problem).toMatch(/^the uploaded file is not JSON: .+$/);
  expect(row.problem).not.toContain(service.ctx.settings.dataDir);
  const page = await partner.get(`/runs/${row.id}`);
  expect(page.text).toContain('the uploaded file is not JSON');

  const empty = await partner.post(`${product}/pacts`, { pact: ' ' }, `${product}/pacts`);
  expect(empty.status).toBe(400);
  expect(empty.text).toContain('Expected a pact file, received none.');
}, 60_000);

test('another organisation sees no pact page and uploads nothing to the product', async () => {
  const stranger = await partnerOf('Xi');
  expect((await stranger.get(`${product}/pacts`)).status).toBe(404);
  expect((await stranger.post(`${product}/pacts`, { pact: examplePact })).status).toBe(404);
});
