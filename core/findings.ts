/**
 * Findings: the results of a run grouped by cause (issue 24). A run against a server with one
 * broken rule records the same failure many times, once per request that shows it; a person acts
 * on the cause, not on each repetition. Results that fail (or err, or warn) the same check at the
 * same level for the same reason form one finding, whatever the operation: the reason is the
 * result's message with values, ids, counts and array indexes abstracted (`causeOf`), so "page is
 * the number 3" and "page is the number 7" are one cause, and a schema error at
 * `/entry/4/resource/id` is the same as at `/entry/0/resource/id`.
 *
 * A finding keeps every result (their indexes in `RunResults.results`), the operations it touches,
 * the union of the requirements they cite, its shortest example and one sentence on what the
 * target must do differently, taken from the failure's "Expected ..." and the rows it cites.
 * Findings are ordered as a person should read them: MUST failures, then errors, then SHOULD and
 * INFO; within a level by how many operations they touch, then by how many results they hold.
 *
 * A finding's `key` is stable across runs of the same suite version (it is made of the check,
 * the level, the status and the cause), so that a baseline (core/baseline.ts) can tell new
 * findings from those still failing and those fixed.
 */
import { createHash } from 'node:crypto';
import { namedMembers } from '../spec/memberRows.ts';
import { operations as OPERATIONS } from '../spec/operations.ts';
import type { Level } from '../spec/types.ts';
import type { CheckResult, RunResults, Status } from './results.ts';

export type FindingStatus = Extract<Status, 'fail' | 'error' | 'warn'>;

export interface Finding {
  /** Stable id of the cause: sha-256 (first 12 hex digits) of level, status, check and cause. */
  key: string;
  check: string;
  level: Level;
  status: FindingStatus;
  /** The normalised reason: the message with values, ids, counts and indexes abstracted. */
  cause: string;
  /** Operation ids the finding touches, in the order first met. */
  operations: string[];
  /** Every requirement the finding's results cite, sorted. */
  requirements: string[];
  /** Indexes into `RunResults.results`, in run order. */
  results: number[];
  /** Index of the example: the result with the shortest message (the first such). */
  example: number;
  /** One sentence: what the target must do differently. */
  change: string;
}

const STATUS_ORDER: Record<FindingStatus, number> = { fail: 0, error: 1, warn: 2 };
const LEVEL_ORDER: Record<Level, number> = { MUST: 0, SHOULD: 1, INFO: 2 };

export function isFindingStatus(s: Status): s is FindingStatus {
  return s === 'fail' || s === 'error' || s === 'warn';
}

/**
 * The reason of a message with what varies from one request to the next abstracted: quoted and
 * backticked values, schema file names, ISO dates and times, UUIDs and long hex, array indexes of
 * JSON pointers and every other number but an HTTP status (`HTTP 404`) and a requirement id
 * (`D1-2.1-04`). Runs of white space become one space.
 */
