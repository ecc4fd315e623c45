#!/usr/bin/env node
// The benchmark (`npm run bench`): prints where a full run against the sandbox spends its time
// and memory, for the default property runs and for --runs 5, 25 and 100, and the command's
// start-up time. Figures only: nothing here is asserted (these machines are shared and noisy).
//
// `npm run bench -- --latency 50`: the sandbox waits 50 ms before answering each request (a
// server in another region, `serve --latency`); one full run at --concurrency 1 and one at the
// default, each printed with the requests the sandbox received, the most it held at once, the
// floor (requests x latency / concurrency: no run with that many in flight can be faster) and the
// wall time of the run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const repeat = Number(argv[argv.indexOf('--repeat') + 1] || 1) || 1;
const runsList = argv.includes('--quick') ? [25] : [5, 25, 100];
const latencyAt = argv.indexOf('--latency');
const latency = latencyAt >= 0 ? Number(argv[latencyAt + 1]) : undefined;
if (latency !== undefined && !(Number.isInteger(latency) && latency > 0)) {
  process.stderr.write('bench: --latency takes a whole number of milliseconds above 0\n');
  process.exit(2);
}
/** The run's concurrency when none is given (core/http.ts DEFAULT_CONCURRENCY). */
const DEFAULT_CONCURRENCY = 8;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

function measuredRun(runs, latencyMs = 0, concurrency) {
  const t0 = performance.now();
  const args = [String(runs), String(latencyMs), ...(concurrency !== undefined ? [String(concurrency)] : [])];
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/benchRun.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const wall = performance.now() - t0;
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 && !line.startsWith('{')) {
    process.stderr.write(
      `bench: the run with --runs ${runs} failed (exit ${child.status}): ${child.stderr.split('\n')[0]}\n`,
    );
    process.exit(1);
  }
  return { ...JSON.parse(line), processWall: wall };
}

function commandStartup() {
  const times = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    spawnSync(process.execPath, [join(ROOT, 'bin/conformance.mjs'), 'help'], { cwd: ROOT, encoding: 'utf8' });
    times.push(performance.now() - t0);
  }
  return median(times);
}

const node = spawnSync(process.execPath, ['-e', '0']);
const t0 = performance.now();
spawnSync(process.execPath, ['-e', '0']);
const bareNode = performance.now() - t0;
void node;

if (latency !== undefined) {
  console.log(
    `conformance benchmark: node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, full run against the sandbox answering after ${latency} ms (--runs 25, seed 1, destructive steps on)`,
  );
  console.log('');
  console.log(
    'concurrency | threads | requests | most in flight | floor   | wall    | wall/floor | run CPU | peak RSS | results',
  );
  for (const concurrency of [1, DEFAULT_CONCURRENCY]) {
    const all = Array.from({ length: repeat }, () => measuredRun(25, latency, concurrency));
    const m = all.sort((a, b) => a.processWall - b.processWall)[Math.floor(all.length / 2)];
    const wall = m.timings.discovery + m.timings.suites + m.timings.report;
    const floor = (m.requests * latency) / concurrency;
    console.log(
      [
        String(concurrency).padStart(11),
        String(m.suiteWorkers ?? '?').padStart(7),
        String(m.requests).padStart(8),
        String(m.mostInFlight).padStart(14),
        s(floor).padStart(7),
        s(wall).padStart(7),
        `${(wall / floor).toFixed(2)}x`.padStart(10),
        s(m.cpuMs).padStart(7),
        `${Math.round(m.maxRssMb)} MB`.padStart(8),
        `${m.results} (${m.verdict})`,
      ].join(' | '),
    );
  }
  console.log('');
  console.log(
    "floor: requests x latency / concurrency; threads: the suites' worker threads (4 for a far target, app/vitestEngine.ts workersForRoundTrip); wall: the run from its start to its report (the process's start-up aside); run CPU: the whole process's.",
  );
  process.exit(0);
}

console.log(
  `conformance benchmark: node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, full run against the sandbox (all operations, destructive steps on)`,
);
console.log('');
console.log(
  'runs | wall   | start-up | discovery+token | suites | report | exchanges | exchange time | overhead | exch/s | peak RSS | results',
);
for (const runs of runsList) {
  const all = Array.from({ length: repeat }, () => measuredRun(runs));
  const m = all.sort((a, b) => a.processWall - b.processWall)[Math.floor(all.length / 2)];
  const t = m.timings;
  console.log(
    [
      String(runs).padStart(4),
      s(m.processWall).padStart(6),
      s(t.startup).padStart(8),
      s(t.discovery).padStart(15),
      s(t.suites).padStart(6),
      s(t.report).padStart(6),
      String(m.exchanges).padStart(9),
      s(m.exchangeMs).padStart(13),
      s(m.processWall - m.exchangeMs).padStart(8),
      String(Math.round(m.exchanges / (m.processWall / 1000))).padStart(6),
      `${Math.round(m.maxRssMb)} MB`.padStart(8),
      `${m.results} (${m.verdict})`,
    ].join(' | '),
  );
}
console.log('');
console.log(
  `command start-up (conformance help, median of 5): ${s(commandStartup())}; a bare node start: ${s(bareNode)}`,
);
console.log(
  'wall: the whole process; start-up: until the run starts (modules loaded, sandbox started); overhead: wall minus the sum of exchange times.',
);
