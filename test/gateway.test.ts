/**
 * Gateways are not the server's fault (issue 22): behind a gateway that refuses for load (HTTP 429,
 * or 503, with Retry-After) the suite waits the refusals out and sends the same request again; what
 * is still refused when the run's retry budget is spent is `error` (inconclusive), never `fail`;
 * and the run can pace itself (`--max-requests-per-second`) so that the gateway refuses nothing.
 * Real HTTP throughout: the sandbox, test/support/rateLimitingGateway.ts in front of it, and the
 * command's entry point in a run process of the shared pool.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestRefused } from '../checks/requestRefused.ts';
import { successStatus } from '../checks/successStatus.ts';
import type { Exchange } from '../core/exchange.ts';
import { HttpClient } from '../core/http.ts';
import { evaluate } from '../core/judgement.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { TestSandbox } from '../server/testSupport.ts';
import { workerCount } from '../app/vitestEngine.ts';
import { HTTP_DEFAULTS } from '../core/config.ts';
import { readResults, reportDir, runInProcess } from './support/cli.ts';
import {
  type GatewayOptions,
  type RateLimitingGateway,
  startRateLimitingGateway,
} from './support/rateLimitingGateway.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';

let sandbox: TestSandbox;
const gateways: RateLimitingGateway[] = [];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await sandbox.close();
});

async function gateway(options: GatewayOptions): Promise<RateLimitingGateway> {
  const g = await startRateLimitingGateway(sandbox.url, options);
  gateways.push(g);
  return g;
}

const DISCOVERY = '/.well-known/api-configuration';
const client = (loadRetries?: number) =>
  new HttpClient({ timeoutMs: 5000, maxResponseBytes: 1 << 20, ...(loadRetries !== undefined ? { loadRetries } : {}) });

/** `n` calls at once through the gateway. */
const burst = (c: HttpClient, url: string, n: number): Promise<Exchange[]> =>
  Promise.all(Array.from({ length: n }, () => c.send({ method: 'GET', url, headers: { accept: 'application/json' } })));

describe('the HTTP client behind a gateway that refuses for load', () => {
  test('a 429 is waited out and the request sent again: every call is answered', async () => {
    const g = await gateway({ maxPerSecond: 2 });
    const xs = await burst(client(), `${g.url}${DISCOVERY}`, 4);
    expect(xs.map((x) => x.response?.status)).toEqual([200, 200, 200, 200]);
    expect(g.counts.refused).toBeGreaterThan(0);
    const retried = xs.filter((x) => (x.retries ?? 0) > 0);
    expect(retried.length).toBeGreaterThan(0);
    expect(Math.min(...retried.map((x) => x.waitedMs ?? 0))).toBeGreaterThanOrEqual(900); // Retry-After: 1
  });

  test('a 503 with Retry-After likewise', async () => {
    const g = await gateway({ maxPerSecond: 2, status: 503 });
    const xs = await burst(client(), `${g.url}${DISCOVERY}`, 3);
    expect(xs.map((x) => x.response?.status)).toEqual([200, 200, 200]);
    expect(g.counts.refused).toBeGreaterThan(0);
  });

  test('a Retry-After given as an HTTP-date is waited until that date', async () => {
    // The date of the next whole second after the window frees a place (an HTTP-date has no finer grain).
    const g = await gateway({
      maxPerSecond: 1,
      retryAfter: (freeInMs) => new Date(Math.ceil((Date.now() + freeInMs) / 1000) * 1000 + 1000).toUTCString(),
    });
    const xs = await burst(client(), `${g.url}${DISCOVERY}`, 2);
    expect(xs.map((x) => x.response?.status)).toEqual([200, 200]);
    const retried = xs.find((x) => x.retries === 1);
    expect(retried?.waitedMs).toBeGreaterThan(900);
    expect(retried?.waitedMs).toBeLessThan(3100);
  });

  test('with a budget of 0 retries the refused call is judged error, never fail, whatever the check expects', async () => {
    const g = await gateway({ maxPerSecond: 1 });
    const xs = await burst(client(0), `${g.url}${DISCOVERY}`, 3);
    const refused = xs.filter((x) => x.errorKind === 'load-refused');
    expect(refused).toHaveLength(2);
    expect(g.counts.refused).toBe(2);
    for (const x of refused) {
      expect(x.response).toBeUndefined();
      const served = evaluate(x, successStatus(200));
      expect(served.outcome).toBe('error');
      expect(served.message).toBe(
        'the target refused the call for load (HTTP 429, Retry-After 1) and it was not sent again (resending is off: http.loadRetries is 0); not judged',
      );
      // A check that expects the server to refuse does not take the gateway's 429 for that refusal.
      expect(evaluate(x, requestRefused).outcome).toBe('error');
    }
  });
});

