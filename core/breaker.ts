/**
 * The run's breaker: when a service of the target stops answering (N consecutive time-outs or
 * transport failures on it, `http.stopAfterConsecutiveFailures`, default 3), its remaining calls are
 * not sent. Each comes back at once as an exchange whose `error` says why ("not sent: service X
 * stopped answering after 3 consecutive time-outs (last: ...)"), which the judgement records as
 * `error`: the run ends inconclusive in bounded time instead of every call waiting its full time-out.
 *
 * Any answer, whatever its HTTP status, resets the count. A target on which two services stopped
 * answering is taken to be down as a whole: no further call to that origin is sent at all.
 *
 * Suites run in several worker threads, so the state lives in files of the run folder: a file of
 * consecutive failures per (origin, service), removed by an answer, a marker per stopped service
 * and one per stopped origin, which every worker checks before sending. A stop is final for the run.
 *
 * A load refusal (HTTP 429, 503, or a transient 502 or 504; core/http.ts, DEC-R-05, DEC-R-07) is
 * an answer: the target is there and busy. It resets the count even when the call was left
 * unjudged after its retries; so does an answer in a content coding the suite cannot decode.
 *
 * The run's retry budget lives in the run folder too (RunRetryBudget): every resend after a load
 * refusal, in any worker or in the runner, takes from the one budget of the run; its totals are
 * read back by loadRetryTotals(runDir).
 *
 * So does the run's interruption (interruptRun, runInterruption): the runner's Ctrl-C reaches the
 * HTTP clients of every worker at once, so that none goes on waiting for a Retry-After.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import { type CallGuard, type LoadRetryTotals, overBudget, type RetryBudget, type RetryLimits } from './http.ts';

/** Consecutive failures after which a service's calls are no longer sent (config `http.stopAfterConsecutiveFailures`). */
export const DEFAULT_STOP_AFTER_FAILURES = 3;

/** What a breaker counts on: a service of the target at one origin. */
export interface BreakerKey {
  service: string;
  origin: string;
}

const STOPPED = '.stopped';
const FAILURES = '.failures';

/** "time-outs", "transport failures", or both, as the failures counted were. */
function failureNoun(n: number, kinds: ReadonlySet<string>): string {
  if (kinds.size > 1) return 'time-outs or transport failures';
  const one = kinds.has('time-out') ? 'time-out' : 'transport failure';
  return n === 1 ? one : `${one}s`;
}

/** Stopped services of one origin after which the origin as a whole is stopped. */
export const SERVICES_STOPPING_ORIGIN = 2;

export class Breaker implements CallGuard {
  /** Reasons of stops already seen, by marker file (a stop is final, so it is read once). */
  private readonly stops = new Map<string, string>();

  /**
   * @param dir the run folder, shared by every worker of the run
   * @param threshold consecutive failures that stop a service; 0 never stops one
   * @param keyOf the service a call belongs to; calls without one (tokens) are never counted nor stopped
   */
  constructor(
    private readonly dir: string,
    private readonly threshold: number,
    private readonly keyOf: (req: ExchangeRequest, operation?: string) => BreakerKey | undefined,
  ) {}

  /** Why this call is not sent, or undefined while its service answers. */
  refusal(req: ExchangeRequest, operation?: string): string | undefined {
    const key = this.threshold > 0 ? this.keyOf(req, operation) : undefined;
    if (!key) return undefined;
    return this.stopReason(this.serviceFile(key, STOPPED)) ?? this.stopReason(this.originFile(key.origin));
  }

  /** Counts the outcome of a call that was sent, against the service it was first sent to. */
  sent(x: Exchange, req: ExchangeRequest = x.request): void {
    const key = this.threshold > 0 ? this.keyOf(req, x.operation) : undefined;
    if (!key || x.errorKind === 'not-sent') return;
    const failures = this.serviceFile(key, FAILURES);
    if (
      x.response !== undefined ||
      x.error === undefined ||
      x.errorKind === 'load-refused' ||
      x.errorKind === 'undecodable'
    ) {
      if (existsSync(failures)) rmSync(failures, { force: true });
      return;
    }
    const kind = x.errorKind === 'time-out' ? 'time-out' : 'transport';
    appendFileSync(failures, `${kind}\t${(x.error ?? '').replace(/\s+/g, ' ')}\n`);
    let lines: string[];
    try {
      lines = readFileSync(failures, 'utf8').split('\n').filter(Boolean);
    } catch {
      return; // an answer in another worker just reset the count
    }
    if (lines.length < this.threshold) return;
    const kinds = new Set(lines.map((l) => l.split('\t')[0]));
    const last = lines[lines.length - 1].split('\t').slice(1).join('\t');
    const count = `${lines.length} consecutive ${failureNoun(lines.length, kinds)}`;
    write(
      this.serviceFile(key, STOPPED),
      `not sent: service ${key.service} stopped answering after ${count} (last: ${last})`,
    );
    const stopped = this.stoppedServices(key.origin);
    if (stopped.length >= SERVICES_STOPPING_ORIGIN) {
      const services = `${stopped.slice(0, -1).join(', ')} and ${stopped[stopped.length - 1]}`;
      write(
        this.originFile(key.origin),
        `not sent: the target ${key.origin} stopped answering (services ${services} stopped; last: ${last})`,
      );
    }
  }

