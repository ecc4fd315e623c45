/**
 * Independent requests sent ahead, judged in order (issue 34). A suite that has a list of requests
 * none of which depends on another's answer (the coverage phase of an operation that changes
 * nothing, the generated cases of a property) starts up to `width` of them before it needs the
 * first answer, and still takes the answers one by one in the list's order: what it judges and
 * records, and in what order, is what it would be had it sent them one after another. The run's
 * pacing (core/http.ts, Pacer) bounds what is really in flight; `width` bounds only how far ahead
 * of the judging the sending runs, so that a list that stops early (a property's first failure)
 * has sent at most `width - 1` requests it did not need. A width of 1 sends each request when it
 * is taken: exactly the order of a run without concurrency.
 *
 * What a request teaches the run about held fixtures (core/suite.ts) is learnt when its answer is
 * taken, in the list's order, never as it arrives; the answer of a request never taken teaches
 * nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from './exchange.ts';
import { sentAhead } from './http.ts';

/** What the exchanges a task sent ahead received teach, kept back until the task's answer is taken. */
const keptBack = new AsyncLocalStorage<(() => void)[]>();

/**
 * Calls `learn(x)` now, or, inside a task sent ahead, when that task's answer is taken (in the
 * list's order); never for a task whose answer is not taken.
 */
export function learnInOrder(x: Exchange, learn: (x: Exchange) => void): void {
  const kept = keptBack.getStore();
  if (kept) kept.push(() => learn(x));
  else learn(x);
}

interface Started<T> {
  result: Promise<T>;
  kept: (() => void)[];
}

export class SendAhead<T> {
  private readonly started: Started<T>[] = [];
  private stopped = false;

  /**
   * @param tasks the requests, each sending and returning what is judged of it
   * @param width how many may be started before the one taken is answered (at least 1)
   * @param mayGoAhead whether task `k` may be started before it is taken (default every one); one
   *   that may not is started when it is taken, every task before it taken, and no task after it
   *   is started before
   */
  constructor(
    private readonly tasks: readonly (() => Promise<T>)[],
    private readonly width: number,
    private readonly mayGoAhead: (k: number) => boolean = () => true,
  ) {}

  get length(): number {
    return this.tasks.length;
  }

  /** The answer of task `i`, once every exchange it received has been learnt; starts the tasks up to `i + width - 1`. */
  async take(i: number): Promise<T> {
    const most = this.stopped ? i + 1 : Math.min(this.tasks.length, i + Math.max(1, this.width));
    for (let k = this.started.length; k < most && (k === i || this.mayGoAhead(k)); k++) this.start(k, k > i);
    const s = this.started[i];
    const result = await s.result;
    for (const learn of s.kept.splice(0)) learn();
    return result;
  }

  /** No task is started ahead any more: the list stops at the one taken last. */
  stop(): void {
    this.stopped = true;
  }

  /** Waits for every task started to end (their answers not taken are dropped). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.started.map((s) => s.result));
  }

  /** Starts task `k`; `ahead` when it is not the one taken now (its calls then leave places for other workers, core/http.ts Pacer). */
  private start(k: number, ahead: boolean): void {
    const kept: (() => void)[] = [];
    const result = keptBack.run(kept, () => (ahead ? sentAhead.run(true, this.tasks[k]) : this.tasks[k]()));
    // A task whose answer is never taken must not leave an unhandled rejection behind.
    result.catch(() => undefined);
    this.started[k] = { result, kept };
  }
}
