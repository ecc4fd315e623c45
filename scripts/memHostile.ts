/**
 * Peak memory of a whole run against a hostile target (issue 23): starts test/support/hostileServer.ts
 * (default `huge-body`: every call but discovery and tokens answered with 100 MB), runs
 * `conformance run` against it in a child process under `/usr/bin/time -v`, and prints the
 * child's peak resident set, its exit code and wall time. The hostile server runs in this process,
 * so its own memory is not counted. The peak varies from run to run by 100 MB or more (when each of
 * the three V8 heaps collects, on a shared machine): `--repeat N` runs N times and prints the
 * lowest, median and highest peak.
 *
 *   npx tsx scripts/memHostile.ts [--how huge-body] [--only LIST] [--max-response-bytes N] [--report-dir DIR] [--repeat N]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { HOSTILITIES, type Hostility, startHostileServer } from '../test/support/hostileServer.ts';

const ROOT = resolve(import.meta.dirname, '..');
const TIME = '/usr/bin/time';

const { values } = parseArgs({
  options: {
    how: { type: 'string', default: 'huge-body' },
    only: { type: 'string' },
    'max-response-bytes': { type: 'string' },
    'report-dir': { type: 'string' },
    repeat: { type: 'string', default: '1' },
  },
});

function stop(message: string): never {
  process.stderr.write(`memHostile: ${message}\n`);
  process.exit(2);
}

const how = values.how as Hostility;
if (!HOSTILITIES.includes(how)) stop(`--how must be one of ${HOSTILITIES.join(', ')}, received ${values.how}`);
if (!existsSync(TIME)) stop(`${TIME} is needed to measure the peak resident set (apt-get install time)`);
const cap = values['max-response-bytes'];
if (cap !== undefined && !/^\d+$/.test(cap)) stop(`--max-response-bytes must be an integer, received ${cap}`);
const repeat = Number(values.repeat);
if (!/^\d+$/.test(values.repeat ?? '') || repeat < 1)
  stop(`--repeat must be a positive integer, received ${values.repeat}`);

const dir = mkdtempSync(join(tmpdir(), 'conformance-mem-'));
const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, number> };
if (cap !== undefined) config.http = { ...config.http, maxResponseBytes: Number(cap) };
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify(config));

/** One run of the command against a fresh hostile server: its peak resident set in MB. */
async function measure(): Promise<number> {
  const server = await startHostileServer(how);
  const args = [
    '-v',
    process.execPath,
    join(ROOT, 'bin', 'conformance.mjs'),
    'run',
    '--target',
    server.url,
    '--config',
    configFile,
    '--quiet',
    '--report-dir',
    values['report-dir'] ?? join(dir, 'report'),
    ...(values.only ? ['--only', values.only] : []),
  ];
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(TIME, args, {
      cwd: ROOT,
      env: { ...process.env, ...DEMO_ENVIRONMENT },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (c) => done({ code: c, stderr: err }));
  });
  const seconds = (performance.now() - started) / 1000;
  await server.close();
  const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const exit = /Exit status: (\d+)/.exec(stderr)?.[1] ?? String(code);
  const lines = stderr.split('\n').filter((l) => !/^\s+\S.*: /.test(l) && l.trim() !== '');
  if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    `hostile target ${how}: exit ${exit}, ${seconds.toFixed(0)} s, peak resident set ${(peakKb / 1024).toFixed(0)} MB, ${server.hits} misbehaving answers\n`,
  );
  return peakKb / 1024;
}

const peaks: number[] = [];
for (let i = 0; i < repeat; i++) peaks.push(await measure());
if (repeat > 1) {
  const sorted = [...peaks].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  process.stdout.write(
    `peak resident set over ${repeat} runs: lowest ${sorted[0].toFixed(0)} MB, median ${median.toFixed(0)} MB, highest ${sorted[sorted.length - 1].toFixed(0)} MB\n`,
  );
}
if (values['report-dir'] === undefined) rmSync(dir, { recursive: true, force: true });