  private stopReason(file: string): string | undefined {
    const known = this.stops.get(file);
    if (known !== undefined) return known;
    if (!existsSync(file)) return undefined;
    const reason = readFileSync(file, 'utf8');
    this.stops.set(file, reason);
    return reason;
  }

  /** The services of an origin that have stopped. */
  private stoppedServices(origin: string): string[] {
    const prefix = `${originPart(origin)}-`;
    return readdirSync(this.dir)
      .filter((name) => name.startsWith(prefix) && name.endsWith(STOPPED))
      .map((name) => name.slice(prefix.length, -STOPPED.length))
      .sort();
  }

  private originFile(origin: string): string {
    return join(this.dir, `${originPart(origin)}${STOPPED}`);
  }

  private serviceFile(key: BreakerKey, suffix: string): string {
    return join(this.dir, `${originPart(key.origin)}-${key.service.replace(/[^A-Za-z0-9_-]/g, '_')}${suffix}`);
  }
}

function originPart(origin: string): string {
  return `breaker-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}`;
}

/** Writes a stop marker whole (a worker never reads half of it); the first stop's reason stays. */
function write(file: string, reason: string): void {
  if (existsSync(file)) return;
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  writeFileSync(temporary, reason);
  renameSync(temporary, file);
}

const RETRIES_FILE = 'load-retries';

/**
 * The run's budget of resends after load refusals, shared by every worker and the runner through a
 * file of the run folder: a line per resend (`R <ms waited>`), per call left unjudged (`G`) and per
 * resend whose wait an interruption cut short (`I <ms not waited>`: not made, the call left unjudged).
 * Two workers taking the last resend at the same moment may both get it: the budget is kept to
 * within one resend per worker.
 */
export class RunRetryBudget implements RetryBudget {
  private readonly file: string;

  constructor(
    dir: string,
    private readonly limits: RetryLimits,
  ) {
    this.file = join(dir, RETRIES_FILE);
  }

  take(waitMs: number): string | undefined {
    const why = overBudget(this.totals(), this.limits, waitMs);
    if (why === undefined) appendFileSync(this.file, `R ${Math.round(waitMs)}\n`);
    return why;
  }

  gaveUp(): void {
    appendFileSync(this.file, 'G\n');
  }

  interrupted(unwaitedMs: number): void {
    appendFileSync(this.file, `I ${Math.round(unwaitedMs)}\n`);
  }

  totals(): LoadRetryTotals {
    return loadRetryTotals(join(this.file, '..'));
  }
}

/**
 * What the run whose folder is `runDir` spent on load refusals so far, runner and every worker
 * together: resends, milliseconds waited before them, and calls left unjudged.
 */
export function loadRetryTotals(runDir: string): LoadRetryTotals {
  const totals: LoadRetryTotals = { retries: 0, waitedMs: 0, gaveUp: 0 };
  let text = '';
  try {
    text = readFileSync(join(runDir, RETRIES_FILE), 'utf8');
  } catch {
    return totals; // nothing spent yet
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('R ')) {
      totals.retries += 1;
      totals.waitedMs += Number(line.slice(2)) || 0;
    } else if (line === 'G') totals.gaveUp += 1;
    else if (line.startsWith('I ')) {
      totals.retries -= 1;
      totals.waitedMs -= Number(line.slice(2)) || 0;
      totals.gaveUp += 1;
    }
  }
  return totals;
}

const INTERRUPTED_FILE = 'interrupted';
const channelOf = (runDir: string): string => `conformance-run-interrupted:${runDir}`;

/**
 * Tells every HTTP client of the run that it is interrupted (Ctrl-C): the runner calls it when its
 * own signal aborts. Worker threads hear it at once; one started later finds the run folder's marker.
 */
export function interruptRun(runDir: string): void {
  try {
    writeFileSync(join(runDir, INTERRUPTED_FILE), '');
  } catch {
    // the run folder is gone: the run has ended anyway
  }
  const channel = new BroadcastChannel(channelOf(runDir));
  channel.postMessage('interrupted');
  channel.close();
}

/**
 * An AbortSignal of this thread aborted when the run is interrupted (interruptRun), for the HTTP
 * client of a suite worker. It keeps no thread alive.
 */
export function runInterruption(runDir: string): AbortSignal {
  const controller = new AbortController();
  if (existsSync(join(runDir, INTERRUPTED_FILE))) {
    controller.abort();
    return controller.signal;
  }
  const channel = new BroadcastChannel(channelOf(runDir));
  channel.unref();
  channel.onmessage = () => {
    controller.abort();
    channel.close();
  };
  return controller.signal;
}
