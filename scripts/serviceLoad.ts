/**
 * The certification service under load (issue 25): N organisations (default 20), one partner and
 * one product each, all start a run at the same moment over HTTP; the script waits until every run
 * is finished or failed and reports what the queue did. Everything is on 127.0.0.1: the sandboxes
 * (the partners' servers) run in this process, the service in child processes started as an
 * operator starts them (`conformance service`, and with --postgres `--workers N` extra
 * `conformance service --workers-only` processes on a throwaway PostgreSQL sharing the queue).
 *
 * Measured from the database (the runs table, sampled every 200 ms; on the embedded database, which
 * is the service process's alone, each started run's JSON page instead) and beside it:
 * - queued, started, finished, failed; lost: a run whose start was answered but that is queued,
 *   running or absent at the end;
 * - run twice: a run performed to a verdict more than once. Two signals, either counts: the run's
 *   row seen with two different finished_at values (a verdict written twice), and the run's
 *   results.json seen with two different (startedAt, seed) in the report folders of all the
 *   service's processes (a second performance that reached a verdict, written or not);
 * - peak runs running per organisation, per process and overall, against the service's limits;
 * - queue wait (created to first claim) and run time (last claim to verdict), median and p95;
 * - wall time, CPU seconds and peak resident set of each service process (/proc).
 *
 * With --kill-worker (PostgreSQL), one `--workers-only` process is killed (SIGKILL) while it holds a
 * run: its runs are taken back once their lease passes (60 s) and performed again, none lost or
 * doubled. Set-up (organisations, invites, products) is not measured: accepting invites is
 * rate-limited per address (10 a minute), so 20 organisations take a minute to set up.
 * `--products N` gives each organisation N products, so the organisation's limit is exercised.
 * Exit 1 when a run is lost or run twice, a limit was exceeded, or a start was refused;
 * 2 for a bad option. Bounded: --max-minutes for the runs (default 10), and a hard stop after it.
 *
 *   npx tsx scripts/serviceLoad.ts [--organisations 20] [--products 1] [--only diary-post-auth]
 *     [--sandboxes 2] [--postgres [--workers 2] [--kill-worker]] [--max-minutes 10] [--keep]
 */
import { generateKeyPairSync } from 'node:crypto';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { DEFAULT_SETTINGS } from '../service/context.ts';
import { type Answer, inviteLinkOf, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

/** The service's signing key (an Ed25519 private key, PKCS#8 PEM), shared by its processes. */
const SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'conformance.mjs');
const OPERATOR = { email: 'operator@load.test', password: 'operator-password-1' };
const PARTNER_PASSWORD = 'partner-password-1';
const KEY = '5a'.repeat(32);
const SAMPLE_MS = 200;

function stop(message: string): never {
  process.stderr.write(`serviceLoad: ${message}\n`);
  process.exit(2);
}

function readOptions() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        organisations: { type: 'string', default: '20' },
        products: { type: 'string', default: '1' },
        only: { type: 'string', default: 'diary-post-auth' },
        sandboxes: { type: 'string', default: '2' },
        postgres: { type: 'boolean', default: false },
        workers: { type: 'string' },
        'kill-worker': { type: 'boolean', default: false },
        'max-minutes': { type: 'string', default: '10' },
        keep: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    stop((e as Error).message.split('\n')[0]);
  }
  const whole = (name: string, low: number, high: number): number => {
    const text = values[name] as string;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < low || n > high)
      stop(`Expected --${name} a whole number from ${low} to ${high}, received ${JSON.stringify(text)}`);
    return n;
  };
  const postgres = values.postgres === true;
  if (values.workers !== undefined && !postgres)
    stop('--workers needs --postgres: only PostgreSQL lets other processes share the queue');
  if (values['kill-worker'] === true && !postgres) stop('--kill-worker needs --postgres (and --workers 1 or more)');
  // --postgres alone: two worker processes besides the web one.
  if (postgres) values.workers ??= '2';
  const workers = postgres ? whole('workers', 0, 16) : 0;
  if (values['kill-worker'] === true && workers < 1) stop('--kill-worker needs --workers 1 or more');
  const maxMinutesText = values['max-minutes'] as string;
  const maxMinutes = Number(maxMinutesText);
  if (!/^\d+(\.\d+)?$/.test(maxMinutesText) || maxMinutes <= 0 || maxMinutes > 120)
    stop(`Expected --max-minutes a number above 0 and at most 120, received ${JSON.stringify(maxMinutesText)}`);
  const only = (values.only as string).trim();
  if (only === '') stop('Expected --only a selection (operation ids with *, or D1, D2, D3), received an empty one');
  if (postgres && !postgresAvailable())
    stop(
      '--postgres needs PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin (and a postgres user when run as root)',
    );
  return {
    organisations: whole('organisations', 1, 500),
    products: whole('products', 1, 10),
    only,
    sandboxes: whole('sandboxes', 1, 50),
    postgres,
    workers,
    killWorker: values['kill-worker'] === true,
    maxMinutes,
    keep: values.keep === true,
  };
}

