/**
 * The service's hardening of issue 33, item 5, over real HTTP on 127.0.0.1: behind `--trust-proxy N`
 * the client's address is the Nth from the right of X-Forwarded-For (the left-most, which the client
 * writes, changes nothing); an account's sign-in locks after its failures whatever the address, with
 * one line and an audit row, the same for an address no account has, and opens again after the lock;
 * names and free texts are bounded and bodies past 1 MB refused (413); the data folder is private
 * (0700 folders, 0600 files), and one that cannot be written is one line and exit 2 from
 * `conformance service`; one person holds at most so many live event streams, the next answered 429.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataFolderProblem } from '../service/dataFolder.ts';
import { type RunningService, type ServiceOptions, startService } from '../service/startService.ts';
import { newPartner, Person } from '../service/testSupport/browserless.ts';

const BIN = fileURLToPath(new URL('../bin/conformance.mjs', import.meta.url));
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
const MINUTE = 60_000;

/** A clock the tests move (the lock's end). */
const clock = { offsetMs: 0 };

const running: RunningService[] = [];
afterAll(async () => {
  for (const s of running) await s.close();
});

async function serviceWith(extra: ServiceOptions = {}): Promise<RunningService> {
  const service = await startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-hardening2-')),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '4b'.repeat(32),
    },
    allowRanges: ['loopback'],
    workerConcurrency: 0,
    signIn: { max: 1000, windowMs: MINUTE },
    now: () => new Date(Date.now() + clock.offsetMs),
    ...extra,
  });
  running.push(service);
  return service;
}

