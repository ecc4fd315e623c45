/**
 * The soak (issue 22): the whole fault and variant catalogue over many seeds, against sandboxes on
 * loopback only, bounded in time. Prints one table: per variant, the seeds at which it was a false
 * alarm (a MUST failure, an error or a verdict other than conformant); per fault, the seeds at
 * which it was missed; each with its replay. Exit 0 when there was neither, 1 otherwise, 2 on a
 * wrong option.
 *
 *   npm run soak -- --seeds 20 [--first-seed N] [--runs 2] [--max-minutes 90] [--processes 3]
 *
 * Per seed: every fault batch and every variant batch (as the self-test batches them, at `--runs`
 * cases per property), and all variants together at 25 cases per property. Seeds are random
 * unless `--first-seed` is given (then N, N+1, ...); every seed used is printed.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { FAULTS } from '../server/faults/catalog.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { operations } from '../spec/operations.ts';
import { RunPool, type RunRequest, runWeight } from '../test/support/runPool.ts';
import {
  creditsOf,
  falseAlarms,
  faultBatches,
  replayCommand,
  variantBatches,
  variantBatchOnly,
} from '../test/support/selfTestPlan.ts';

interface Options {
  seeds: number;
  firstSeed?: number;
  runs: number;
  maxMinutes: number;
  processes: number;
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string' },
      'first-seed': { type: 'string' },
      runs: { type: 'string' },
      'max-minutes': { type: 'string' },
      processes: { type: 'string' },
    },
    strict: true,
  });
  const int = (name: string, v: string | undefined, dflt: number, min: number, max: number): number => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  return {
    seeds: int('seeds', values.seeds, 5, 1, 1000),
    ...(values['first-seed'] === undefined
      ? {}
      : { firstSeed: int('first-seed', values['first-seed'], 0, 0, 2 ** 31 - 1) }),
    runs: int('runs', values.runs, 2, 1, 1000),
    maxMinutes: int('max-minutes', values['max-minutes'], 120, 1, 24 * 60),
    processes: int('processes', values.processes, 3, 1, 16),
  };
}

interface Finding {
  seed: number;
  detail: string;
  replay: string;
}

const USAGE =
  'Usage: npm run soak -- [--seeds N] [--first-seed S] [--runs R] [--max-minutes M] [--processes P]\n' +
  '  the whole fault and variant catalogue at N seeds (default 5) against sandboxes on loopback;\n' +
  '  exit 0 no false alarm and no miss, 1 otherwise, 2 a wrong option\n';

async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let opts: Options;
  try {
    opts = options(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`soak: ${(e as Error).message}\n`);
    return 2;
  }
  const seeds = Array.from({ length: opts.seeds }, (_, i) =>
    opts.firstSeed === undefined ? randomInt(1, 2 ** 31 - 1) : opts.firstSeed + i,
  );
  const deadline = Date.now() + opts.maxMinutes * 60_000;
  const pool = new RunPool(opts.processes);
  // The longest runs first (the pool's queue takes the heaviest), so a seed does not end on one.
  const runJob = (job: RunRequest) => pool.run(job, runWeight(job, operations.length));
  const falseAlarmsOf = new Map<string, Finding[]>(VARIANTS.map((v) => [v.name, []]));
  const missesOf = new Map<string, Finding[]>(FAULTS.map((f) => [f.name, []]));
  const judged: number[] = [];
  const started = Date.now();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`soak: ${VARIANTS.length} variants, ${FAULTS.length} faults, seeds ${seeds.join(', ')}`);
  try {
    for (const seed of seeds) {
      if (Date.now() > deadline) {
        out(
          `soak: time is up (--max-minutes ${opts.maxMinutes}); seeds not judged: ${seeds.slice(judged.length).join(', ')}`,
        );
        break;
      }
      const t0 = Date.now();
      const jobs: Promise<void>[] = [];
      for (const batch of faultBatches()) {
        const names = batch.faults.map((f) => f.name);
        jobs.push(
          runJob({ faults: names, only: batch.operations.join(','), seed, runs: opts.runs }).then((run) => {
            for (const fault of batch.faults)
              if (creditsOf(run.results, fault).length === 0)
                missesOf.get(fault.name)?.push({
                  seed,
                  detail: `no ${fault.expectedLevel ?? 'MUST'} result of ${fault.expectedCheck}`,
                  replay: replayCommand({ faults: [fault.name] }, seed, opts.runs, fault.operations),
                });
          }),
        );
      }
      const variantRun = (names: string[], only: string[] | undefined, runs: number) =>
        runJob({ variants: names, seed, runs, ...(only ? { only: only.join(','), minCoverage: 0 } : {}) }).then(
          (run) => {
            const bad = falseAlarms(run.results, run.code, run.stderr);
            if (bad.length === 0) return;
            // A batch names its variants; the finding goes to each (the replay runs them together).
            for (const name of names.length === VARIANTS.length ? ['(all together)'] : names) {
              const list = falseAlarmsOf.get(name) ?? [];
              list.push({
                seed,
                detail: bad[0],
                replay: replayCommand(
                  { variants: names.length === VARIANTS.length ? ['all'] : names },
                  seed,
                  runs,
                  only,
                ),
              });
              falseAlarmsOf.set(name, list);
            }
          },
        );
      for (const batch of variantBatches())
        jobs.push(
          variantRun(
            batch.faults.map((v) => v.name),
            variantBatchOnly(batch),
            opts.runs,
          ),
        );
      jobs.push(
        variantRun(
          VARIANTS.map((v) => v.name),
          undefined,
          25,
        ),
      );
      await Promise.all(jobs);
      judged.push(seed);
      out(`soak: seed ${seed} judged in ${Math.round((Date.now() - t0) / 1000)} s`);
    }
  } finally {
    await pool.close();
  }
  const alarms = [...falseAlarmsOf].filter(([, f]) => f.length > 0);
  const misses = [...missesOf].filter(([, f]) => f.length > 0);
  out('');
  out(
    `Seeds judged: ${judged.length} of ${seeds.length} (${judged.join(', ')}) in ${Math.round((Date.now() - started) / 60000)} min`,
  );
  out('');
  out('| catalogue | entries | seeds | false alarms | misses |');
  out('|---|---|---|---|---|');
  out(
    `| variants (alone in batches, and all together) | ${VARIANTS.length} | ${judged.length} | ${alarms.reduce((n, [, f]) => n + f.length, 0)} | - |`,
  );
  out(`| faults | ${FAULTS.length} | ${judged.length} | - | ${misses.reduce((n, [, f]) => n + f.length, 0)} |`);
  for (const [name, found] of alarms)
    for (const f of found) out(`FALSE ALARM ${name} at seed ${f.seed}: ${f.detail}\n  replay: ${f.replay}`);
  for (const [name, found] of misses)
    for (const f of found) out(`MISSED ${name} at seed ${f.seed}: ${f.detail}\n  replay: ${f.replay}`);
  return alarms.length + misses.length === 0 && judged.length > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`soak: ${(e as Error).message}\n`);
    process.exit(4);
  },
);
