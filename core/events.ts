/**
 * Run events. Suites run in vitest workers; each worker appends its events (exchange recorded,
 * check evaluated, decision applied) as JSON lines to its own file in the run folder, and the
 * runner reads them when the workers are done. Appends are synchronous so that a crashing worker
 * loses nothing it already judged. In the runner's process the events of the whole run (run
 * started, the workers' events, run finished) go through a typed bus to which reporters subscribe.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { CheckResult, ExchangeRecord, RunResults } from './results.ts';

/** A result as a worker emits it: `exchange` is the exchange's id, not yet an index. */
export type WorkerResult = Omit<CheckResult, 'exchange'> & { exchange?: string };

/** What a suite worker emits. */
export type WorkerEvent =
  | { type: 'exchange-recorded'; id: string; exchange: ExchangeRecord }
  | { type: 'check-evaluated'; result: WorkerResult }
  | { type: 'decision-applied'; decision: string };

/** Every event of a run, in the runner's process. */
export type RunEvent =
  | { type: 'run-started'; target: string; operations: readonly string[]; seed: number; runs: number }
  | WorkerEvent
  | { type: 'run-finished'; results: RunResults };

export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** The runner's typed event bus: subscribers by event type, called in subscription order. */
export class RunEventBus {
  readonly #handlers = new Map<RunEventType, ((event: RunEvent) => void | Promise<void>)[]>();

  on<T extends RunEventType>(type: T, handler: (event: RunEventOf<T>) => void | Promise<void>): this {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler as (event: RunEvent) => void | Promise<void>);
    this.#handlers.set(type, list);
    return this;
  }

  async emit(event: RunEvent): Promise<void> {
    for (const handler of this.#handlers.get(event.type) ?? []) await handler(event);
  }
}

export class EventFile {
  private readonly file: string;

  constructor(runDir: string) {
    this.file = join(runDir, `events-${process.pid}-${threadId}.jsonl`);
  }

  emit(event: WorkerEvent): void {
    appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }
}

/**
 * Every event written into the run folder, in file order. Corrupt lines are skipped. A file is
 * decoded line by line, never as one string, so that its size is not bounded by the longest
 * string the runtime can make (the evidence caps keep it small, core/evidenceCap.ts).
 */
export function readEvents(runDir: string): WorkerEvent[] {
  const events: WorkerEvent[] = [];
  for (const name of readdirSync(runDir)
    .filter((n) => n.startsWith('events-'))
    .sort()) {
    const data = readFileSync(join(runDir, name));
    for (let start = 0; start < data.length; ) {
      const newline = data.indexOf(0x0a, start);
      const end = newline === -1 ? data.length : newline;
      if (end > start) {
        try {
          events.push(JSON.parse(data.toString('utf8', start, end)) as WorkerEvent);
        } catch {
          // a worker killed mid-line leaves a partial last line; the rest is still good
        }
      }
      start = end + 1;
    }
  }
  return events;
}
