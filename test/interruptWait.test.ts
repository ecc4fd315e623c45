/**
 * Ctrl-C during a wait for Retry-After (issue 22): behind a gateway that answers every call of
 * the suites 429 with `Retry-After: 600`, the run waits out up to ten minutes per call (a config
 * with http.maxRetryAfterMs 600000); SIGINT ends the waits at once and the command exits 130
 * with the interrupted report, instead of waiting them out.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox, type RunningSandbox } from '../server/http.ts';
import { readResults, reportDir, ROOT } from './support/cli.ts';

let sandbox: RunningSandbox;
let gateway: Server;
let gatewayUrl: string;
let refused = 0;
/** Set once the run prints that it is judging: the runner's own calls (discovery, the token, its probes) are done. */
let refusing = false;

beforeAll(async () => {
  sandbox = await startSandbox();
  const upstream = new URL(sandbox.url);
  // Everything passes until the run is judging; from then on every call carrying the run's token
  // is refused for load with a long Retry-After.
  gateway = createServer((req, res) => {
    const passes = !refusing || !/^Bearer /i.test(req.headers.authorization ?? '');
    if (!passes) {
      refused += 1;
      res.writeHead(429, { 'Retry-After': '600', 'Content-Type': 'text/plain' });
      res.end('busy');
      return;
    }
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const address = gateway.address();
  gatewayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  await sandbox.close();
});

test('SIGINT while the run waits out Retry-After ends the waits at once: exit 130, the report says interrupted', async () => {
  const dir = join(reportDir(), 'report');
  // The demo config, honouring a Retry-After of up to ten minutes (as a patient operator might).
  const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, unknown> };
  config.http = { ...config.http, maxRetryAfterMs: 600_000, loadRetryWaitMs: 3_600_000 };
  const configFile = join(reportDir(), 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'conformance.mjs'),
      'run',
      '--target',
      gatewayUrl,
      '--config',
      configFile,
      '--only',
      'D2',
      '--report-dir',
      dir,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...DEMO_ENVIRONMENT, FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.includes('Judging ')) refusing = true;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Wait until the suites are being refused (they are then waiting), then interrupt.
  while (refused < 1) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGINT');
  // Without the interruption reaching the waits, each would last up to 30 s and the run minutes:
  // the test's own time-out (below the first wait's end plus the others) is the bound, not a timing assert.
  expect(await exited, stderr).toBe(130);
  const results = readResults(dir);
  expect(results.interrupted).toBeDefined();
  expect(results.results.some((r) => /interrupted/.test(r.message))).toBe(true);
}, 120_000);
