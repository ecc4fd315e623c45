/**
 * A service run's progress, written to its row as suites start and finish (what the run page and
 * its event stream show).
 */
import { basename } from 'node:path';
import type { ProgressSink } from '../../app/progress.ts';
import type { ServiceContext } from '../context.ts';
import { type Claim, recordProgress } from './claims.ts';

export class RowProgress implements ProgressSink {
  readonly #running = new Set<string>();
  #done = 0;
  #total = 0;
  #write: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly claim: Claim,
  ) {}

  #save(): void {
    const progress = JSON.stringify({
      done: this.#done,
      total: this.#total,
      running: [...this.#running].map((s) => basename(s).replace(/\.suite\.ts$/, '')),
    });
    this.#write = this.#write.then(() => recordProgress(this.ctx, this.claim, progress)).catch(() => {});
  }

  start(operations: readonly { id: string; suite: string }[]): void {
    this.#total = new Set(operations.map((o) => o.suite)).size;
    this.#save();
  }
  suiteStarted(suite: string): void {
    this.#running.add(suite);
    this.#save();
  }
  suiteFinished(suite: string): void {
    this.#running.delete(suite);
    this.#done++;
    this.#save();
  }
  stop(): void {}
  flushed(): Promise<void> {
    return this.#write;
  }
}
