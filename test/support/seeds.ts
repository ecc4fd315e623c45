/**
 * The seeds of the self-test (issue 22): fairness and power are properties over seeds, so the
 * variant and fault self-tests judge at several of them: a fixed one (reproducible anywhere), one
 * derived from the date (another every day, the same all day), and a random one, printed, so a
 * failure names the seed that replays it. `CONFORMANCE_RANDOM_SEED` pins the random one.
 */
import { randomInt } from 'node:crypto';

export interface SelfTestSeed {
  /** How the seed was chosen: `fixed`, `date` or `random`. */
  kind: 'fixed' | 'date' | 'random';
  seed: number;
}

/** A seed of the day (UTC): YYYYMMDD, so the test name says which day it was. */
export function dateSeed(now: Date = new Date()): number {
  return Number(now.toISOString().slice(0, 10).replaceAll('-', ''));
}

let printed = false;

/**
 * The three seeds, the random one drawn once per process (or read from CONFORMANCE_RANDOM_SEED)
 * and printed on standard error with how to replay it.
 */
export function selfTestSeeds(fixed: number, env: NodeJS.ProcessEnv = process.env): SelfTestSeed[] {
  const pinned = env.CONFORMANCE_RANDOM_SEED;
  const random = pinned !== undefined && /^\d+$/.test(pinned) ? Number(pinned) : randomSeed();
  if (!printed) {
    printed = true;
    process.stderr.write(
      `self-test seeds: fixed ${fixed}, date ${dateSeed()}, random ${random} (replay with CONFORMANCE_RANDOM_SEED=${random})\n`,
    );
  }
  return [
    { kind: 'fixed', seed: fixed },
    { kind: 'date', seed: dateSeed() },
    { kind: 'random', seed: random },
  ];
}

let drawn: number | undefined;
function randomSeed(): number {
  drawn ??= randomInt(1, 2 ** 31 - 1);
  return drawn;
}
