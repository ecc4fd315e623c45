/**
 * How long the tests wait, scaled by how busy the machine is when the run starts (issue 33): the
 * one-minute load average over the processors, between 1 and 4 times. A correct test on a machine
 * that another run of `npm test` keeps busy is given the time it needs instead of timing out.
 * Timeouts are bounds on waiting for an event, never measures of speed (speed is `npm run bench`).
 */
import { availableParallelism, loadavg } from 'node:os';

/** The factor for a load average over a number of processors: 1 when idle, at most 4. */
export function loadFactor(load: number, processors: number): number {
  const f = load / Math.max(1, processors);
  return Number.isFinite(f) ? Math.min(4, Math.max(1, f)) : 1;
}

/** This run's factor, fixed at its start. */
export const PATIENCE = loadFactor(loadavg()[0] ?? 0, availableParallelism());

/** `ms`, scaled by this run's factor. */
export const patient = (ms: number): number => Math.round(ms * PATIENCE);
