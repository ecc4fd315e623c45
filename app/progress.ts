/**
 * Progress of a run while it works, on stderr (stdout keeps the summary). On a terminal: one
 * live line (operations done, suites running, elapsed time), rewritten in place, and one line per
 * finished operation above it. Elsewhere (CI logs, pipes): one plain line per finished operation,
 * never a cursor code. `--quiet` turns it off.
 *
 * An operation is finished when its suite file has run; its counts are read from the event files
 * the suite workers append to (core/events.ts), so they are the results judged so far (the
 * runner's own results, such as the discovery key, are added to the summary at the end).
 * CheckTally is that reading on its own: the certification service's sink
 * (service/jobs/runProgress.ts) counts each operation's results with it too, from the run folder
 * `start` names, so the run engine reports nothing more than suites starting and finishing.
 */
import { openSync, readdirSync, readSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkerEvent } from '../core/events.ts';
import { emptyCounts, type Status, type Verdict, verdictOf } from '../core/results.ts';

export interface ProgressSink {
  /** The run's operations (id and suite file), before the suites start. */
  start(operations: readonly { id: string; suite: string }[], runDir: string): void;
  suiteStarted(suite: string): void;
  suiteFinished(suite: string): void;
  stop(): void;
}

export interface ProgressOptions {
  write: (text: string) => void;
  /** A terminal: the live line is drawn with carriage returns and erase-line codes. */
  tty: boolean;
  color: boolean;
  /** Terminal width (for trimming the live line). */
  columns?: number;
  now?: () => number;
}

/** True when colour may be used on a stream: a terminal, NO_COLOR unset, TERM not dumb. */
export function colourAllowed(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const STATUS_LABEL: Record<string, string> = {
  conformant: 'ok  ',
  'not-conformant': 'FAIL',
  inconclusive: '??  ',
};

/** Reads what was appended to the run's event files since the last call. */
class EventTail {
  readonly #offsets = new Map<string, number>();
  readonly #partial = new Map<string, string>();

  constructor(private readonly dir: string) {}

  read(): WorkerEvent[] {
    const events: WorkerEvent[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.startsWith('events-'));
    } catch {
      return events;
    }
    for (const name of names.sort()) {
      const file = join(this.dir, name);
      const from = this.#offsets.get(name) ?? 0;
      const size = statSync(file).size;
      if (size <= from) continue;
      const buffer = Buffer.alloc(size - from);
      const fd = openSync(file, 'r');
      try {
        readSync(fd, buffer, 0, buffer.length, from);
      } finally {
        closeSync(fd);
      }
      this.#offsets.set(name, size);
      const text = (this.#partial.get(name) ?? '') + buffer.toString('utf8');
      const lines = text.split('\n');
      this.#partial.set(name, lines.pop() ?? '');
      for (const line of lines) {
        if (!line) continue;
        try {
          events.push(JSON.parse(line) as WorkerEvent);
        } catch {
          // a line cut by a crash: the summary at the end reads the files again
        }
      }
    }
    return events;
  }
}

/** Each operation's results judged so far, read from the run's event files as the suites append to them. */
export class CheckTally {
  readonly #tail: EventTail;
  readonly #results = new Map<string, { level: string; status: Status }[]>();

  constructor(runDir: string) {
    this.#tail = new EventTail(runDir);
  }

  /** Reads what was appended since the last call; answers the operations whose results grew. */
  update(): Set<string> {
    const grew = new Set<string>();
    for (const e of this.#tail.read()) {
      if (e.type !== 'check-evaluated') continue;
      const list = this.#results.get(e.result.operation) ?? [];
      list.push({ level: e.result.level, status: e.result.status });
      this.#results.set(e.result.operation, list);
      grew.add(e.result.operation);
    }
    return grew;
  }

  /** An operation's results so far, by status. */
  counts(id: string): Record<Status, number> {
    const counts = emptyCounts();
    for (const r of this.#results.get(id) ?? []) counts[r.status]++;
    return counts;
  }

  /** An operation's verdict on its results so far (core/results.ts verdictOf). */
  verdict(id: string): Verdict {
    return verdictOf((this.#results.get(id) ?? []) as never);
  }
}

export class Progress implements ProgressSink {
  readonly #o: ProgressOptions;
  #operations: { id: string; suite: string }[] = [];
  #tally: CheckTally | undefined;
  readonly #running = new Set<string>();
  #done = 0;
  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #live = false;

  constructor(options: ProgressOptions) {
    this.#o = options;
  }

  start(operations: readonly { id: string; suite: string }[], runDir: string): void {
    this.#operations = [...operations];
    this.#tally = new CheckTally(runDir);
    this.#startedAt = this.#now();
    if (this.#o.tty) {
      this.#timer = setInterval(() => this.#draw(), 250);
      this.#timer.unref();
      this.#draw();
    } else {
      this.#o.write(`Judging ${operations.length} operations\n`);
    }
  }

  suiteStarted(suite: string): void {
    this.#running.add(suite);
    if (this.#o.tty) this.#draw();
  }

  suiteFinished(suite: string): void {
    this.#running.delete(suite);
    this.#tally?.update();
    const lines = this.#operations.filter((o) => o.suite === suite).map((o) => this.#line(o.id));
    this.#done += lines.length;
    this.#print(lines);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clearLive();
  }

  #now(): number {
    return this.#o.now ? this.#o.now() : performance.now();
  }

  #line(id: string): string {
    const counts = this.#tally?.counts(id) ?? emptyCounts();
    const verdict = this.#tally?.verdict(id) ?? 'inconclusive';
    const label = STATUS_LABEL[verdict];
    const coloured =
      !this.#o.color || verdict === 'inconclusive'
        ? label
        : `\x1b[${verdict === 'conformant' ? 32 : 31}m${label}\x1b[0m`;
    const parts = (['pass', 'fail', 'error', 'warn', 'skip', 'omit'] as const)
      .filter((s) => counts[s] > 0 || s === 'pass' || s === 'fail')
      .map((s) => `${counts[s]} ${s}`);
    const width = Math.max(...this.#operations.map((o) => o.id.length));
    return `${coloured} ${id.padEnd(width)}  ${parts.join(', ')}`;
  }

  #print(lines: string[]): void {
    if (lines.length === 0) return;
    this.#clearLive();
    this.#o.write(`${lines.join('\n')}\n`);
    if (this.#o.tty) this.#draw();
  }

  #clearLive(): void {
    if (this.#live) this.#o.write('\r\x1b[2K');
    this.#live = false;
  }

  #draw(): void {
    if (!this.#o.tty || !this.#tally) return;
    const seconds = Math.round((this.#now() - this.#startedAt) / 1000);
    const running = [...this.#running].join(', ');
    let text = `${this.#done}/${this.#operations.length} operations judged · ${seconds} s${running ? ` · running ${running}` : ''}`;
    const columns = this.#o.columns ?? 80;
    if (text.length > columns - 1) text = `${text.slice(0, columns - 2)}…`;
    this.#o.write(`\r\x1b[2K${text}`);
    this.#live = true;
  }
}
