/**
 * A worker paused past its lease sends nothing when it resumes (issue 33): the service runs in a
 * process of its own with a lease of 3 s against a slowed sandbox; the process is stopped
 * (SIGSTOP) in the middle of a run, another worker takes the run over meanwhile (the run's
 * attempt moves on in PostgreSQL, as another machine's claim does), and the process is resumed
 * (SIGCONT). The partner's server receives no request after the pause: every call starts only
 * while the lease holds (core/http.ts sendNoLaterThan), and a call in flight ends with the run.
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
import { patient } from './support/patience.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const SCRIPT = fileURLToPath(new URL('../service/testSupport/serviceProcess.ts', import.meta.url));
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const LEASE_MS = 3000;
const PG = postgresAvailable();
if (!PG) console.warn('PostgreSQL server binaries not installed: the paused-worker test is skipped');

let sandbox: RunningSandbox;
let slow: Server;
let slowUrl: string;
let pg: ThrowawayPostgres | undefined;
/** When each request reached the partner's server (performance.now()). */
const arrivals: number[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const target = new URL(sandbox.url);
  // Every answer 100 ms late, so that the run is still sending when the process is paused.
  slow = createServer((req, res) => {
    arrivals.push(performance.now());
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
}, patient(120_000));
afterAll(async () => {
  slow?.closeAllConnections();
  slow?.close();
  await sandbox?.close();
  pg?.stop();
});

async function until<T>(_what: string, look: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test.skipIf(!PG)(
  'stopped past its lease while another worker takes the run, then resumed: no request reaches the target',
  async () => {
    const databaseUrl = await pg!.createDatabase(`lease_${Math.floor(Math.random() * 1e9)}`);
    const child: ChildProcess = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        SCRIPT,
        JSON.stringify({
          databaseUrl,
          dataDir: mkdtempSync(join(tmpdir(), 'service-lease-')),
          port: 0,
          host: '127.0.0.1',
          allowRanges: ['loopback'],
          leaseMs: LEASE_MS,
          signingKeyRequired: false,
        }),
      ],
      {
        env: {
          PATH: process.env.PATH,
          CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
          CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
          CONFORMANCE_SERVICE_KEY: '34'.repeat(32),
          CONFORMANCE_SERVICE_SIGNING_KEY: generateKeyPairSync('ed25519')
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      err += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const { default: pgClient } = await import('pg');
    const db = new pgClient.Client({ connectionString: databaseUrl });
    try {
      const url = await until('the address', () => {
        if (child.exitCode !== null) throw new Error(`the service ended: ${err}`);
        return /listening on (\S+)/.exec(out)?.[1];
      });
      const operator = new Person(url);
      await operator.signIn(OPERATOR.email, OPERATOR.password);
      const org = (await operator.post('/organisations', { name: 'Nu' }, '/organisations')).location!;
      const invite = await operator.post(`${org}/invites`, { email: 'someone@nu.test' }, org);
      const partner = new Person(url);
      await partner.acceptInvite(inviteLinkOf(invite.text), 'partner-password-1');
      const product = (await partner.post('/products', { name: 'Nu app', version: '1', baseUrl: slowUrl }, '/products'))
        .location!;
      await partner.post(`${product}/runs`, {}, product);
      // The run is sending.
      await until('requests', () => (arrivals.length >= 20 ? true : undefined));

      child.kill('SIGSTOP');
      const paused = performance.now();
      // Calls already on their way arrive (the slow server answers them after the pause began).
      await new Promise((r) => setTimeout(r, 500));
      const before = arrivals.length;
      // Another worker's claim: the attempt moves on while this one sleeps.
      await db.connect();
      const taken = await db.query(
        "update runs set attempt = attempt + 1, worker = 'another machine' where state = 'running' returning id",
      );
      expect(taken.rowCount).toBe(1);
      // Paused past the lease: the time that another worker may take the run after.
      await until('the lease to pass', () => (performance.now() - paused > LEASE_MS + 500 ? true : undefined));
      child.kill('SIGCONT');
      const resumed = performance.now();
      // Two claim checks' time for the resumed worker to send whatever it would.
      await until('two seconds', () => (performance.now() - resumed > 2000 ? true : undefined));
      const late = arrivals.filter((t) => t > resumed);
      expect(late, `requests after the pause (${late.length})`).toEqual([]);
      expect(arrivals.length).toBe(before);
    } finally {
      await db.end().catch(() => {});
      if (child.exitCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  },
  patient(180_000),
);
