/**
 * The exchange log of a differential run (issue 35, `conformance compare`): with the run option
 * `exchangeLog` (a folder), every call a suite worker sends is appended, as it is answered, to a
 * JSON-lines file of its own in that folder, whether or not a check records it as evidence (a
 * property's generated cases are judged without being kept). Each line says where the call was
 * made, by what is the same on every target given the same seed and options (the suite file, the
 * vitest test and the call's place among the calls that test started), never by the URL or an id a
 * server returned; and it carries the exchange's id, by which the run's check results name the
 * exchange they judged.
 *
 * Secrets are masked as in every artefact (core/redact.ts: credential headers, token fields, the
 * secret values in every form a target may echo them, core/secretForms.ts), tokens obtained during
 * the run included; bodies are kept whole, and personal data is kept, so that two answers compare
 * by what they say: the comparison masks what it writes by the run's evidence mode. The folder is
 * the caller's to remove.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import type { CallGuard } from './http.ts';
import { Redactor } from './redact.ts';
import type { ExchangeRecord } from './results.ts';

/** Where a call was made: the same on every target for the same seed and options. */
export interface CallPlace {
  /** The suite file (`bills`), '' outside one. */
  suite: string;
  /** The vitest test's full name, '' in a hook. */
  test: string;
}

export interface LoggedExchange extends CallPlace {
  /** The exchange's id (a check result names the exchange it judged by it). */
  id: string;
  /** The call's place among the calls its test started, from 0, in the order they were started. */
  ordinal: number;
  /** The exchange, secrets masked, bodies whole. */
  exchange: ExchangeRecord;
}

const PREFIX = 'exchanges-';

export class ExchangeLog {
  private readonly file: string;
  private redactor: Redactor;
  private readonly started = new WeakMap<ExchangeRequest, Omit<LoggedExchange, 'id' | 'exchange'>>();
  private readonly calls = new Map<string, number>();

  /**
   * @param dir the folder of the log (one file per worker thread in it)
   * @param place where the running call is made (the worker reads vitest's state)
   * @param secrets the run's secrets (its token, the config's), masked in every line
   */
  constructor(
    dir: string,
    private readonly place: () => CallPlace,
    secrets: readonly string[],
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${PREFIX}${process.pid}-${threadId}.jsonl`);
    // Secrets only, bodies whole: what is compared is what the target said.
    this.redactor = new Redactor(secrets);
  }

  /** Masks a secret obtained during the run (a suite's own token) in every later line. */
  learnSecret(secret: string): void {
    this.redactor = this.redactor.with([secret]);
  }

  /**
   * The guard that logs every call `inner` lets through: its place is taken when the call starts
   * (in the order the test starts its calls, whatever order the answers come in), its line
   * written when it is answered.
   */
  guard(inner: CallGuard): CallGuard {
    return {
      refusal: (req, operation) => {
        const refused = inner.refusal(req, operation);
        if (refused === undefined) this.start(req);
        return refused;
      },
      sent: (x, req) => {
        inner.sent(x, req);
        this.append(x, req);
      },
    };
  }

  private start(req: ExchangeRequest): void {
    const where = this.place();
    const key = `${where.suite}\u0000${where.test}`;
    const ordinal = this.calls.get(key) ?? 0;
    this.calls.set(key, ordinal + 1);
    this.started.set(req, { ...where, ordinal });
  }

  private append(x: Exchange, req: ExchangeRequest): void {
    const where = this.started.get(req);
    if (!where) return;
    const line: LoggedExchange = { ...where, id: x.id, exchange: this.redactor.exchange(x) };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

/**
 * Every exchange logged in the folder, ordered by suite, test and place (the order of the files
 * and of the answers within them is the workers'). A line cut short (a worker killed mid-line) is
 * skipped; a file is read line by line, never as one string.
 */
export function readExchangeLog(dir: string): LoggedExchange[] {
  const out: LoggedExchange[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(PREFIX));
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const data = readFileSync(join(dir, name));
    for (let start = 0; start < data.length; ) {
      const newline = data.indexOf(0x0a, start);
      const end = newline === -1 ? data.length : newline;
      if (end > start) {
        try {
          out.push(JSON.parse(data.toString('utf8', start, end)) as LoggedExchange);
        } catch {
          // a partial last line
        }
      }
      start = end + 1;
    }
  }
  return out.sort(
    (a, b) =>
      a.suite.localeCompare(b.suite) ||
      a.test.localeCompare(b.test) ||
      a.ordinal - b.ordinal ||
      a.id.localeCompare(b.id),
  );
}
