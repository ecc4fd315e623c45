/**
 * A full run behind a rate-limiting gateway (issue 22): starts the sandbox, puts
 * test/support/rateLimitingGateway.ts in front of it (50 requests a second by default, HTTP 429
 * with Retry-After: 1 above that), runs `conformance run` against the gateway in a child process,
 * pacing itself at the same rate, and prints the verdict, the exit code, the wall time, the
 * requests the gateway received, the refusals it gave and the resends the run made.
 *
 *   npx tsx scripts/gatewayRun.ts [--rps 50] [--pace N | --no-pace] [--status 429|503]
 *                                 [--only LIST] [--runs N] [--concurrency N] [--load-retries N]
 *                                 [--report-dir DIR]
 *
 * `--pace N` paces the run at N requests a second (default: the gateway's rate); `--no-pace`
 * leaves it unpaced (it then relies on waiting out the refusals alone). `--load-retries N` runs
 * with the sandbox's demo config and `http.loadRetries` N (0: every refusal is left unjudged).
 * The report folder is removed at the end unless `--report-dir` names one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';
import { startRateLimitingGateway } from '../test/support/rateLimitingGateway.ts';

const ROOT = resolve(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    rps: { type: 'string', default: '50' },
    pace: { type: 'string' },
    'no-pace': { type: 'boolean', default: false },
    status: { type: 'string', default: '429' },
    only: { type: 'string' },
    runs: { type: 'string' },
    concurrency: { type: 'string' },
    'load-retries': { type: 'string' },
    'report-dir': { type: 'string' },
  },
});

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    process.stderr.write(`gatewayRun: --${name} must be a positive integer, received ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return Number(value);
}

const rps = positive('rps', values.rps) ?? 50;
const pace = values['no-pace'] ? undefined : (positive('pace', values.pace) ?? rps);
const status = values.status === '503' ? 503 : 429;

const sandbox = await startSandbox();
const gateway = await startRateLimitingGateway(sandbox.url, { maxPerSecond: rps, status });
const dir = mkdtempSync(join(tmpdir(), 'conformance-gateway-'));
const loadRetries = values['load-retries'];
let configArgs: string[] = [];
if (loadRetries !== undefined) {
  if (!/^\d+$/.test(loadRetries)) {
    process.stderr.write(`gatewayRun: --load-retries must be an integer, received ${JSON.stringify(loadRetries)}\n`);
    process.exit(2);
  }
  const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, number> };
  config.http = { ...config.http, loadRetries: Number(loadRetries) };
  const file = join(dir, 'gateway-config.json');
  writeFileSync(file, JSON.stringify(config));
  configArgs = ['--config', file];
}
const args = [
  join(ROOT, 'bin', 'conformance.mjs'),
  'run',
  '--target',
  gateway.url,
  '--allow-destructive',
  '--report-dir',
  values['report-dir'] ?? join(dir, 'report'),
  ...configArgs,
  ...(pace !== undefined ? ['--max-requests-per-second', String(pace)] : []),
  ...(values.only ? ['--only', values.only] : []),
  ...(values.runs ? ['--runs', values.runs] : []),
  ...(values.concurrency ? ['--concurrency', values.concurrency] : []),
];
process.stderr.write(
  `gateway at ${rps} requests/s (HTTP ${status}, Retry-After: 1) in front of the sandbox; run ${pace !== undefined ? `paced at ${pace}/s` : 'unpaced'}\n`,
);
const t0 = performance.now();
const child = spawn(process.execPath, args, {
  cwd: ROOT,
  env: { ...DEMO_ENVIRONMENT, ...process.env, FORCE_COLOR: '0', CONFORMANCE_PROGRESS: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stdout = '';
let stderr = '';
child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const code = await new Promise<number | null>((done) => child.on('close', done));
const wall = (performance.now() - t0) / 1000;
await gateway.close();
await sandbox.close();
rmSync(dir, { recursive: true, force: true });

const line = (prefix: string) => stdout.split('\n').find((l) => l.startsWith(prefix)) ?? `${prefix} <none>`;
const load = /Load refusals: (\d+) .*?; (\d+) waited out \((\d+) s in all\).*?, (\d+) left unjudged/.exec(stdout);
const figures = {
  verdict: line('Verdict:').replace(/^Verdict:\s*/, ''),
  exitCode: code,
  wallSeconds: Math.round(wall * 10) / 10,
  gatewayRate: rps,
  pacedAt: pace ?? null,
  requestsReceivedByGateway: gateway.counts.received,
  forwardedToSandbox: gateway.counts.forwarded,
  refusedByGateway: gateway.counts.refused,
  gatewayPeakPerSecond: gateway.peakPerSecond,
  peakReceivedPerSecond: gateway.peakReceivedPerSecond,
  retries: load ? Number(load[2]) : 0,
  secondsWaited: load ? Number(load[3]) : 0,
  leftUnjudged: load ? Number(load[4]) : 0,
};
process.stdout.write(`${stdout.trim()}\n\n`);
if (code !== 0 && code !== 1 && code !== 3) process.stdout.write(`${stderr.trim()}\n`);
for (const [k, v] of Object.entries(figures)) process.stdout.write(`${k.padEnd(26)} ${v}\n`);
process.exitCode = code ?? 4;