export function causeOf(message: string): string {
  return (
    message
      // Values in quotes: a body, a member value, an id.
      .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
      .replace(/'(?:[^'\\\n]|\\.)*'/g, "'…'")
      // A schema file names the operation, which the finding lists apart.
      .replace(/\b[\w-]+\.schema\.json\b/g, '<schema>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
      .replace(/\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<date>')
      .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
      // JSON pointer and bracket indexes.
      .replace(/\/\d+(?=\/|\b)/g, '/*')
      .replace(/\[\d+\]/g, '[*]')
      // Numbers, except an HTTP status and the numbers inside a requirement or decision id.
      .replace(
        /(\bHTTP |\b(?:D\d|DEC-[A-Z]\d?)-[\d.]+-|\bDEC-[A-Z]\d?-)?(?<![A-Za-z_])(\d+(?:\.\d+)?)(?![A-Za-z_\d])/g,
        (m, keep: string | undefined) => (keep !== undefined ? m : 'N'),
      )
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The key of a cause: stable across runs of one suite version. */
export function findingKey(r: Pick<CheckResult, 'check' | 'level' | 'status' | 'message'>): string {
  return createHash('sha256')
    .update(`${r.level}\u0000${r.status}\u0000${r.check}\u0000${causeOf(r.message)}`)
    .digest('hex')
    .slice(0, 12);
}

/** The "Expected X" part of a message, without the "received" part: what the target should have done. */
export function expectedPart(message: string): string | undefined {
  const m = /^Expected (.+?)(?:, received |; received | but received | received )/s.exec(message);
  return m?.[1]?.trim();
}

const joinOps = (ops: readonly string[]): string =>
  ops.length <= 3 ? ops.join(', ') : `${ops.slice(0, 3).join(', ')} and ${ops.length - 3} more`;

/**
 * What the target must do differently, in one sentence: the expectation of the example's message
 * on the operations the finding touches, and the first cited requirement in the documents' words.
 */
export function changeOf(
  check: string,
  level: Level,
  operations: readonly string[],
  example: Pick<CheckResult, 'message' | 'summary'> & { operation?: string },
  requirements: readonly string[],
  rows: ReadonlyMap<string, { text: string; level: Level; operations?: readonly string[] }>,
): string {
  const schemaCause = /^Expected a body valid against \S+, received (\/\S*) must (.+?)(?:, received |; |$)/.exec(
    example.message,
  );
  const change = level === 'MUST' ? 'Change' : level === 'SHOULD' ? 'Consider changing' : 'Look at';
  const outcome = schemaCause
    ? `${causeOf(schemaCause[1] as string)} ${indicative(schemaCause[2] as string)}`
    : `${check} sees ${lowerFirst(expectedPart(example.message) ?? example.summary.replace(/\.$/, ''))}`;
  const because = becauseOf(level, example, requirements, rows);
  return `${change} ${joinOps(operations)} so that ${outcome}${because}.`;
}

/**
 * An error is not the server's failure: nothing was judged. What to do is about the run, not the
 * answers: a refusal for load asks for a slower or more patient run, anything else for a target
 * that answers (issue 22: load is not non-conformance).
 */
export function errorAdvice(example: Pick<CheckResult, 'message'>): string {
  if (/for load|HTTP 429|Retry-After/i.test(example.message))
    return 'Nothing to change in the answers: the target refused for load and the call was not judged; pace the run (--max-requests-per-second, --concurrency) or give it a larger retry budget (http.loadRetries, http.loadRetryWaitMs) and run again.';
  return 'Nothing was judged here (no answer to judge): check that the target answers within http.timeoutMs and that the run is not stopped early, then run again.';
}

/**
 * ` (ROW: “its text”)`: the cited row most about the cause of a finding, in the documents' words
 * (server and client advice alike); '' when it cites none.
 */
function becauseOf(
  level: Level,
  example: Pick<CheckResult, 'message'> & { operation?: string },
  requirements: readonly string[],
  rows: ReadonlyMap<string, { text: string; level: Level; operations?: readonly string[] }>,
): string {
  // The row most about the cause: first a row of the operation the failing answer came from (a
  // state sequence cites its machine's rows on the operation of the command that failed: the
  // update's rows when the update failed, the read's when a read after a delete did), then the
  // one naming most of the members the message names.
  const words = new Set(example.message.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  const score = (text: string) => [...namedMembers(text)].filter((w) => words.has(w)).length;
  const ofOperation = (row: { operations?: readonly string[] }) =>
    example.operation !== undefined && (row.operations ?? []).includes(example.operation) ? 100 : 0;
  // A step that names the row it breaks (`(breaks D3-4.4-12)`: generators/stateMachineRunner.ts
  // `breaking`) is taken at its word.
  const named = /\(breaks ([A-Z][A-Z0-9.-]+)\)/.exec(example.message)?.[1];
  const candidates = requirements
    .map((id) => ({ id, row: rows.get(id) }))
    .filter(
      (c): c is { id: string; row: { text: string; level: Level; operations?: readonly string[] } } =>
        c.row !== undefined,
    )
    .map((c, i) => ({
      ...c,
      i,
      s: (c.id === named ? 1000 : 0) + ofOperation(c.row) + score(c.row.text) + (c.row.level === level ? 0.5 : 0),
    }))
    .sort((a, b) => b.s - a.s || a.i - b.i);
  const row = candidates[0];
  return row ? ` (${row.id}: “${row.row.text.replace(/\s+/g, ' ').trim()}”)` : '';
}

/**
 * What a partner's client must do differently (a certification, a pact check): said to the client,
 * never as a change of an API operation. A request at an address of the client's own is told where
 * to read the address; anything else what the client's requests must carry, in the documents' words.
 */
export function clientChangeOf(
  check: string,
  level: Level,
  operations: readonly string[],
  example: Pick<CheckResult, 'message' | 'summary'> & { operation?: string },
  requirements: readonly string[],
  rows: ReadonlyMap<string, { text: string; level: Level; operations?: readonly string[] }>,
): string {
  const operation = new Map(OPERATIONS.map((o) => [o.id as string, o]));
  const change =
    level === 'MUST'
      ? 'Change your client'
      : level === 'SHOULD'
        ? 'Consider changing your client'
        : 'Look at your client';
  const documented = operations.filter((o) => operation.has(o));
  const because = becauseOf(level, example, requirements, rows);
  if (check === 'client-uses-discovered-address' || check === 'client-reads-discovery') {
    const keys = documented.map(
      (o) => `${o} from the ${operation.get(o)?.service} discovery document, key ${operation.get(o)?.discoveryKey}`,
    );
    return keys.length > 0
      ? `${change}: it called ${joinOps(documented)} at an address of its own; fetch the discovery document and read the address of ${keys.slice(0, 3).join('; ')}${because}.`
      : `${change}: it sent requests to addresses no discovery document publishes; read the address of each operation from its service's discovery document by its key${because}.`;
  }
  const expected = lowerFirst(expectedPart(example.message) ?? example.summary.replace(/\.$/, ''));
  const what = documented.length > 0 ? `its ${joinOps(documented)} requests` : 'its requests';
  return `${change} so that ${what} meet ${check}: ${expected}${because}.`;
}

/**
 * An error in a client's run: nothing of the client was judged there, most often a scenario it
 * did not finish. Said to the client: no setting of a server run is named.
 */
export function clientErrorAdvice(example: Pick<CheckResult, 'message'>): string {
  return /never made/.test(example.message)
    ? 'Nothing was judged of the step your client never made: make your client run the whole scenario (the message names the step it never made and the last answer it had), then certify again; give it more time with --timeout if it was still working.'
    : 'Nothing was judged here: make your client run the scenario to its end, then certify again.';
}

/** "must be string" -> "is string": a schema error's demand as a statement of the fixed answer. */
function indicative(demand: string): string {
  return demand
    .replace(/^be /, 'is ')
    .replace(/^have /, 'has ')
    .replace(/^match /, 'matches ')
    .replace(/^NOT have /, 'does not have ')
    .replace(/^NOT be /, 'is not ')
    .replace(/^contain /, 'contains ');
}

const lowerFirst = (s: string): string => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);

/** The findings of a run: its fail, error and warn results grouped by cause, worst first. */
export function findingsOf(results: Pick<RunResults, 'results' | 'requirements' | 'party'>): Finding[] {
  const forClient = results.party === 'client';
  const rows = new Map(results.requirements.map((r) => [r.id, r]));
  const byKey = new Map<string, { key: string; first: CheckResult; cause: string; indexes: number[] }>();
  results.results.forEach((r, index) => {
    if (!isFindingStatus(r.status)) return;
    const key = findingKey(r);
    const group = byKey.get(key);
    if (group) group.indexes.push(index);
    else byKey.set(key, { key, first: r, cause: causeOf(r.message), indexes: [index] });
  });
  const findings: Finding[] = [];
  for (const g of byKey.values()) {
    const members = g.indexes.map((i) => results.results[i] as CheckResult);
    const operations = [...new Set(members.map((r) => r.operation))];
    const requirements = [...new Set(members.flatMap((r) => r.requirements))].sort();
    let example = g.indexes[0] as number;
    for (const i of g.indexes)
      if ((results.results[i] as CheckResult).message.length < (results.results[example] as CheckResult).message.length)
        example = i;
    const status = g.first.status as FindingStatus;
    findings.push({
      key: g.key,
      check: g.first.check,
      level: g.first.level,
      status,
      cause: g.cause,
      operations,
      requirements,
      results: g.indexes,
      example,
      change:
        g.first.status === 'error'
          ? forClient
            ? clientErrorAdvice(results.results[example] as CheckResult)
            : errorAdvice(results.results[example] as CheckResult)
          : (forClient ? clientChangeOf : changeOf)(
              g.first.check,
              g.first.level,
              operations,
              results.results[example] as CheckResult,
              requirements,
              rows,
            ),
    });
  }
  return foldRepeatedCauses(findings, results.results).sort(compareFindings);
}

/** The checks whose message repeats the cause of a request they summarise (`... not: LABEL: CAUSE`). */
const SUMMARISING = new Set(['coverage-phase-served']);

/**
 * A finding that only repeats another's cause is folded into it (issue 32, item 7): the coverage
 * phase's "a request was not answered as the documents allow: LABEL: <a schema failure>" beside
 * the schema failure itself is one finding, its results listed with the other's.
 */
function foldRepeatedCauses(findings: Finding[], all: readonly unknown[]): Finding[] {
  const folded = new Set<Finding>();
  for (const f of findings) {
    if (!SUMMARISING.has(f.check)) continue;
    const messages = f.results.map((i) => causeOf((all[i] as CheckResult).message));
    const into = findings.find(
      (g) =>
        g !== f &&
        !folded.has(g) &&
        !SUMMARISING.has(g.check) &&
        g.level === f.level &&
        g.status === f.status &&
        messages.every((m) => m.endsWith(`: ${g.cause}`)),
    );
    if (!into) continue;
    into.results = [...into.results, ...f.results].sort((a, b) => a - b);
    into.operations = [...new Set([...into.operations, ...f.operations])];
    into.requirements = [...new Set([...into.requirements, ...f.requirements])].sort();
    folded.add(f);
  }
  return findings.filter((f) => !folded.has(f));
}

/** MUST failures first, then errors, then SHOULD and INFO; then by operations touched, results held, check. */
export function compareFindings(a: Finding, b: Finding): number {
  const weight = (f: Finding) =>
    f.level === 'MUST' ? STATUS_ORDER[f.status] : 3 + LEVEL_ORDER[f.level] * 3 + STATUS_ORDER[f.status];
  return (
    weight(a) - weight(b) ||
    b.operations.length - a.operations.length ||
    b.results.length - a.results.length ||
    a.check.localeCompare(b.check) ||
    a.key.localeCompare(b.key)
  );
}

/** True for a finding that decides the verdict: a MUST failure or a MUST error. */
export function isBlocking(f: Pick<Finding, 'level' | 'status'>): boolean {
  return f.level === 'MUST' && (f.status === 'fail' || f.status === 'error');
}
