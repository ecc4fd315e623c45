/**
 * The shared part of the stateful sequences (issue 14, item 4): the small target interface the
 * machines talk to, the judging helpers every machine uses, and the runner that turns a machine
 * into a fast-check model-based property (`fc.commands` + `fc.asyncModelRun`), runs it, and
 * reports the shrunk counterexample with what replays it.
 *
 * Why a model: the documents define state (an acknowledged batch is gone, a deleted patient is
 * 404, listing payors creates `slf` and `na` once), and a state fault shows only in a sequence.
 * The commands judge every answer against the model, so no command is told where a fault is:
 * fast-check finds a failing order and shrinks it to the shortest one.
 */
import { carriesErrorCode, errorCodesOf } from '../core/readers/errorCode.ts';
import { pagingTags } from '../core/readers/paging.ts';
import fc from 'fast-check';

/** One answer of the target, as much of it as the machines judge. */
export interface MachineAnswer {
  status: number;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** The raw body, for failure messages. */
  text?: string;
}

/** One request of a machine: headers beyond the credentials, a body, and which credential it needs. */
export interface MachineRequest {
  headers?: Record<string, string>;
  body?: string;
  /**
   * Which credential the target adds: `client` (a client-credentials token: Documents 1 and the
   * contract operations) or `user` (a user token: the patient operations, DEC-D3-07).
   */
  credential: 'client' | 'user';
}

/**
 * What the machines call. Deliberately small so the suite's HTTP client (with discovery, its
 * credentials and exchange recording) can stand in for the sandbox helper.
 */
export interface MachineTarget {
  /** One request; `path` is relative to the target's base and may carry a query string. */
  call(method: string, path: string, init: MachineRequest): Promise<MachineAnswer>;
  /**
   * Back to a known state before each sequence (the sandbox's provider-state endpoint). Without
   * it the sequences still judge only what they themselves did, but a shrink or a replay may meet
   * the leftovers of earlier sequences, and acknowledged batches do not come back.
   */
  reset?(): Promise<void>;
}

/** What a command sees while it runs: the target and the trace of this sequence. */
export interface MachineReal {
  target: MachineTarget;
  /** One line per request of the sequence, for the failure message. */
  trace: string[];
  /** A request, traced. */
  call(method: string, path: string, init: MachineRequest): Promise<MachineAnswer>;
}

/** A state machine: how to start its model, and its commands (fixtures are the machine's own options). */
export interface StateMachine<Model extends object> {
  name: string;
  /** The model at the start of a sequence; may observe the target (the pending batches). */
  setup(real: MachineReal): Promise<Model>;
  commands: fc.Arbitrary<fc.AsyncCommand<Model, MachineReal>>[];
  /**
   * A first sequence run before the random ones at every seed: every documented transition once,
   * so that a state fault's power does not hang on the seed (the random sequences then explore).
   */
  opening?: () => fc.AsyncCommand<Model, MachineReal>[];
}

/** Options of a run. */
export interface RunOptions {
  /** The seed to run with (default: a random one, returned). */
  seed?: number;
  /** A path returned by a failed run: replays that counterexample only (with `seed`). */
  path?: string;
  /** Sequences to generate (default 20). */
  numRuns?: number;
  /** Commands per sequence at most (default 15). */
  maxCommands?: number;
}

/** What a run reports. */
export interface RunResult {
  ok: boolean;
  seed: number;
  /**
   * Where the counterexample sits: fast-check's counterexample path, then `#` and the commands'
   * replay hint (fast-check needs both to rebuild a shrunk command list). Undefined when ok.
   */
  path?: string;
  /** The shrunk failing sequence, one command per entry, in the order they ran. */
  counterexample?: string[];
  /** Why the last command failed (`Expected X, received Y`), then the requests of the sequence. */
  failure?: string;
}

/** Thrown by a command when the target's answer contradicts the model. */
export class ModelMismatch extends Error {}

const NAMES_ROW = /\(breaks [A-Z][A-Z0-9.-]+\)$/;

/**
 * Runs a step's judgement naming the requirement row a failure of it breaks: its message ends
 * `(breaks ROW)`, so that "what to change" names the row of the step that failed (the stored
 * update, the delete) from the command itself, not by matching words (issue 30, item 5).
 */
export async function breaking<T>(row: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof ModelMismatch && !NAMES_ROW.test(e.message))
      throw new ModelMismatch(`${e.message} (breaks ${row})`);
    throw e;
  }
}

/** A short form of an answer for messages. */
export function describeAnswer(a: MachineAnswer): string {
  const codes = errorCodesOf(a.json, a.text);
  return `${a.status}${codes.length === 0 ? '' : ` ${codes.join(', ')}`}`;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fails unless the answer is a success (2xx: the documents' exact status is another check's business). */
export function expectSuccess(what: string, a: MachineAnswer): void {
  if (a.status < 200 || a.status > 299)
    throw new ModelMismatch(`Expected ${what} to succeed (2xx), received ${describeAnswer(a)}`);
}

/** Fails on a server error (5xx): where the documents leave the answer open (DEC-D3-38, DEC-D3-59). */
export function expectNotServerError(what: string, a: MachineAnswer): void {
  if (a.status >= 500 || a.status < 100)
    throw new ModelMismatch(`Expected ${what} not to be a server error, received ${describeAnswer(a)}`);
}

/**
 * Fails unless the answer is a refusal (4xx other than 401/403, which would mean the credentials,
 * not the state) with one of the documented codes (any code when none is given).
 */
export function expectRefused(what: string, a: MachineAnswer, codes: readonly string[] = [], status?: number): void {
  const statusOk =
    status === undefined
      ? a.status >= 400 && a.status <= 499 && a.status !== 401 && a.status !== 403
      : a.status === status;
  // The code is read as every check reads it (core/readers/errorCode.ts): any coding, top level, InvalidId.
  if (!statusOk || (codes.length > 0 && !carriesErrorCode(a.json, codes, a.text))) {
    const expected = `${status ?? '4xx'}${codes.length > 0 ? ` ${codes.join(' or ')}` : ''}`;
    throw new ModelMismatch(`Expected ${what} to be refused with ${expected}, received ${describeAnswer(a)}`);
  }
}

/** The resources of a Bundle's entries. */
export function bundleResources(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body.entry)) return [];
  return body.entry.flatMap((e) => (isRecord(e) && isRecord(e.resource) ? [e.resource] : []));
}

