#!/usr/bin/env node
/**
 * What each test file of `npm test` costs (issue 34): every file run alone by vitest, one after
 * another, with its wall time and the CPU time of its whole process tree (user + system, the
 * suite runs and servers it starts included), printed as a Markdown table, most CPU first, with
 * the sums. A file's cost alone is what it adds to `npm test`: the full run spreads the CPU over
 * the machine's cores, so its wall time is about the CPU sum over the cores, plus the waits.
 *
 *   npm run test:cost [-- FILE_OR_FOLDER...] [-- --top N]
 *
 * Each file alone pays vitest's start (a second or two): the table says so in its first row.
 * Figures of a shared, busy machine are noisy: read them against each other, never as limits.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : Number.POSITIVE_INFINITY;
const wanted = args.filter((a, i) => a !== '--top' && i !== topAt + 1);

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'dist') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? testFiles(path) : /\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

const files = (wanted.length > 0 ? wanted : ['.'])
  .flatMap((w) => {
    const path = join(ROOT, w);
    return statSync(path).isDirectory() ? testFiles(path) : [path];
  })
  .map((f) => relative(ROOT, f))
  .sort();

/** Runs one file; its wall and CPU seconds (bash's `time` counts every waited descendant). */
function cost(file) {
  const r = spawnSync(
    'bash',
    ['-c', `TIMEFORMAT='@@ %R %U %S'; time npx vitest run --reporter=dot ${JSON.stringify(file)} >/dev/null 2>&1`],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  const m = /@@ ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  if (!m) return { file, wall: Number.NaN, cpu: Number.NaN, ok: false };
  return { file, wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), ok: r.status === 0 };
}

const rows = [];
for (const [i, file] of files.entries()) {
  const row = cost(file);
  rows.push(row);
  process.stderr.write(
    `${i + 1}/${files.length} ${file}: ${row.wall.toFixed(1)} s wall, ${row.cpu.toFixed(1)} s CPU${row.ok ? '' : ' (FAILED)'}\n`,
  );
}
const empty = files.length > 0 ? undefined : 'no test file matched';
if (empty) {
  console.error(empty);
  process.exit(2);
}
rows.sort((a, b) => b.cpu - a.cpu);
const sum = (k) => rows.reduce((s, r) => s + (Number.isFinite(r[k]) ? r[k] : 0), 0);
console.log('| Test file | CPU s | Wall s (alone) |');
console.log('|---|---:|---:|');
for (const r of rows.slice(0, top))
  console.log(`| \`${r.file}\`${r.ok ? '' : ' (failed)'} | ${r.cpu.toFixed(1)} | ${r.wall.toFixed(1)} |`);
console.log(`| **all ${rows.length} files** | **${sum('cpu').toFixed(0)}** | **${sum('wall').toFixed(0)}** |`);
