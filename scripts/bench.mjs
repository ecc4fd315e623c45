#!/usr/bin/env node
// The benchmark (`npm run bench`): prints where a full run against the sandbox spends its time
// and memory, for the default property runs and for --runs 5, 25 and 100, and the command's
// start-up time. Figures only: nothing here is asserted (these machines are shared and noisy).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const repeat = Number(argv[argv.indexOf('--repeat') + 1] || 1) || 1;
const runsList = argv.includes('--quick') ? [25] : [5, 25, 100];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

function measuredRun(runs) {
  const t0 = performance.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/benchRun.ts'), String(runs)], {
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