/** A sign-in form sent with an X-Forwarded-For header of the test's choosing. */
async function signInVia(
  service: RunningService,
  forwardedFor: string,
  email: string,
  password: string,
): Promise<{ status: number; text: string }> {
  const person = new Person(service.url!);
  const token = await person.token('/');
  const answer = await fetch(`${service.url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-forwarded-for': forwardedFor,
    },
    body: new URLSearchParams({ _csrf: token, email, password }).toString(),
  });
  return { status: answer.status, text: await answer.text() };
}

const auditRows = (service: RunningService, action: string) =>
  service.ctx.db.selectFrom('audit_events').selectAll().where('action', '=', action).orderBy('seq').execute();

describe('--trust-proxy N: the client is the Nth address from the right of X-Forwarded-For', () => {
  test('two hops: the address the outer proxy saw is limited, whatever the client writes left of it', async () => {
    const service = await serviceWith({ trustProxy: 2, signIn: { max: 2, windowMs: MINUTE } });
    const statuses: number[] = [];
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push(
        (await signInVia(service, `${forged}, 203.0.113.7, 10.0.0.1`, OPERATOR.email, 'wrong-password-0')).status,
      );
    expect(statuses).toEqual([401, 401, 429]);
    // Another client behind the same proxies is not held back.
    expect(
      (await signInVia(service, '198.51.100.1, 203.0.113.8, 10.0.0.1', OPERATOR.email, 'wrong-password-0')).status,
    ).toBe(401);
    const failed = await auditRows(service, 'sign-in-failed');
    expect(failed.map((r) => r.address)).toEqual(['203.0.113.7', '203.0.113.7', '203.0.113.8']);
  });

  test('`true` (the flag alone) is one hop: the right-most address', async () => {
    const service = await serviceWith({ trustProxy: true });
    await signInVia(service, '198.51.100.9, 203.0.113.9', OPERATOR.email, 'wrong-password-0');
    expect((await auditRows(service, 'sign-in-failed')).map((r) => r.address)).toEqual(['203.0.113.9']);
  });
});

describe('the per-account sign-in limit', () => {
  test('failures of one account from several addresses lock its sign-in, with one line and an audit row; the lock ends', async () => {
    clock.offsetMs = 0;
    const service = await serviceWith({
      trustProxy: 1,
      accountSignIn: { max: 3, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
    });
    const operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    const partner = await newPartner(service.url!, operator, 'Locked');
    const other = 'someone@locked.test';
    expect(partner.cookies.size).toBeGreaterThan(0);

    expect((await signInVia(service, '203.0.113.1', other, 'wrong-password-1')).status).toBe(401);
    expect((await signInVia(service, '203.0.113.2', other, 'wrong-password-2')).status).toBe(401);
    const locked = await signInVia(service, '203.0.113.3', other, 'wrong-password-3');
    expect(locked.status).toBe(429);
    const line = /<p class="problem">([^<]+)<\/p>/.exec(locked.text)![1];
    expect(line).toMatch(
      /^Too many failed sign-ins for this account \(3 within 15 minutes\): its sign-in is locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Try again then, or ask the operator of the service\.$/,
    );
    // The right password, from yet another address: still locked.
    expect((await signInVia(service, '203.0.113.4', other, 'partner-password-1')).status).toBe(429);
    // Another account is not.
    expect((await signInVia(service, '203.0.113.3', OPERATOR.email, OPERATOR.password)).status).toBe(303);
    const lockRows = await auditRows(service, 'sign-in-locked');
    expect(lockRows).toHaveLength(1);
    expect(lockRows[0]).toMatchObject({ actor_email: other, actor_kind: 'partner', address: '203.0.113.3' });
    expect(lockRows[0].organisation_id).not.toBeNull();
    expect((await auditRows(service, 'sign-in-refused')).map((r) => r.actor_email)).toEqual([other]);

    // An address no account has locks the same way: the answer says nothing of whether it exists.
    for (let i = 0; i < 2; i++)
      expect((await signInVia(service, '203.0.113.5', 'nobody@locked.test', 'wrong-password')).status).toBe(401);
    const unknown = await signInVia(service, '203.0.113.5', 'nobody@locked.test', 'wrong-password');
    expect(unknown.status).toBe(429);
    expect(unknown.text).toContain('Too many failed sign-ins for this account (3 within 15 minutes)');

    // The operator sees the lock on the organisation's page and unlocks the account: it signs in
    // at once, and the failures before the unlock count no more.
    const orgPage = await operator.get(`/organisations/${lockRows[0].organisation_id}`);
    expect(orgPage.text).toMatch(/sign-in locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const userId = /action="\/users\/([\w-]+)\/unlock"/.exec(orgPage.text)![1];
    // Only the operator unlocks.
    expect((await partner.post(`/users/${userId}/unlock`, {}, '/account')).status).toBe(404);
    expect((await signInVia(service, '203.0.113.4', other, 'partner-password-1')).status).toBe(429);
    expect(
      (await operator.post(`/users/${userId}/unlock`, {}, `/organisations/${lockRows[0].organisation_id}`)).status,
    ).toBe(303);
    expect((await auditRows(service, 'sign-in-unlocked')).map((r) => r.detail)).toEqual([other]);
    expect((await operator.get(`/organisations/${lockRows[0].organisation_id}`)).text).not.toContain('sign-in locked');
    expect((await signInVia(service, '203.0.113.4', other, 'wrong-password-5')).status).toBe(401);
    expect((await signInVia(service, '203.0.113.4', other, 'partner-password-1')).status).toBe(303);

    // After a lock, the account signs in again; the failures before it count no more.
    for (let i = 0; i < 3; i++) await signInVia(service, '203.0.113.6', other, 'wrong-password-6');
    expect((await signInVia(service, '203.0.113.4', other, 'partner-password-1')).status).toBe(429);
    clock.offsetMs = 16 * MINUTE;
    expect((await signInVia(service, '203.0.113.4', other, 'partner-password-1')).status).toBe(303);
    expect((await signInVia(service, '203.0.113.4', other, 'wrong-password-4')).status).toBe(401);
    clock.offsetMs = 0;
  });
});

describe('bounds', () => {
  let service: RunningService;
  let operator: Person;
  let partner: Person;
  beforeAll(async () => {
    service = await serviceWith();
    operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    partner = await newPartner(service.url!, operator, 'Bounded');
  });

  test('names of 200 characters at most, free texts of 2,000, each refused with one line naming the field', async () => {
    const org = await operator.post('/organisations', { name: 'n'.repeat(201) }, '/organisations');
    expect(org.status).toBe(400);
    expect(org.text).toContain('Expected the name in 200 characters or fewer, received 201.');
    expect((await operator.post('/organisations', { name: 'n'.repeat(200) }, '/organisations')).status).toBe(303);
    const product = await partner.post('/products', {
      name: 'p'.repeat(201),
      version: 'v'.repeat(201),
      baseUrl: `http://127.0.0.1:9/${'a'.repeat(2000)}`,
    });
    expect(product.status).toBe(400);
    expect(product.text).toContain('Expected the name in 200 characters or fewer, received 201.');
    expect(product.text).toContain('Expected the version in 200 characters or fewer, received 201.');
    expect(product.text).toMatch(/Expected the base URL in 2000 characters or fewer, received 20\d\d\./);
    const invite = await operator.post(
      `${(await operator.post('/organisations', { name: 'Long mail' }, '/organisations')).location}/invites`,
      { email: `${'a'.repeat(250)}@x.test` },
    );
    expect(invite.status).toBe(400);
  });

  test('a body past 1 MB is refused with 413, signed in or not', async () => {
    const big = new URLSearchParams({ email: 'a@b.test', password: 'x'.repeat(1_100_000) }).toString();
    const anonymous = await fetch(`${service.url}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    await anonymous.arrayBuffer();
    expect(anonymous.status).toBe(413);
    const signedIn = await fetch(`${service.url}/products`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...partner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: new URLSearchParams({ name: 'x'.repeat(1_100_000) }).toString(),
    });
    await signedIn.arrayBuffer();
    expect(signedIn.status).toBe(413);
  });
});

describe('the data folder', () => {
  test('private: the folder and its run folders 0700, the database and keys 0600 (an existing open folder too)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-private-'));
    chmodSync(dir, 0o755);
    // No CONFORMANCE_SERVICE_KEY: the service key is generated into the folder.
    const service = await startService({ dataDir: dir, environment: {}, workerConcurrency: 0 });
    running.push(service);
    const mode = (name: string) => statSync(join(dir, name)).mode & 0o777;
    expect(mode('.')).toBe(0o700);
    expect(mode('reports')).toBe(0o700);
    expect(mode('runs')).toBe(0o700);
    for (const file of ['service.db', 'service.key', 'signing-key.pem'])
      expect([file, mode(file)]).toEqual([file, 0o600]);
  });

  test('one that cannot be written: DataFolderProblem before anything is opened', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'service-unwritable-'));
    writeFileSync(join(parent, 'a-file'), '');
    await expect(startService({ dataDir: join(parent, 'a-file', 'data') })).rejects.toThrow(DataFolderProblem);
    await expect(startService({ dataDir: join(parent, 'a-file', 'data') })).rejects.toThrow(
      /^The data folder .*a-file\/data cannot be written: a file stands where a folder is needed/,
    );
  });

  test('`conformance service` on a folder it cannot write: one line, exit 2; --trust-proxy alone or with N parses', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'service-unwritable-cli-'));
    writeFileSync(join(parent, 'a-file'), '');
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'service', '--port', '0', ...args], {
          cwd: parent,
          env: { PATH: process.env.PATH, HOME: parent },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          err += d;
        });
        child.on('exit', (code) => resolve({ code, out, err }));
      });
    const bad = join(parent, 'a-file', 'data');
    for (const args of [
      ['--data-dir', bad, '--trust-proxy'],
      ['--trust-proxy', '--data-dir', bad],
      ['--trust-proxy', '2', '--data-dir', bad],
    ]) {
      const r = await run(args);
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.err.trim().split('\n')).toEqual([
        `conformance: The data folder ${bad} cannot be written: a file stands where a folder is needed (--data-dir names another)`,
      ]);
      expect(r.err).not.toContain('internal error');
    }
    const zero = await run(['--trust-proxy', '0', '--data-dir', bad]);
    expect(zero.code).toBe(2);
    expect(zero.err).toContain('--trust-proxy must be an integer from 1 to 32, received "0"');
  }, 60_000);
});

describe('live event streams per person', () => {
  test('the next stream past the limit is answered 429; another person is not held back; a closed one frees its place', async () => {
    const service = await serviceWith({ eventStreamsPerUser: 2 });
    const operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    const partner = await newPartner(service.url!, operator, 'Streams');
    const product = (await partner.post('/products', { name: 'S', version: '1', baseUrl: 'http://127.0.0.1:9' }))
      .location!;
    // No worker: the run stays queued, and its stream open.
    const run = (await partner.post(`${product}/runs`, {}, product)).location!;
    const streams: AbortController[] = [];
    const open = async (person: Person): Promise<number> => {
      const controller = new AbortController();
      const response = await fetch(`${service.url}${run}/events`, {
        headers: { cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        signal: controller.signal,
      });
      if (response.status === 200) {
        // The first event: the stream is open and counted.
        const reader = response.body!.getReader();
        await reader.read();
        streams.push(controller);
      } else await response.arrayBuffer();
      return response.status;
    };
    try {
      expect(await open(partner)).toBe(200);
      expect(await open(partner)).toBe(200);
      expect(await open(partner)).toBe(429);
      expect(await open(operator)).toBe(200);
      streams.shift()!.abort();
      // The service sees the close when the connection ends: asked again until it has.
      let status = 429;
      for (let i = 0; i < 100 && status === 429; i++) {
        status = await open(partner);
        if (status === 429) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
    } finally {
      for (const s of streams) s.abort();
    }
  });
});