const options = readOptions();

// ---------------------------------------------------------------------------------------------
// The service's processes

interface ServiceProcess {
  role: 'web' | 'worker';
  child: ChildProcess;
  pid: number;
  dataDir: string;
  exited: Promise<number | null>;
  killed: boolean;
  /** Last figures read from /proc: CPU seconds (own and waited-for children), peak resident set. */
  cpuSeconds: number;
  peakRssMb: number;
}

const children: ServiceProcess[] = [];
let pg: ThrowawayPostgres | undefined;
const sandboxes: RunningSandbox[] = [];
const root = mkdtempSync(join(tmpdir(), 'service-load-'));

// Whatever ends this process ends the service's processes and the cluster with it.
process.on('exit', () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  pg?.stop();
  if (!options.keep) rmSync(root, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    process.stderr.write(`serviceLoad: ${signal}: stopped\n`);
    process.exit(130);
  });

function startServiceProcess(
  role: 'web' | 'worker',
  args: string[],
): { process: ServiceProcess; ready: Promise<string> } {
  const dataDir = join(root, `${role}-${children.length}`);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    process.execPath,
    [BIN, 'service', '--data-dir', dataDir, '--allow-ranges', 'loopback', ...args],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: root,
        CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
        CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
        CONFORMANCE_SERVICE_KEY: KEY,
        // Every process of one service signs with the same key (required with --database-url).
        CONFORMANCE_SERVICE_SIGNING_KEY: SIGNING_KEY,
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
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const entry: ServiceProcess = {
    role,
    child,
    pid: child.pid ?? 0,
    dataDir,
    exited,
    killed: false,
    cpuSeconds: 0,
    peakRssMb: 0,
  };
  children.push(entry);
  const pattern = role === 'web' ? /listening on (\S+)/ : /(working on queued runs)/;
  const ready = (async () => {
    const until = Date.now() + 120_000;
    for (;;) {
      const m = pattern.exec(out);
      if (m) return m[1];
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the ${role} process exited before it was ready: ${err.trim().split('\n')[0] ?? ''}`);
      if (Date.now() > until) throw new Error(`the ${role} process was not ready within 120 s`);
      await sleep(50);
    }
  })();
  return { process: entry, ready };
}

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Reads a live process's CPU seconds and peak resident set; a gone process keeps its last figures. */
function readProc(p: ServiceProcess): void {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14).
    const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0);
    const status = readFileSync(`/proc/${p.pid}/status`, 'utf8');
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    if (fields[0] === 'Z') return;
    p.cpuSeconds = ticks / TICKS;
    p.peakRssMb = Math.max(p.peakRssMb, hwm / 1024);
  } catch {
    // Gone: its last figures stand.
  }
}

// ---------------------------------------------------------------------------------------------
// The runs table, read beside the service

interface RunRow {
  id: string;
  organisation_id: string;
  product_id: string;
  state: string;
  attempt: number;
  worker: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  verdict: string | null;
  problem: string | null;
}

const RUNS_SQL =
  'select id, organisation_id, product_id, state, attempt, worker, created_at, started_at, finished_at, verdict, problem from runs';

interface RunsReader {
  /** How often it is read. */
  everyMs: number;
  read(): Promise<RunRow[]>;
  close(): Promise<void>;
}

/** A run this script started: who may read it, and its organisation (the run's JSON does not name it). */
interface StartedRun {
  partner: Person;
  organisation: string;
}

/**
 * The embedded database is the service process's alone (SQLite holds its file while the service
 * runs, and the data folder is locked), so its runs are read through the service: each started
 * run's JSON (`/runs/ID.json`) as its partner, once a second until it is seen ended: the service
 * under load answers these requests too, so they are kept few (a verdict written twice is then
 * seen in the report folders alone). The embedded service has one process, which performs every
 * run it holds.
 */
function serviceReader(started: Map<string, StartedRun>, worker: string): RunsReader {
  const last = new Map<string, RunRow>();
  const ended = (row: RunRow) => row.state === 'finished' || row.state === 'failed' || row.state === 'cancelled';
  return {
    everyMs: 1000,
    async read() {
      // The requests answer one after the other, so each run is told as it was when they began
      // (its claim's and verdict's times say), as one query of the table would have told it.
      const at = Date.now();
      const asAt = (row: RunRow): RunRow => {
        const started = row.started_at === null ? Number.POSITIVE_INFINITY : Date.parse(row.started_at);
        const finished = row.finished_at === null ? Number.POSITIVE_INFINITY : Date.parse(row.finished_at);
        if (started > at) return { ...row, state: 'queued', worker: null };
        if (finished > at) return { ...row, state: 'running', worker };
        return row;
      };
      const rows = await Promise.all(
        [...started].map(async ([id, { partner, organisation }]): Promise<RunRow | undefined> => {
          const known = last.get(id);
          if (known !== undefined && ended(known)) return known;
          const answer = await partner.get(`/runs/${id}.json`);
          if (answer.status === 404) return undefined;
          if (answer.status !== 200) throw new Error(`/runs/${id}.json answered ${answer.status}`);
          const run = JSON.parse(answer.text) as {
            product: { id: string };
            state: string;
            attempt: number;
            verdict: string | null;
            problem: string | null;
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
          };
          const row: RunRow = {
            id,
            organisation_id: organisation,
            product_id: run.product.id,
            state: run.state,
            attempt: run.attempt,
            worker: run.state === 'running' ? worker : null,
            created_at: run.createdAt,
            started_at: run.startedAt,
            finished_at: run.finishedAt,
            verdict: run.verdict,
            problem: run.problem,
          };
          last.set(id, row);
          return asAt(row);
        }),
      );
      return rows.filter((r): r is RunRow => r !== undefined);
    },
    async close() {},
  };
}

async function postgresReader(url: string): Promise<RunsReader> {
  const { default: pgClient } = await import('pg');
  const pool = new pgClient.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  return {
    everyMs: SAMPLE_MS,
    async read() {
      return (await pool.query<RunRow>(RUNS_SQL)).rows.map((r) => ({ ...r, attempt: Number(r.attempt) }));
    },
    async close() {
      await pool.end();
    },
  };
}

/** What the samples saw of one run. */
interface Seen {
  finishedAt: Set<string>;
  firstStartedAt?: string;
  workers: Set<string>;
  /** Seen finished or failed, then queued or running again. */
  reopened: boolean;
  ended: boolean;
  /** Each results.json of the run seen in a report folder: its file's mtime, and (startedAt, seed). */
  reportMtimes: Map<string, number>;
  performances: Set<string>;
}

interface Peaks {
  overall: number;
  organisation: number;
  process: number;
  product: number;
  samples: number;
}

function countBy(rows: RunRow[], key: (r: RunRow) => string): number {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

class Sampler {
  readonly seen = new Map<string, Seen>();
  readonly peaks: Peaks = { overall: 0, organisation: 0, process: 0, product: 0, samples: 0 };
  rows: RunRow[] = [];
  readErrors = 0;
  #stopped = false;
  #loop?: Promise<void>;
  #onSample: ((rows: RunRow[]) => void)[] = [];

  constructor(
    private readonly reader: RunsReader,
    private readonly processes: ServiceProcess[],
  ) {}

  onSample(f: (rows: RunRow[]) => void): void {
    this.#onSample.push(f);
  }

  start(): void {
    this.#loop = (async () => {
      while (!this.#stopped) {
        const began = Date.now();
        await this.sample();
        await sleep(Math.max(0, this.reader.everyMs - (Date.now() - began)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
    await this.sample();
  }

  async sample(): Promise<void> {
    let rows: RunRow[];
    try {
      rows = await this.reader.read();
    } catch {
      this.readErrors++;
      return;
    }
    this.rows = rows;
    this.peaks.samples++;
    const running = rows.filter((r) => r.state === 'running');
    this.peaks.overall = Math.max(this.peaks.overall, running.length);
    this.peaks.organisation = Math.max(
      this.peaks.organisation,
      countBy(running, (r) => r.organisation_id),
    );
    this.peaks.product = Math.max(
      this.peaks.product,
      countBy(running, (r) => r.product_id),
    );
    this.peaks.process = Math.max(
      this.peaks.process,
      countBy(running, (r) => r.worker ?? '?'),
    );
    for (const r of rows) {
      let s = this.seen.get(r.id);
      if (!s) {
        s = {
          finishedAt: new Set(),
          workers: new Set(),
          reopened: false,
          ended: false,
          reportMtimes: new Map(),
          performances: new Set(),
        };
        this.seen.set(r.id, s);
      }
      if (r.started_at && s.firstStartedAt === undefined) s.firstStartedAt = r.started_at;
      if (r.state === 'running' && r.worker) s.workers.add(r.worker);
      if (r.finished_at) s.finishedAt.add(r.finished_at);
      const ended = r.state === 'finished' || r.state === 'failed';
      if (s.ended && !ended) s.reopened = true;
      s.ended = ended;
      this.#readReports(r.id, s);
    }
    for (const p of this.processes) readProc(p);
    for (const f of this.#onSample) f(rows);
  }

  /** Every performance of the run that reached a verdict left a results.json in its process's data folder. */
  #readReports(runId: string, s: Seen): void {
    for (const p of this.processes) {
      const file = join(p.dataDir, 'reports', runId, 'results.json');
      let mtime: number;
      try {
        mtime = statSync(file).mtimeMs;
      } catch {
        continue;
      }
      if (s.reportMtimes.get(file) === mtime) continue;
      try {
        const results = JSON.parse(readFileSync(file, 'utf8')) as { startedAt?: string; seed?: number };
        s.performances.add(`${results.startedAt}|${results.seed}`);
        s.reportMtimes.set(file, mtime);
      } catch {
        // Being written: the next sample reads it.
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectStatus(what: string, answer: Answer, status: number): Answer {
  if (answer.status !== status)
    throw new Error(`Expected ${what} to answer ${status}, received ${answer.status}: ${answer.text.slice(0, 200)}`);
  return answer;
}

/** Where a form's 303 leads (the new organisation, product or run). */
function locationOf(what: string, answer: Answer): string {
  const location = expectStatus(what, answer, 303).location;
  if (location === undefined) throw new Error(`Expected ${what} to answer with a Location, received none`);
  return location;
}

/** Invites and sign-ins are rate-limited per address (10 a minute): waits as told and tries again. */
async function acceptInvite(person: Person, link: string): Promise<void> {
  for (let tries = 0; tries < 10; tries++) {
    const answer = await person.acceptInvite(link, PARTNER_PASSWORD);
    if (answer.status !== 429) {
      expectStatus('accepting an invite', answer, 303);
      return;
    }
    const wait = Number(answer.headers.get('retry-after') ?? '5');
    await sleep((Number.isFinite(wait) ? wait : 5) * 1000 + 250);
  }
  throw new Error('Expected an invite to be accepted within 10 tries, received 429 each time');
}

interface Start {
  partner: Person;
  organisation: number;
  product: string;
  token: string;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function main(): Promise<number> {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  // The hard stop: the runs' bound plus room for setting up and closing.
  setTimeout(
    () => {
      process.stderr.write('serviceLoad: hard stop (--max-minutes plus 10 minutes of set-up and closing)\n');
      process.exit(1);
    },
    (options.maxMinutes + 10) * 60_000,
  ).unref();

  for (let i = 0; i < options.sandboxes; i++) sandboxes.push(await startSandbox({ port: 0 }));
  let databaseUrl: string | undefined;
  if (options.postgres) {
    pg = await startThrowawayPostgres();
    databaseUrl = await pg.createDatabase('service_load');
  }
  const db = databaseUrl ? ['--database-url', databaseUrl] : [];
  const web = startServiceProcess('web', ['--port', '0', ...db]);
  const url = await web.ready;
  const workers = Array.from({ length: options.workers }, () =>
    startServiceProcess('worker', ['--workers-only', ...db]),
  );
  await Promise.all(workers.map((w) => w.ready));
  const processes = children;
  const startedRuns = new Map<string, StartedRun>();
  const reader = databaseUrl
    ? await postgresReader(databaseUrl)
    : serviceReader(startedRuns, `${hostname()}:${web.process.pid}`);

  // Set-up: the operator makes every organisation and invites its partner; each partner registers its products.
  const setupStart = performance.now();
  const operator = new Person(url);
  expectStatus('the operator signing in', await operator.signIn(OPERATOR.email, OPERATOR.password), 303);
  const starts: Start[] = [];
  for (let i = 0; i < options.organisations; i++) {
    const name = `Load ${String(i + 1).padStart(3, '0')}`;
    const organisation = locationOf(
      'creating an organisation',
      await operator.post('/organisations', { name }, '/organisations'),
    );
    const invite = await operator.post(
      `${organisation}/invites`,
      { email: `partner${i + 1}@load${i + 1}.test` },
      organisation,
    );
    const partner = new Person(url);
    await acceptInvite(partner, inviteLinkOf(invite.text));
    for (let j = 0; j < options.products; j++) {
      const product = locationOf(
        'registering a product',
        await partner.post('/products', {
          name: `${name} product ${j + 1}`,
          version: '1',
          baseUrl: sandboxes[(i * options.products + j) % sandboxes.length].url,
          only: options.only,
        }),
      );
      starts.push({ partner, organisation: i, product, token: await partner.token(product) });
    }
  }
  const setupSeconds = (performance.now() - setupStart) / 1000;

  // The load: every partner starts every product's run at the same moment.
  const sampler = new Sampler(reader, processes);
  let killed: { pid: number; runs: string[]; at: number } | undefined;
  const workerIds = new Map(processes.map((p) => [`${hostname()}:${p.pid}`, p]));
  if (options.killWorker) {
    const target = workers[0].process;
    const id = `${hostname()}:${target.pid}`;
    let firstSeen: number | undefined;
    sampler.onSample((rows) => {
      if (killed) return;
      const held = rows.filter((r) => r.state === 'running' && r.worker === id);
      if (held.length === 0) return;
      firstSeen ??= Date.now();
      // Into the run a little, so the kill lands in the middle of it.
      if (Date.now() - firstSeen < 500) return;
      readProc(target);
      target.killed = true;
      target.child.kill('SIGKILL');
      killed = { pid: target.pid, runs: held.map((r) => r.id), at: performance.now() };
    });
  }
  sampler.start();
  const loadStart = performance.now();
  const answers = await Promise.all(
    starts.map(async (s) => {
      const began = performance.now();
      try {
        const answer = await s.partner.request('POST', `${s.product}/runs`, { _csrf: s.token });
        const id = answer.status === 303 ? answer.location?.split('/').pop() : undefined;
        if (id !== undefined) startedRuns.set(id, { partner: s.partner, organisation: String(s.organisation) });
        return { ...s, answer, ms: performance.now() - began };
      } catch (e) {
        return { ...s, error: (e as Error).message, ms: performance.now() - began };
      }
    }),
  );
  const startsAnsweredMs = performance.now() - loadStart;
  const runIds = answers
    .map((a) => ('answer' in a && a.answer?.status === 303 ? a.answer.location?.split('/').pop() : undefined))
    .filter((id): id is string => id !== undefined);
  const refused = answers.length - runIds.length;

  const deadline = Date.now() + options.maxMinutes * 60_000;
  const endedIds = () =>
    runIds.filter((id) => {
      const row = sampler.rows.find((r) => r.id === id);
      return row?.state === 'finished' || row?.state === 'failed';
    });
  while (Date.now() < deadline && endedIds().length < runIds.length) await sleep(SAMPLE_MS);
  const timedOut = endedIds().length < runIds.length;
  await sampler.stop();
  const loadSeconds = (performance.now() - loadStart) / 1000;
  for (const p of processes) readProc(p);

  // Close: the service's processes end as at Ctrl-C.
  await reader.close();
  for (const p of processes) if (!p.killed) p.child.kill('SIGINT');
  const exits = await Promise.all(
    processes.map((p) =>
      p.killed ? Promise.resolve(null) : Promise.race([p.exited, sleep(30_000).then(() => 'hung' as const)]),
    ),
  );
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  for (const s of sandboxes) await s.close();
  pg?.stop();
  pg = undefined;

  // Figures.
  const rows = sampler.rows.filter((r) => runIds.includes(r.id));
  const byState = (state: string) => rows.filter((r) => r.state === state).length;
  const absent = runIds.length - rows.length;
  const lost = byState('queued') + byState('running') + absent;
  const verdictsTwice = runIds.filter((id) => {
    const s = sampler.seen.get(id);
    return s !== undefined && (s.finishedAt.size > 1 || s.reopened);
  });
  const performedTwice = runIds.filter((id) => (sampler.seen.get(id)?.performances.size ?? 0) > 1);
  const runTwice = new Set([...verdictsTwice, ...performedTwice]).size;
  const reportsFound = runIds.filter((id) => (sampler.seen.get(id)?.performances.size ?? 0) >= 1).length;
  const started = rows.filter((r) => r.attempt > 0).length;
  const claims = rows.reduce((n, r) => n + r.attempt, 0);
  const retried = rows.filter((r) => r.attempt > 1);
  const verdicts = new Map<string, number>();
  for (const r of rows)
    if (r.state === 'finished') verdicts.set(r.verdict ?? '?', (verdicts.get(r.verdict ?? '?') ?? 0) + 1);
  const problems = new Map<string, number>();
  for (const r of rows.filter((r) => r.state === 'failed'))
    problems.set(r.problem ?? '?', (problems.get(r.problem ?? '?') ?? 0) + 1);
  const waits = rows
    .map((r) => {
      const first = sampler.seen.get(r.id)?.firstStartedAt ?? r.started_at;
      return first ? seconds(r.created_at, first) : Number.NaN;
    })
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const runTimes = rows
    .flatMap((r) => (r.started_at && r.finished_at ? [seconds(r.started_at, r.finished_at)] : []))
    .sort((a, b) => a - b);
  const created = rows.map((r) => Date.parse(r.created_at));
  const finished = rows.flatMap((r) => (r.finished_at ? [Date.parse(r.finished_at)] : []));
  const firstToLast =
    created.length > 0 && finished.length > 0 ? (Math.max(...finished) - Math.min(...created)) / 1000 : Number.NaN;

  const working = processes.length; // The web process works on runs too.
  const limits = {
    organisation: DEFAULT_SETTINGS.organisationConcurrency,
    process: DEFAULT_SETTINGS.workerConcurrency,
    overall: DEFAULT_SETTINGS.workerConcurrency * working,
    product: 1,
  };
  const exceeded = [
    sampler.peaks.organisation > limits.organisation ? 'per organisation' : '',
    sampler.peaks.process > limits.process ? 'per process' : '',
    sampler.peaks.overall > limits.overall ? 'overall' : '',
    sampler.peaks.product > limits.product ? 'per product' : '',
  ].filter(Boolean);
  const unknownWorkers = new Set(
    [...sampler.seen.values()].flatMap((s) => [...s.workers]).filter((w) => !workerIds.has(w)),
  );

  const cpu = process.cpuUsage(cpuStart);
  const pad = (s: string) => s.padEnd(28);
  const label = (p: ServiceProcess) => `${p.role} ${p.pid}${p.killed ? ' (killed)' : ''}`;
  const lines = [
    `service load: ${options.organisations} organisations x ${options.products} product${options.products > 1 ? 's' : ''}, --only ${options.only}, ${
      options.postgres
        ? `PostgreSQL (pg-boss), web process + ${options.workers} --workers-only process${options.workers === 1 ? '' : 'es'}`
        : 'embedded (SQLite), one process'
    }, ${options.sandboxes} sandbox${options.sandboxes > 1 ? 'es' : ''}, node ${process.version}, ${cpus().length} CPUs, 127.0.0.1`,
    `limits: ${limits.organisation} running runs per organisation, ${limits.process} per process (${limits.overall} over ${working}), 1 per product; ${DEFAULT_SETTINGS.maxAttempts} attempts, lease ${DEFAULT_SETTINGS.leaseMs / 1000} s`,
    '',
    `${pad('set-up')}${fixed(setupSeconds)} s (organisations, invites, products; not measured below)`,
    `${pad('starts sent at once')}${answers.length}: ${runIds.length} answered 303 within ${fixed(startsAnsweredMs / 1000, 2)} s, ${refused} refused`,
    `${pad('jobs queued')}${rows.length}${absent > 0 ? ` (${absent} answered but absent from the database)` : ''}`,
    `${pad('jobs started')}${started} (${claims} claims)`,
    `${pad('jobs finished')}${byState('finished')} (verdicts: ${[...verdicts].map(([v, n]) => `${v} ${n}`).join(', ') || 'none'})`,
    `${pad('jobs failed')}${byState('failed')}${[...problems].map(([p, n]) => `\n${pad('')}${n} x ${p}`).join('')}`,
    `${pad('lost')}${lost} (queued ${byState('queued')}, running ${byState('running')}, absent ${absent} at the end)`,
    `${pad('run twice')}${runTwice} (verdict written twice ${verdictsTwice.length}; performed to a verdict twice ${performedTwice.length}, ${reportsFound} runs' report folders read)`,
    `${pad('retried')}${retried.length}${retried.length > 0 ? ` (attempts ${retried.map((r) => r.attempt).join(', ')})` : ''}`,
    ...(killed
      ? [
          `${pad('killed worker')}${killed.pid} (SIGKILL) holding ${killed.runs.length} run${killed.runs.length === 1 ? '' : 's'}: ${killed.runs
            .map((id) => {
              const r = rows.find((x) => x.id === id);
              return `${r?.state ?? 'absent'} at attempt ${r?.attempt ?? '?'}`;
            })
            .join(', ')}`,
        ]
      : options.killWorker
        ? [`${pad('killed worker')}none: no --workers-only process held a run long enough`]
        : []),
    `${pad('peak running')}overall ${sampler.peaks.overall} (limit ${limits.overall}), per organisation ${sampler.peaks.organisation} (limit ${limits.organisation}), per process ${sampler.peaks.process} (limit ${limits.process}), per product ${sampler.peaks.product} (limit 1); ${sampler.peaks.samples} samples every ${reader.everyMs} ms`,
    `${pad('queue wait s')}median ${fixed(quantile(waits, 0.5))}, p95 ${fixed(quantile(waits, 0.95))}, max ${fixed(waits.at(-1) ?? Number.NaN)} (created to first claim)`,
    `${pad('run time s')}median ${fixed(quantile(runTimes, 0.5))}, p95 ${fixed(quantile(runTimes, 0.95))}, max ${fixed(runTimes.at(-1) ?? Number.NaN)} (last claim to verdict)`,
    `${pad('wall time s')}${fixed(firstToLast)} first start to last verdict; ${fixed(loadSeconds)} the script waited${timedOut ? ` (stopped at --max-minutes ${options.maxMinutes})` : ''}`,
    `${pad('service CPU s')}${fixed(processes.reduce((n, p) => n + p.cpuSeconds, 0))} (${processes.map((p) => `${label(p)} ${fixed(p.cpuSeconds)}`).join(', ')})`,
    `${pad('service peak RSS MB')}${processes.map((p) => `${label(p)} ${p.peakRssMb.toFixed(0)}`).join(', ')}`,
    `${pad('this script CPU s')}${fixed((cpu.user + cpu.system) / 1e6)} (the sandboxes and the partners), wall ${fixed((performance.now() - wallStart) / 1000)} s in all`,
    ...(sampler.readErrors > 0 ? [`${pad('sample read errors')}${sampler.readErrors}`] : []),
    ...(unknownWorkers.size > 0 ? [`${pad('unknown workers')}${[...unknownWorkers].join(', ')}`] : []),
    ...processes
      .map((p, i) => [p, exits[i]] as const)
      .filter(([p, code]) => !p.killed && code !== 0)
      .map(([p, code]) => `${pad('unclean exit')}${label(p)}: ${code}`),
    ...(options.keep ? [`${pad('kept')}${root}`] : []),
    '',
  ];
  const broken = [
    lost > 0 ? `${lost} lost` : '',
    runTwice > 0 ? `${runTwice} run twice` : '',
    refused > 0 ? `${refused} starts refused` : '',
    exceeded.length > 0 ? `limit exceeded ${exceeded.join(', ')}` : '',
    options.killWorker && !killed ? 'no worker killed' : '',
  ].filter(Boolean);
  lines.push(broken.length === 0 ? 'OK: none lost, none run twice, every limit held' : `FAILED: ${broken.join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return broken.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (e) {
  process.stderr.write(`serviceLoad: ${(e as Error).message.split('\n')[0]}\n`);
  process.exitCode = 1;
}
// Handles left by fetch keep-alive or the sandboxes must not hold the script open.
process.exit(process.exitCode);
