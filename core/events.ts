/**
 * Run events. Suites run in vitest workers; each worker appends its events as JSON lines to its
 * own file in the run folder, and the runner merges them when the workers are done. Appends are
 * synchronous so that a crashing worker loses nothing it already judged.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { CheckResult, ExchangeRecord } from './results.ts';

/** A result as a worker emits it: `exchange` is the exchange's id, not yet an index. */
export type WorkerResult = Omit<CheckResult, 'exchange'> & { exchange?: string };

export type RunEvent =
  | { type: 'exchange-recorded'; id: string; exchange: ExchangeRecord }
  | { type: 'check-evaluated'; result: WorkerResult }
  | { type: 'decision-applied'; decision: string };

export class EventFile {
  private readonly file: string;

  constructor(runDir: string) {
    this.file = join(runDir, `events-${process.pid}-${threadId}.jsonl`);
  }

  emit(event: RunEvent): void {
    appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }
}

/** Every event written into the run folder, in file order. Corrupt lines are skipped. */
export function readEvents(runDir: string): RunEvent[] {
  const events: RunEvent[] = [];
  for (const name of readdirSync(runDir)
    .filter((n) => n.startsWith('events-'))
    .sort()) {
    for (const line of readFileSync(join(runDir, name), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as RunEvent);
      } catch {
        // a worker killed mid-line leaves a partial last line; the rest is still good
      }
    }
  }
  return events;
}
