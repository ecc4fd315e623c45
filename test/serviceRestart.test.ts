/**
 * The certification service killed in the middle of a run (issue 25): `conformance service` is
 * killed (SIGKILL) while a run is running; started again on the same data folder, the database
 * opens intact and the run is performed again (attempt 2) to one verdict, never lost. On
 * PostgreSQL, a web process and a `--workers-only` process share one pg-boss queue: every run
 * ends once, none twice.
 */
import { generateKeyPairSync } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { inviteLinkOf, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

/** The service's signing key (an Ed25519 private key, PKCS#8 PEM), shared by its processes. */
const SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const BIN = fileURLToPath(new URL('../bin/conformance.mjs', import.meta.url));
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const KEY = '12'.repeat(32);
const PG = postgresAvailable();
if (!PG) console.warn('PostgreSQL server binaries not installed: the two-worker PostgreSQL test is skipped');

let sandbox: RunningSandbox;
let slow: Server;
let slowUrl: string;
let pg: ThrowawayPostgres | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const target = new URL(sandbox.url);
  // The partner's server, slowed down (every answer 100 ms late) so that a run lasts long enough to be killed.
  slow = createServer((req, res) => {
    setTimeout(() => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }, 100);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(async () => {
  slow?.close();
  await sandbox?.close();
  pg?.stop();
});

function serviceProcess(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, 'service', '--port', '0', '--allow-ranges', 'loopback', ...args], {
    env: {
      PATH: process.env.PATH,
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: KEY,
      // Every process of one service signs with the same key (required with --database-url).
      CONFORMANCE_SERVICE_SIGNING_KEY: SIGNING_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = async (pattern: RegExp): Promise<string> => {
    for (;;) {
      const m = pattern.exec(out);
      if (m) return m[1] ?? m[0];
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`service exited: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child: child as ChildProcess, exited, ready };
}

async function partnerWithProducts(
  url: string,
  name: string,
  count: number,
): Promise<{ partner: Person; products: string[] }> {
  const operator = new Person(url);
  await operator.signIn(OPERATOR.email, OPERATOR.password);
  const org = (await operator.post('/organisations', { name }, '/organisations')).location!;
  const invite = await operator.post(`${org}/invites`, { email: `someone@${name.toLowerCase()}.test` }, org);
  const partner = new Person(url);
  await partner.acceptInvite(inviteLinkOf(invite.text), 'partner-password-1');
  const products: string[] = [];
  for (let i = 0; i < count; i++)
    products.push(
      (
        await partner.post('/products', {
          name: `${name} ${i}`,
          version: '1',
          baseUrl: slowUrl,
          only: 'diary-post-auth',
        })
      ).location!,
    );
  return { partner, products };
}

async function waitFor(person: Person, path: string, pattern: RegExp): Promise<string> {
  for (;;) {
    const page = await person.get(path);
    if (pattern.test(page.text)) return page.text;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('killed in the middle of a run, then started again: the run is performed again to one verdict', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-restart-'));
  const first = serviceProcess(['--data-dir', dataDir]);
  const url = await first.ready(/listening on (\S+)/);
  const { partner, products } = await partnerWithProducts(url, 'Kappa', 1);
  const run = (await partner.post(`${products[0]}/runs`, {}, products[0])).location!;
  await waitFor(partner, run, /id="state">running</);
  first.child.kill('SIGKILL');
  await first.exited;

  const second = serviceProcess(['--data-dir', dataDir]);
  const again = await second.ready(/listening on (\S+)/);
  try {
    const person = new Person(again);
    await person.signIn(OPERATOR.email, OPERATOR.password);
    const page = await waitFor(person, run, /id="state">(finished|failed)</);
    expect(page).toContain('id="state">finished<');
    const history = await person.get(products[0]);
    expect(history.text).toContain('finished (attempt 2)');
    expect(history.text).toContain('The worker running attempt 1 stopped before it ended: queued again.');
    // One run, one verdict.
    expect(history.text.match(/<tr><td><a href="\/runs\//g)).toHaveLength(1);
  } finally {
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }
}, 180_000);

test.skipIf(!PG)(
  'two processes share one PostgreSQL queue: every run ends once, none twice',
  async () => {
    const databaseUrl = await pg!.createDatabase(`workers_${Math.floor(Math.random() * 1e9)}`);
    const web = serviceProcess([
      '--database-url',
      databaseUrl,
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'service-web-')),
    ]);
    const url = await web.ready(/listening on (\S+)/);
    const workers = serviceProcess([
      '--workers-only',
      '--database-url',
      databaseUrl,
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'service-worker-')),
    ]);
    await workers.ready(/working on queued runs/);
    try {
      const teams = [await partnerWithProducts(url, 'Lambda', 2), await partnerWithProducts(url, 'Mu', 2)];
      const runs: { partner: Person; run: string }[] = [];
      for (const { partner, products } of teams)
        for (const product of products)
          runs.push({ partner, run: (await partner.post(`${product}/runs`, {}, product)).location! });
      for (const { partner, run } of runs) {
        const page = await waitFor(partner, run, /id="state">(finished|failed)</);
        expect(page).toContain('id="state">finished<');
        // Served by the web process whichever machine wrote it.
        const report = await partner.get(`${run}/report`);
        expect(report.status).toBe(200);
        expect(report.text).toContain('<html');
      }
      for (const { partner, products } of teams)
        for (const product of products) {
          const history = await partner.get(product);
          expect(history.text).not.toContain('attempt 2');
          expect(history.text.match(/<tr><td><a href="\/runs\//g)).toHaveLength(1);
        }
    } finally {
      workers.child.kill('SIGINT');
      web.child.kill('SIGINT');
      expect(await workers.exited).toBe(0);
      expect(await web.exited).toBe(0);
    }
  },
  240_000,
);