/**
 * Every resource of a paged listing: `page` 1, 2 ... until an empty page, a page that adds
 * nothing new (a target that ignores `page`), or the declared total (`total`, or the paging tag
 * named `totalTag`) is reached. Paging is walked because the page size is the target's choice.
 */
export async function listAllPages(
  real: MachineReal,
  what: string,
  path: string,
  init: MachineRequest,
  totalTag: string,
): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= 50; page++) {
    const a = await real.call('GET', page === 1 ? path : `${path}${path.includes('?') ? '&' : '?'}page=${page}`, init);
    expectSuccess(`${what} (page ${page})`, a);
    const resources = bundleResources(a.json);
    // A resource without an id still counts once per page (a duplicate the caller may judge).
    const keys = resources.map((r, k) => (typeof r.id === 'string' ? r.id : `${page}#${k}`));
    const fresh = keys.filter((k) => !seen.has(k));
    all.push(...resources);
    for (const k of keys) seen.add(k);
    const declared = Number(pagingTags(a.json).get(totalTag) ?? (isRecord(a.json) ? a.json.total : undefined));
    if (resources.length === 0 || fresh.length === 0 || !Number.isFinite(declared) || all.length >= declared) break;
  }
  return all;
}

/** A command whose run is traced and whose text is its own description (no commas: the list is split on them). */
export function command<Model extends object>(
  text: string,
  check: (m: Readonly<Model>) => boolean,
  run: (m: Model, real: MachineReal) => Promise<void>,
): fc.AsyncCommand<Model, MachineReal> {
  return {
    check,
    run: async (m, real) => {
      real.trace.push(`# ${text}`);
      try {
        await run(m, real);
      } catch (error) {
        if (error instanceof ModelMismatch) throw new ModelMismatch(`${text}: ${error.message}`);
        throw error;
      }
    },
    toString: () => text,
  };
}

/** Splits the returned path into fast-check's path and the commands' replay hint. */
function splitPath(path: string | undefined): { path?: string; replayPath?: string } {
  if (path === undefined) return {};
  const [fcPath, replayPath] = path.split('#');
  return { path: fcPath, ...(replayPath ? { replayPath } : {}) };
}

/**
 * Runs a machine: random sequences of its commands against the target, each from a reset target
 * and a fresh model; a failure is shrunk to the shortest sequence that still fails. With `seed`
 * and `path` from a failed run, replays exactly that counterexample.
 */
export async function runMachine<Model extends object>(
  machine: StateMachine<Model>,
  target: MachineTarget,
  options: RunOptions = {},
): Promise<RunResult> {
  const { path, replayPath } = splitPath(options.path);
  const arb = fc.commands(machine.commands, {
    maxCommands: options.maxCommands ?? 15,
    // Lengths up to the maximum: a state fault needs a few steps before it shows.
    size: 'max',
    ...(replayPath === undefined ? {} : { replayPath }),
  });
  // The reported counterexample is the last value that failed (fast-check moves to each failing
  // shrink), so the last failing sequence's record is the counterexample's.
  let lastFailure: { ran: string[]; message: string } | undefined;
  const property = fc.asyncProperty(arb, async (cmds) => {
    const trace: string[] = [];
    const real: MachineReal = {
      target,
      trace,
      call: async (method, p, init) => {
        const a = await target.call(method, p, init);
        trace.push(`${method} ${p} -> ${describeAnswer(a)}`);
        return a;
      },
    };
    try {
      await target.reset?.();
      const model = await machine.setup(real);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    } catch (error) {
      const ran = trace.filter((l) => l.startsWith('# ')).map((l) => l.slice(2));
      const message = error instanceof Error ? error.message : String(error);
      lastFailure = { ran, message: `${message}\n${trace.map((l) => `  ${l}`).join('\n')}` };
      throw error;
    }
  });
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const details = await fc.check(property, {
    seed,
    numRuns: options.numRuns ?? 20,
    ...(machine.opening ? { examples: [[machine.opening()]] } : {}),
    ...(path === undefined ? {} : { path }),
  });
  if (!details.failed) return { ok: true, seed: details.seed };
  const shown = details.counterexample ? String(details.counterexample[0]) : '';
  const hint = /replayPath="([^"]*)"/.exec(shown)?.[1];
  return {
    ok: false,
    seed: details.seed,
    ...(details.counterexamplePath === null
      ? {}
      : { path: hint ? `${details.counterexamplePath}#${hint}` : details.counterexamplePath }),
    counterexample: lastFailure?.ran ?? [],
    failure:
      lastFailure?.message ??
      (details.errorInstance instanceof Error ? details.errorInstance.message : 'unknown failure'),
  };
}