describe('pacing options', () => {
  test.each([
    [
      ['--max-requests-per-second', '0'],
      /^conformance: --max-requests-per-second must be an integer from 1 to 100000, received "0"$/,
    ],
    [
      ['--max-requests-per-second', '2.5'],
      /--max-requests-per-second must be an integer from 1 to 100000, received "2.5"/,
    ],
    [['--concurrency', 'many'], /^conformance: --concurrency must be an integer from 1 to 1000, received "many"$/],
    [['--concurrency', '-1'], /--concurrency must be an integer from 1 to 1000, received "-1"/],
  ])('run %j exits 2 with a one-line reason, before anything is sent', async (args, message) => {
    for (const command of [['run', '--target', 'http://127.0.0.1:9'], ['start']]) {
      const { code, stderr } = await runInProcess([...command, ...args]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')[0]).toMatch(message);
    }
  });

  test('run and start list both options in their help', async () => {
    for (const command of ['run', 'start']) {
      const { stdout } = await runInProcess([command, '--help']);
      expect(stdout).toMatch(/--max-requests-per-second N +start at most N requests a second/);
      expect(stdout).toMatch(/--concurrency N +have at most N calls in flight/);
    }
  });

  test('never more workers than the calls allowed in flight, nor than the suite files to run', () => {
    const http = { ...HTTP_DEFAULTS, maxRequestsPerSecond: 50, concurrency: 5 };
    expect(workerCount(30, http)).toBe(2);
    expect(workerCount(30, { concurrency: 1 })).toBe(1);
    expect(workerCount(1, {})).toBe(1);
    expect(workerCount(30, {}, 4)).toBe(4);
  });
});

// The command's runs go to the run processes every self-test shares (test/support/runPool.ts):
// `conformance run`'s entry point with these arguments and environment, its output and exit code
// as a child process would give them, without a Node start and the command's modules per run.
const pool = sharedRunPool();

/** Two services, three operations, --runs 2: about 80 calls, 70 a second at the peak when unpaced. */
const ONLY = 'lookup-*,search-address';
const PROCESS_TIMEOUT_MS = 110_000;

async function runThrough(g: RateLimitingGateway, http: Record<string, number> = {}, extra: string[] = []) {
  const dir = reportDir();
  const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, number> };
  config.http = { ...config.http, ...http };
  const configFile = join(dir, 'gateway-config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const cli = await pool.command(
    ['run', '--target', g.url, '--config', configFile, '--only', ONLY, '--runs', '2', '--report-dir', dir, ...extra],
    { ...DEMO_ENVIRONMENT, CONFORMANCE_PROGRESS: '0' },
  );
  expect(cli.stderr + cli.stdout).not.toMatch(/\n\s+at /);
  return { cli, results: readResults(dir) };
}

/** Discovery is left alone: a run whose discovery documents are refused stops at once (exit 2), by design. */
const exempt = (path: string) => path.endsWith(DISCOVERY);

// The three runs wait on their gateways more than they compute: asked for at once, each with its
// own gateway (the pool runs commands before its queued runs).
describe.concurrent('conformance run behind a gateway at 10 requests a second', () => {
  test(
    'unpaced: the gateway refuses calls, the run waits them out and is conformant (exit 0)',
    async () => {
      const g = await gateway({ maxPerSecond: 10, exempt });
      const { cli, results } = await runThrough(g);
      expect(g.counts.refused, 'the gateway refused nothing: the test would pass vacuously').toBeGreaterThan(0);
      expect(cli.code, cli.stdout + cli.stderr).toBe(0);
      expect(results.verdict).toBe('conformant');
      expect(results.summary.fail + results.summary.error).toBe(0);
      const load = /Load refusals: (\d+) answers HTTP 429 or 503 with Retry-After; (\d+) waited out/.exec(cli.stdout);
      expect(Number(load?.[1])).toBe(g.counts.refused);
      expect(Number(load?.[2])).toBe(g.counts.refused);
    },
    PROCESS_TIMEOUT_MS + 10_000,
  );

  test(
    'with a retry budget of 0 the refused calls are not judged: inconclusive (exit 3), never not conformant',
    async () => {
      const g = await gateway({ maxPerSecond: 10, exempt });
      const { cli, results } = await runThrough(g, { loadRetries: 0 });
      expect(g.counts.refused).toBeGreaterThan(0);
      expect(cli.code, cli.stdout + cli.stderr).toBe(3);
      expect(results.verdict).toBe('inconclusive');
      expect(results.summary.fail).toBe(0);
      const unjudged = results.results.filter((r) => r.message.includes('for load (HTTP 429, Retry-After 1)'));
      expect(unjudged.length).toBeGreaterThan(0);
      expect(new Set(unjudged.map((r) => r.status))).toEqual(new Set(['error']));
      expect(unjudged[0].message).toMatch(/resending is off: http\.loadRetries is 0\); not judged$/);
    },
    PROCESS_TIMEOUT_MS + 10_000,
  );

  test(
    '--max-requests-per-second 8 paces the whole run, both workers together: the gateway refuses nothing',
    async () => {
      const g = await gateway({ maxPerSecond: 10 });
      const { cli } = await runThrough(g, {}, ['--max-requests-per-second', '8']);
      expect(cli.code, cli.stdout + cli.stderr).toBe(0);
      // Unpaced, the same run sends 70 requests a second at its peak. Paced at 8 a second, the
      // gateway never sees its limit reached, jitter of the timers and the network included.
      expect(g.peakReceivedPerSecond).toBeLessThanOrEqual(10);
      expect(g.counts.refused).toBe(0);
      expect(cli.stdout).not.toMatch(/Load refusals/);
    },
    PROCESS_TIMEOUT_MS + 10_000,
  );
});
