/**
 * A service run's progress, written to its row (what the run page and its event stream show):
 * suites done of all, the suites running, and one entry per operation with its state (waiting,
 * running, done) and its results so far by status, read from the run's event files as the suites
 * append to them (app/progress.ts CheckTally, as the command line's progress reads them).
 *
 * The JSON is bounded by the number of operations (a few hundred: one short entry each, zero
 * counts left out) and written no more often than needed: at once when a suite starts or finishes,
 * otherwise at most once every `intervalMs` while results come in, never twice the same, one write
 * at a time (a write asked for while one is under way is folded into the next).
 */
import { basename } from 'node:path';
import { CheckTally, type ProgressSink } from '../../app/progress.ts';
import { STATUSES, type Status, type Verdict } from '../../core/results.ts';
import type { ServiceContext } from '../context.ts';
import { type Claim, recordProgress } from './claims.ts';

export type OperationState = 'waiting' | 'running' | 'done';

/** One operation in a run's progress: its state and its non-zero counts by status; a done one has its verdict so far. */
export type OperationProgress = { id: string; state: OperationState; verdict?: Verdict } & Partial<
  Record<Status, number>
>;

/** A run's progress as its row holds it (a client run's and a pact check's have no `operations`). */
export interface ProgressRow {
  /** Suites done, of `total`. */
  done: number;
  total: number;
  /** The suites running, by short name. */
  running: string[];
  operations?: OperationProgress[];
}

export interface RowProgressOptions {
  /** Where the JSON goes (default: the run's row, under the claim). */
  record?: (progress: string) => Promise<void>;
  /** The shortest time between two writes while results come in (default 500 ms). */
  intervalMs?: number;
  now?: () => number;
}

export const PROGRESS_INTERVAL_MS = 500;

const suiteName = (suite: string): string => basename(suite).replace(/\.suite\.ts$/, '');

export class RowProgress implements ProgressSink {
  readonly #running = new Set<string>();
  readonly #record: (progress: string) => Promise<void>;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #operations: { id: string; suite: string }[] = [];
  readonly #finished = new Set<string>();
  #tally: CheckTally | undefined;
  #done = 0;
  #total = 0;
  #write: Promise<void> = Promise.resolve();
  /** Something changed since the last write was taken. */
  #dirty = false;
  #written = '';
  #lastWriteAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #reader: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(ctx: ServiceContext, claim: Claim, options: RowProgressOptions = {}) {
    this.#record = options.record ?? ((progress) => recordProgress(ctx, claim, progress));
    this.#intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The progress as the row gets it. */
  json(): string {
    const row: ProgressRow = {
      done: this.#done,
      total: this.#total,
      running: [...this.#running].map(suiteName),
      operations: this.#operations.map(({ id, suite }) => {
        const state: OperationState = this.#finished.has(suite)
          ? 'done'
          : this.#running.has(suite)
            ? 'running'
            : 'waiting';
        const entry: OperationProgress = { id, state };
        const counts = this.#tally?.counts(id);
        for (const s of STATUSES) if (counts && counts[s] > 0) entry[s] = counts[s];
        if (state === 'done' && this.#tally) entry.verdict = this.#tally.verdict(id);
        return entry;
      }),
    };
    return JSON.stringify(row);
  }

  start(operations: readonly { id: string; suite: string }[], runDir: string): void {
    this.#operations = operations.map(({ id, suite }) => ({ id, suite }));
    this.#total = new Set(operations.map((o) => o.suite)).size;
    this.#tally = new CheckTally(runDir);
    // While suites run, their results are read as they come (each read takes only what was appended).
    this.#reader = setInterval(() => {
      if (this.#running.size > 0 && this.#tally && this.#tally.update().size > 0) this.#changed(false);
    }, this.#intervalMs);
    this.#reader.unref();
    this.#changed(true);
  }

  suiteStarted(suite: string): void {
    this.#running.add(suite);
    this.#changed(true);
  }

  suiteFinished(suite: string): void {
    this.#running.delete(suite);
    this.#finished.add(suite);
    this.#done++;
    this.#tally?.update();
    this.#changed(true);
  }

  /** The suites have ended: what is left is written now, and nothing after. */
  stop(): void {
    if (this.#stopped) return;
    this.#tally?.update();
    this.#dirty = true;
    this.#flush();
    this.#stopped = true;
    this.#clearTimers();
  }

  /** Settles once every write asked for so far has been made. */
  flushed(): Promise<void> {
    return this.#write;
  }

  #clearTimers(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#reader) clearInterval(this.#reader);
    this.#timer = undefined;
    this.#reader = undefined;
  }

  /** Something changed: written at once at a suite's boundary, else at most once an interval. */
  #changed(boundary: boolean): void {
    if (this.#stopped) return;
    this.#dirty = true;
    if (boundary) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#flush();
      return;
    }
    if (this.#timer) return;
    const wait = this.#lastWriteAt + this.#intervalMs - this.#now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
    this.#timer.unref();
  }

  /** Queues one write; when its turn comes it takes the progress as it is then (or nothing, when a write before it already did). */
  #flush(): void {
    this.#write = this.#write
      .then(async () => {
        if (!this.#dirty) return;
        this.#dirty = false;
        const progress = this.json();
        if (progress === this.#written) return;
        this.#written = progress;
        this.#lastWriteAt = this.#now();
        await this.#record(progress);
      })
      .catch(() => {});
  }
}
