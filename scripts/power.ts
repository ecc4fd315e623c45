/**
 * Power per requirement, the mirror of coverage (issue 22, item 9): which testable MUST rows of
 * spec/requirements.csv (server party) a fault of the sandbox is proven to be caught on, and why
 * the others are not. Writes spec/evidence/power.json (read by app/power.ts for `conformance
 * faults --unproven`) and prints the share of testable MUST rows proven.
 *
 *   npx tsx scripts/power.ts [--seed N] [--runs N] [--jobs N] [--no-hand] [--out FILE]
 *   npx tsx scripts/power.ts --only-op OP [--merge]
 *   ... [--families F1,F2 | --no-families] [--no-derived (with --only-op, no --merge)]
 *
 * `--only-op OP` computes one operation (its derived faults, the hand faults of its coupled suite
 * group, its rows) and prints it; with `--merge` it folds the result into spec/evidence/power.json
 * (after fixing a hole in one answer, without the whole ten minutes). The whole computation took
 * about ten minutes on two shared cores (some 210 runs of the suite, `--runs 1`).
 *
 * What runs, all against sandboxes on loopback, in `--jobs` processes (default 2):
 *
 * 1. A survey: one clean run whose served answers are recorded. It must have no MUST failure
 *    (the self-test's premise: any failure under a fault is that fault's). A derived fault that
 *    changes none of the answers the suite was served is "unobservable" and is not run: it breaks
 *    nothing the suite could see, so it proves nothing and is no hole.
 * 2. Every observable derived shape fault (server/faults/derived.ts), at most one per operation
 *    per run. Faults of one coupled suite group share a run here, which faultBatches.ts never
 *    allows; it is sound because a derived fault marks every answer it changed (a response header,
 *    DERIVED_FAULT_HEADER) and is credited only with failures of its operation judged on an answer
 *    it marked. A fault not caught so is run again where its suite group is alone (the
 *    faultBatches rule), so no "hole" rests on a shared run where another fault could have spoilt
 *    its test's set-up; one that then changes no answer of its operation is unobservable too.
 *    Operations sharing a route (find-member v1 and v2) share its faults, so faults alike but for
 *    their operation are run once and each credited with failures of its own operation.
 * 3. The hand-written faults (server/faults/catalog.ts), batched as the self-test batches them,
 *    credited as the self-test credits them (creditsOf: their named check fails at MUST on their
 *    operations); they prove the rows those failures cite.
 * 4. The behavioural family faults derived from the operation table (server/faults/families.ts;
 *    `--families` limits which families run, `--no-families` runs none): first one per route per
 *    run, marked like the derived ones, then each missed one with its coupled group alone. A
 *    family fault is caught by MUST failures of its operation on answers it marked (or naming no
 *    answer); it proves a cited row only when the row is of its operation and of the kind its
 *    family breaks (rowsProvedByFamily, families.ts rowOfFamilyKind). Those changing answers and
 *    caught by nothing are listed (`familyMissed`: candidate holes, to weigh against the rows and
 *    decisions), as are those caught by failures citing no row of their kind (`familyUncited`).
 *
 * When a derived fault counts for a row. A failure of any check at MUST on an answer the fault
 * changed catches the fault; it proves a row it cites only when (a) the row's text names the
 * mutated member (its name, and for a nested member the name of its nearest named parent too,
 * e.g. `contains` ... `display`), or (b) the failing check is a shape check (matches-schema,
 * coverage-phase-served: they judge the documented body as a whole) citing that one row alone.
 * The check is not required to be a schema check: `value-set-paging-consistent` failing on a
 * dropped `expansion.total` proves D2-2.2-03, which names it. A row must list the fault's
 * operation (a check citing another operation's row proves nothing here). Nor is any cited row enough: a
 * schema check cites every shape row of its answer at once, and crediting them all would prove
 * D2-2.2-04 (`display`) with a fault that drops `expansion.total`.
 */
import type { UnprovenReason as ReadReason } from '../app/power.ts';
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CheckResult, RunResults } from '../core/results.ts';
import { FAULTS, faultInfo } from '../server/faults/catalog.ts';
import {
  DERIVED_FAULT_HEADER,
  type DerivedFaultInfo,
  derivedFaultEdit,
  derivedFaults,
  derivedFaultHits,
  resetDerivedFaultHits,
  memberPathsOf,
  textNamesMember,
} from '../server/faults/derived.ts';
import {
  FAMILY_FAULT_PREFIX,
  FAULT_FAMILIES,
  type FaultFamily,
  type FamilyFaultInfo,
  familyFaultHits,
  familyFaults,
  resetFamilyFaultHits,
  rowOfFamilyKind,
} from '../server/faults/families.ts';
import { ROUTES } from '../server/router/routes.ts';
import { operation, operations } from '../spec/operations.ts';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';
import { suiteGroups } from '../spec/suiteCoupling.ts';
import { batchFaults } from '../test/support/faultBatches.ts';
import { creditsOf } from '../test/support/selfTestPlan.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const POWER_FILE = join(ROOT, 'spec', 'evidence', 'power.json');

/** Checks that judge the documented body as a whole (attribution rule b above). */
export const SHAPE_CHECKS: readonly string[] = ['matches-schema', 'coverage-phase-served'];

// ---------------------------------------------------------------------------------------------
// The run processes: a job is one sandbox with some faults and one run of the suite against it.

interface Job {
  id: number;
  faults: string[];
  only?: string;
  seed: number;
  runs: number;
  /** Record the answers the sandbox served (the survey). */
  survey?: boolean;
}

/** A result as the power computation reads it: a failure, and the derived faults that marked its answer. */
export interface SlimResult {
  check: string;
  operation: string;
  level: CheckResult['level'];
  status: CheckResult['status'];
  requirements: string[];
  /** Derived faults named by the judged answer's mark; null when the result names no exchange. */
  marks: string[] | null;
  message: string;
}

interface Served {
  status: number;
  body: unknown;
}

interface Answer {
  id: number;
  exitCode: number;
  problem?: string;
  /** MUST failures and errors only: passes are not needed and would make each answer megabytes. */
  results: SlimResult[];
  /** Per hand-written fault of the job, the results that credit it (the self-test's creditsOf). */
  credits: Record<string, SlimResult[]>;
  hits: Record<string, number>;
  /** Per derived fault, the operations whose recorded answers carry its mark (answers it changed). */
  marked: Record<string, string[]>;
  served?: Record<string, Served[]>;
  error?: string;
}

/** At most this many distinct answers per operation are kept from the survey. */
const SURVEY_ANSWERS_PER_OPERATION = 400;

function slim(results: RunResults, r: CheckResult): SlimResult {
  const exchange = r.exchange === undefined ? undefined : results.exchanges[r.exchange];
  const header = exchange?.response?.headers[DERIVED_FAULT_HEADER];
  return {
    check: r.check,
    operation: r.operation,
    level: r.level,
    status: r.status,
    requirements: r.requirements,
    marks: exchange === undefined ? null : header ? header.split(/,\s*/) : [],
    message: r.message.slice(0, 300),
  };
}

/** Per derived fault, the operations of the recorded exchanges whose answer carries its mark. */
function markedOperations(results: RunResults): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const x of results.exchanges) {
    const header = x.response?.headers[DERIVED_FAULT_HEADER];
    if (!header || !x.operation) continue;
    for (const name of header.split(/,\s*/)) {
      out[name] ??= new Set();
      out[name].add(x.operation);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]]));
}

async function work(job: Job): Promise<Answer> {
  const [{ runConformance }, { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT }, { startSandbox }] = await Promise.all([
    import('../app/runConformance.ts'),
    import('../server/demoConfig.ts'),
    import('../server/http.ts'),
  ]);
  resetDerivedFaultHits();
  resetFamilyFaultHits();
  const served = new Map<string, Map<string, Served>>();
  const sandbox = await startSandbox({
    faults: job.faults,
    ...(job.survey
      ? {
          onExchange: (x) => {
            if (x.status < 200 || x.status > 299 || x.responseBody === undefined) return;
            for (const op of x.operations) {
              const seen = served.get(op) ?? new Map<string, Served>();
              served.set(op, seen);
              if (seen.size >= SURVEY_ANSWERS_PER_OPERATION || seen.has(x.responseBody)) continue;
              try {
                seen.set(x.responseBody, { status: x.status, body: JSON.parse(x.responseBody) });
              } catch {
                // not JSON: no derived fault edits it
              }
            }
          },
        }
      : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'conformance-power-'));
  try {
    const outcome = await runConformance({
      target: sandbox.url,
      config: DEMO_CONFIG_FILE,
      environmentFallbacks: DEMO_ENVIRONMENT,
      reportDir: dir,
      allowDestructive: true,
      seed: job.seed,
      runs: job.runs,
      only: job.only,
      artefacts: 'results',
      workers: 1,
    });
    const results = outcome.results;
    const kept = (results?.results ?? []).filter((r) => r.status === 'fail' || r.status === 'error');
    const credits: Record<string, SlimResult[]> = {};
    for (const name of job.faults) {
      const info = faultInfo(name);
      if (info && results) credits[name] = creditsOf(results, info).map((r) => slim(results, r));
    }
    return {
      id: job.id,
      exitCode: outcome.exitCode,
      ...(outcome.problem ? { problem: outcome.problem } : {}),
      results: results ? kept.map((r) => slim(results, r)) : [],
      credits,
      hits: { ...Object.fromEntries(derivedFaultHits()), ...Object.fromEntries(familyFaultHits()) },
      marked: results ? markedOperations(results) : {},
      ...(job.survey
        ? { served: Object.fromEntries([...served].map(([op, m]) => [op, [...m.values()]] as const)) }
        : {}),
    };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--worker')) {
  let queue = Promise.resolve();
  process.on('message', (job: Job) => {
    queue = queue.then(async () => {
      let answer: Answer;
      try {
        answer = await work(job);
      } catch (e) {
        answer = {
          id: job.id,
          exitCode: 4,
          results: [],
          credits: {},
          hits: {},
          marked: {},
          error: (e as Error).stack ?? String(e),
        };
      }
      process.send?.(answer);
    });
  });
  process.on('disconnect', () => process.exit(0));
}

/** A few run processes; each job goes to the one with the fewest waiting. */
class Pool {
  readonly #members: { child: ChildProcess; waiting: Map<number, (a: Answer) => void> }[] = [];
  #next = 1;

  constructor(size: number) {
    for (let i = 0; i < size; i++) {
      const child = fork(fileURLToPath(import.meta.url), ['--worker'], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const member = { child, waiting: new Map<number, (a: Answer) => void>() };
      child.on('message', (a: Answer) => {
        member.waiting.get(a.id)?.(a);
        member.waiting.delete(a.id);
      });
      child.on('exit', (code) => {
        for (const [id, done] of member.waiting)
          done({
            id,
            exitCode: 4,
            results: [],
            credits: {},
            hits: {},
            marked: {},
            error: `run process exited with ${code}`,
          });
        member.waiting.clear();
      });
      this.#members.push(member);
    }
  }

  run(job: Omit<Job, 'id'>): Promise<Answer> {
    const member = this.#members.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
    const id = this.#next++;
    return new Promise((done) => {
      member.waiting.set(id, done);
      member.child.send({ ...job, id } satisfies Job);
    });
  }

  close(): void {
    for (const m of this.#members) m.child.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// Attribution: which rows a caught fault proves.

let mates: Map<string, string[]> | undefined;

/** The operations sharing a route with this one, itself included, sorted. */
function routeMates(op: string): string[] {
  if (!mates) {
    mates = new Map();
    for (const r of ROUTES)
      for (const o of r.operations) mates.set(o, [...new Set([...(mates.get(o) ?? [o]), ...r.operations])].sort());
  }
  return mates.get(op) ?? [op];
}

const pathsByOperation = new Map<string, (readonly string[])[]>();

/** True when the row is about the fault's member (derived.ts textNamesMember). */
export function rowNamesMember(
  row: Pick<Requirement, 'text'>,
  fault: Pick<DerivedFaultInfo, 'path' | 'operations'>,
): boolean {
  const op = fault.operations[0];
  if (!pathsByOperation.has(op)) pathsByOperation.set(op, memberPathsOf(op));
  return textNamesMember(row.text, fault.path, pathsByOperation.get(op) ?? []);
}

/** The rows a caught derived fault proves, from the failures judged on the answers it changed. */
export function rowsProvedByDerived(
  fault: Pick<DerivedFaultInfo, 'path' | 'operations'>,
  catching: readonly SlimResult[],
  testable: ReadonlyMap<string, Requirement>,
): Set<string> {
  const rows = new Set<string>();
  for (const r of catching) {
    const cited = r.requirements.filter((id) => testable.has(id));
    for (const id of cited) {
      const row = testable.get(id) as Requirement;
      // A row of other operations is not the one this fault breaks, whatever a check cites.
      if (!row.operations.some((op) => fault.operations.includes(op))) continue;
      if (rowNamesMember(row, fault) || (SHAPE_CHECKS.includes(r.check) && cited.length === 1)) rows.add(id);
    }
  }
  return rows;
}

/**
 * The rows a caught family fault (server/faults/families.ts) proves: the testable rows its catching
 * failures cite that are of its operation and of the kind its family breaks (rowOfFamilyKind: a
 * success row for a success turned into an error, a row naming the parameter for an ignored
 * filter). A shape row or an unrelated row cited by the same check proves nothing here.
 */
export function rowsProvedByFamily(
  fault: FamilyFaultInfo,
  catching: readonly SlimResult[],
  testable: ReadonlyMap<string, Requirement>,
): Set<string> {
  const rows = new Set<string>();
  for (const r of catching)
    for (const id of r.requirements) {
      const row = testable.get(id);
      if (row && rowOfFamilyKind(fault, row)) rows.add(id);
    }
  return rows;
}

/**
 * The failures that catch a derived fault in a run: MUST failures of its operation judged on an
 * answer it marked (operations sharing a route, find-member v1 and v2, share its edits too).
 */
export function catchingResults(
  fault: Pick<DerivedFaultInfo, 'name' | 'operations'>,
  results: readonly SlimResult[],
): SlimResult[] {
  return results.filter(
    (r) =>
      r.status === 'fail' &&
      r.level === 'MUST' &&
      fault.operations.includes(r.operation) &&
      (r.marks === null || r.marks.includes(fault.name)),
  );
}

/**
 * What caught faults that prove no row they break: each catching check with the rows it cited
 * (`value-set-paging-consistent on get-code-set citing D2-2.2-02`), at most five, for a reader who
 * decides which check should cite the row (`conformance faults --unproven`).
 */
export function caughtByOf(
  faults: readonly Pick<DerivedFaultInfo, 'name'>[],
  catching: ReadonlyMap<string, readonly SlimResult[]>,
): string[] {
  const seen = new Set<string>();
  for (const f of faults)
    for (const r of catching.get(f.name) ?? [])
      seen.add(`${r.check} on ${r.operation} citing ${r.requirements.join(' ') || 'no row'}`);
  return [...seen].sort().slice(0, 5);
}

// ---------------------------------------------------------------------------------------------
// The evidence file (its reader is app/power.ts).

/** Why no fault proves a row: the reader's reasons (app/power.ts) but the one it adds itself. */
export type UnprovenReason = Exclude<ReadReason, 'not-computed'>;

export interface PowerFile {
  generated: string;
  seed: number;
  runs: number;
  command: string;
  summary: {
    testableMustRows: number;
    proven: number;
    /** proven / testableMustRows, rounded to 4 places. */
    share: number;
    derivedFaults: number;
    unobservable: number;
    run: number;
    caught: number;
    /** Run, observable, and caught by no MUST failure on an answer they changed (`absent` faults aside). */
    holes: number;
    /** `absent` faults run, and those not caught (see `presence`). */
    absentRun: number;
    presenceUnchecked: number;
    handFaults: number;
    handCaught: number;
    /** Family faults in scope, those that changed no answer, those run and caught (absent in older files). */
    familyFaults?: number;
    familyUnobservable?: number;
    familyCaught?: number;
    runsMade: number;
    minutes: number;
  };
  /** Every testable MUST row (server party): the faults proving it (at most 5 named), or why none does. */
  rows: Record<
    string,
    | { proven: true; faults: string[]; more?: number }
    | { proven: false; reason: UnprovenReason; detail: string; faults?: string[]; caughtBy?: string[] }
  >;
  /** The derived-fault counts of each operation (the summary's are their sums); absent in files of the first version. */
  operations?: Record<string, OperationCounts>;
  /** Derived faults the suite does not see, with what they do. */
  holes: { fault: string; operation: string; description: string; touches: string[] }[];
  /**
   * `absent` faults not caught: an optional member a MUST row names may be left out. Not holes by
   * themselves (the row may allow absence); a reader checks the row and its decision.
   */
  presence: { fault: string; operation: string; rows: string[] }[];
  /**
   * Behavioural family faults (server/faults/families.ts) that changed answers of their operation
   * and were caught by no MUST failure of it: candidate holes, each to be weighed against its
   * rows and decisions (the documents may leave that behaviour open). Absent in older files.
   */
  familyMissed?: { fault: string; operation: string; description: string }[];
  /** Family faults caught, but by failures citing no row of the kind the family breaks: citation gaps. */
  familyUncited?: { fault: string; operation: string; caughtBy: string[] }[];
}

export interface OperationCounts {
  derived: number;
  unobservable: number;
  run: number;
  caught: number;
  holes: number;
  absentRun: number;
  presenceUnchecked: number;
}

export const REASON_TEXT: Record<UnprovenReason, string> = {
  hole: 'a derived fault breaking this member is not caught (a hole: no MUST check fails on the changed answer)',
  'caught-without-citing': 'derived faults breaking this member are caught, but by checks that do not cite this row',
  'presence-unchecked':
    'the schema leaves the member it names optional and an answer without it passes: check whether the row and its decision demand presence',
  unobservable:
    'the derived faults breaking this member change no answer the suite is served (the sandbox never sends it)',
  'needs-hand-fault':
    'no derived shape fault touches it (a behavioural or value rule, or a shape the schema does not name): it needs a hand-written fault',
  'no-success-body': 'its operations answer success without a body schema: only a hand-written fault can prove it',
};

// ---------------------------------------------------------------------------------------------

interface Options {
  seed: number;
  runs: number;
  onlyOp?: string;
  jobs: number;
  hand: boolean;
  out?: string;
  /** With --only-op: fold the operation's figures into the existing file instead of writing them alone. */
  merge: boolean;
  /** False with `--no-derived` (with --only-op, without --merge: a look at the families alone). */
  derived: boolean;
  /** The fault families run (server/faults/families.ts); empty: none (`--no-families`). */
  families: readonly FaultFamily[];
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '20261121' },
      runs: { type: 'string', default: '1' },
      'only-op': { type: 'string' },
      jobs: { type: 'string', default: '2' },
      'no-hand': { type: 'boolean', default: false },
      out: { type: 'string' },
      merge: { type: 'boolean', default: false },
      families: { type: 'string' },
      'no-families': { type: 'boolean', default: false },
      'no-derived': { type: 'boolean', default: false },
    },
  });
  const families = (values.families ?? FAULT_FAMILIES.join(',')).split(',').map((f) => f.trim());
  for (const f of families)
    if (!FAULT_FAMILIES.includes(f as FaultFamily))
      throw new Error(`Unknown fault family ${f} (one of ${FAULT_FAMILIES.join(', ')})`);
  if (values.merge && values['only-op'] === undefined) throw new Error('--merge needs --only-op');
  // Without the derived faults the rows' figures are partial: only to be printed, never kept.
  if (values['no-derived'] && (values['only-op'] === undefined || values.merge))
    throw new Error('--no-derived needs --only-op and no --merge');
  if (values['only-op'] !== undefined) operation(values['only-op']);
  return {
    seed: Number(values.seed),
    runs: Number(values.runs),
    onlyOp: values['only-op'],
    jobs: Math.max(1, Number(values.jobs)),
    hand: !values['no-hand'],
    out: values.out ?? (values['only-op'] === undefined || values.merge ? POWER_FILE : undefined),
    merge: values.merge,
    families: values['no-families'] ? [] : (families as FaultFamily[]),
    derived: !values['no-derived'],
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

function sum(counts: Record<string, OperationCounts>, key: keyof OperationCounts): number {
  return Object.values(counts).reduce((n, c) => n + c[key], 0);
}

/** The evidence file from rows, per-operation counts and lists; the summary is computed from them. */
function powerFile(
  opts: Pick<Options, 'seed' | 'runs'>,
  rows: PowerFile['rows'],
  counts: Record<string, OperationCounts>,
  holes: PowerFile['holes'],
  presence: PowerFile['presence'],
  handFaults: number,
  handCaught: number,
): PowerFile {
  const total = Object.keys(rows).length;
  const proven = Object.values(rows).filter((r) => r.proven).length;
  return {
    generated: new Date().toISOString().slice(0, 10),
    seed: opts.seed,
    runs: opts.runs,
    command: `npx tsx scripts/power.ts --seed ${opts.seed} --runs ${opts.runs}`,
    summary: {
      testableMustRows: total,
      proven,
      share: Math.round((proven / Math.max(1, total)) * 10000) / 10000,
      derivedFaults: sum(counts, 'derived'),
      unobservable: sum(counts, 'unobservable'),
      run: sum(counts, 'run'),
      caught: sum(counts, 'caught'),
      holes: sum(counts, 'holes'),
      absentRun: sum(counts, 'absentRun'),
      presenceUnchecked: sum(counts, 'presenceUnchecked'),
      handFaults,
      handCaught,
      runsMade: 0,
      minutes: 0,
    },
    rows,
    operations: counts,
    holes,
    presence,
  };
}

export function readPowerFile(path: string = POWER_FILE): PowerFile {
  return JSON.parse(readFileSync(path, 'utf8')) as PowerFile;
}

/**
 * The whole file with one operation recomputed (`--only-op OP --merge`): that operation's counts,
 * holes and presence entries are replaced; a row of the operation takes its new state, but keeps
 * the proofs of faults this run did not redo (another operation's derived faults, hand faults of
 * other groups).
 */
export function mergeInto(old: PowerFile, part: PowerFile, op: string, rerun: ReadonlySet<string>): PowerFile {
  const rows = { ...old.rows };
  for (const [id, row] of Object.entries(part.rows)) {
    const before = old.rows[id];
    const kept = before?.proven ? before.faults.filter((f) => !rerun.has(f)) : [];
    const now = row.proven ? row.faults : [];
    const all = [...new Set([...now, ...kept])];
    rows[id] =
      all.length > 0
        ? { proven: true, faults: all.slice(0, 5), ...(all.length > 5 ? { more: all.length - 5 } : {}) }
        : row;
  }
  // A file without per-operation counts keeps its summary's derived-fault counts, less nothing:
  // the operation's new counts cannot replace old ones it does not hold, so they are left as they were.
  const merged = powerFile(
    old,
    rows,
    old.operations ? { ...old.operations, ...part.operations } : {},
    [...old.holes.filter((h) => h.operation !== op), ...part.holes],
    [...old.presence.filter((h) => h.operation !== op), ...part.presence],
    old.summary.handFaults,
    old.summary.handCaught,
  );
  if (!old.operations)
    for (const key of ['derivedFaults', 'unobservable', 'run', 'caught', 'absentRun'] as const)
      merged.summary[key] = old.summary[key];
  if (!old.operations) {
    merged.summary.holes = merged.holes.length;
    merged.summary.presenceUnchecked = merged.presence.length;
  }
  // Family lists: the operation's entries replaced; the counts of families not run this time kept.
  const ranFamilies = part.summary.familyFaults !== undefined;
  if (ranFamilies) {
    merged.familyMissed = [...(old.familyMissed ?? []).filter((h) => h.operation !== op), ...(part.familyMissed ?? [])];
    merged.familyUncited = [
      ...(old.familyUncited ?? []).filter((h) => h.operation !== op),
      ...(part.familyUncited ?? []),
    ];
  } else {
    if (old.familyMissed) merged.familyMissed = old.familyMissed;
    if (old.familyUncited) merged.familyUncited = old.familyUncited;
  }
  return { ...merged, command: old.command };
}

async function main(): Promise<number> {
  const opts = options();
  const started = performance.now();
  const groups = suiteGroups();
  const groupOf = (op: string) => groups.get(operation(op).suite) as string;
  const testable = new Map(
    loadRequirements('server')
      .filter((r) => r.level === 'MUST' && r.notTestedReason === '')
      .map((r) => [r.id, r] as const),
  );
  // --only-op: that operation's derived faults, the hand faults of its coupled suite group, its rows.
  const onlyOp = opts.onlyOp;
  const groupOps = onlyOp ? operations.filter((o) => groupOf(o.id) === groupOf(onlyOp)).map((o) => o.id) : undefined;
  const faults = !opts.derived
    ? []
    : onlyOp
      ? derivedFaults().filter((f) => f.operations[0] === onlyOp)
      : derivedFaults();
  const inScope = [...testable.values()].filter((r) => !onlyOp || r.operations.includes(onlyOp));
  const pool = new Pool(opts.jobs);
  let runsMade = 0;
  const run = async (job: Omit<Job, 'id' | 'seed' | 'runs'>): Promise<Answer> => {
    runsMade++;
    const answer = await pool.run({ ...job, seed: opts.seed, runs: opts.runs });
    if (answer.error) throw new Error(`run of ${job.faults.join(', ') || 'no fault'} crashed: ${answer.error}`);
    return answer;
  };
  try {
    // 1. The survey.
    log(`power: survey run (seed ${opts.seed}, ${opts.runs} case(s) per property)`);
    const survey = await run({ faults: [], survey: true, ...(groupOps ? { only: groupOps.join(',') } : {}) });
    const cleanFailures = survey.results.filter((r) => r.level === 'MUST');
    if (cleanFailures.length > 0)
      throw new Error(
        `Expected the clean sandbox to pass every MUST, received ${cleanFailures.length} failure(s): ${cleanFailures
          .slice(0, 3)
          .map((r) => `${r.operation} ${r.check}`)
          .join('; ')}`,
      );
    const served = survey.served ?? {};
    const observable = faults.filter((f) =>
      (served[f.operations[0]] ?? []).some((a) => derivedFaultEdit(f, a.status, a.body) !== undefined),
    );
    const unobservable = new Set(faults.filter((f) => !observable.includes(f)).map((f) => f.name));
    log(`power: ${faults.length} derived faults, ${observable.length} observable`);

    // 2. Derived faults: first pass, one per operation per run.
    // 3. Hand-written faults, batched and credited as the self-test does (queued beside the derived ones).
    const handCredits = new Map<string, SlimResult[]>();
    const hand = opts.hand ? FAULTS.filter((f) => !groupOps || f.operations.some((op) => groupOps.includes(op))) : [];
    const handDone = Promise.all(
      batchFaults(hand, groups).map(async (b) => {
        const answer = await run({ faults: b.faults.map((f) => f.name), only: b.operations.join(',') });
        for (const f of b.faults) handCredits.set(f.name, answer.credits[f.name] ?? []);
      }),
    );

    // 4. Family faults (server/faults/families.ts), queued beside the others: first one per route
    // per run (a family fault marks every answer it changed and is credited only with failures of
    // its operation on answers it marked, so faults of different routes may share a run), then
    // each missed one again with its coupled suite group alone (the faultBatches rule).
    const family =
      opts.families.length === 0
        ? []
        : familyFaults().filter((f) => opts.families.includes(f.family) && (!onlyOp || f.operations[0] === onlyOp));
    const familyCatching = new Map<string, SlimResult[]>();
    const familyUnobservable = new Set<string>();
    const familyDone = (async () => {
      const byRoute = new Map<string, FamilyFaultInfo[]>();
      for (const f of family) {
        const key = routeMates(f.operations[0]).join('+');
        byRoute.set(key, [...(byRoute.get(key) ?? []), f]);
      }
      const passes: FamilyFaultInfo[][] = [];
      for (const list of byRoute.values())
        for (const [i, f] of list.entries()) {
          passes[i] ??= [];
          passes[i].push(f);
        }
      log(`power: ${family.length} family faults; first pass of ${passes.length} runs`);
      const judgeFamily = async (batch: readonly FamilyFaultInfo[], alone: boolean) => {
        const answer = await run({
          faults: batch.map((f) => f.name),
          only: [...new Set(batch.map((f) => f.operations[0]))].join(','),
        });
        for (const f of batch) {
          const caught = catchingResults(f, answer.results);
          if (caught.length > 0 || alone) familyCatching.set(f.name, caught);
          if (alone && caught.length === 0 && !(answer.marked[f.name] ?? []).includes(f.operations[0]))
            familyUnobservable.add(f.name);
        }
      };
      await Promise.all(passes.map((b) => judgeFamily(b, false)));
      const missed = family.filter((f) => !familyCatching.has(f.name));
      log(`power: ${missed.length} family faults missed in shared runs; running them with their group alone`);
      await Promise.all(batchFaults(missed, groups).map((b) => judgeFamily(b.faults, true)));
    })();

    const catching = new Map<string, SlimResult[]>();
    // Operations sharing a route (find-member v1 and v2, the contract upserts) share its faults:
    // a fault of one edits the answers of all. Faults alike but for their operation ("twins") are
    // run once, through the first of them, and each is credited with failures of its own operation.
    const twinsOf = new Map<string, DerivedFaultInfo[]>();
    const representative = new Map<string, DerivedFaultInfo>();
    for (const f of observable) {
      const key = `${routeMates(f.operations[0]).join('+')}|${f.path.join('/')}|${f.kind}|${JSON.stringify(f.value)}`;
      const rep = representative.get(key) ?? f;
      representative.set(key, rep);
      twinsOf.set(rep.name, [...(twinsOf.get(rep.name) ?? []), f]);
    }
    const reps = [...twinsOf.values()].map((twins) => twins[0]);
    const perOperation = new Map<string, DerivedFaultInfo[]>();
    for (const f of reps) perOperation.set(f.operations[0], [...(perOperation.get(f.operations[0]) ?? []), f]);
    const firstPass: DerivedFaultInfo[][] = [];
    for (const list of perOperation.values())
      for (const [i, f] of list.entries()) {
        firstPass[i] ??= [];
        firstPass[i].push(f);
      }
    log(`power: ${reps.length} faults to run (twins on shared routes once); first pass of ${firstPass.length} runs`);
    let done = 0;
    const judge = async (batch: readonly DerivedFaultInfo[], alone: boolean) => {
      const twins = batch.flatMap((rep) => (twinsOf.get(rep.name) ?? [rep]).map((t) => [rep, t] as const));
      const answer = await run({
        faults: batch.map((f) => f.name),
        only: [...new Set(twins.map(([, t]) => t.operations[0]))].join(','),
      });
      for (const [rep, t] of twins) {
        const caught = catchingResults({ name: rep.name, operations: t.operations }, answer.results);
        if (caught.length > 0 || alone) catching.set(t.name, caught);
        // Run alone and changing no answer of its own operation (a route-mate's answers held the
        // member, or the suite's requests differed from the survey's): it broke nothing to see.
        if (alone && caught.length === 0 && !(answer.marked[rep.name] ?? []).includes(t.operations[0]))
          unobservable.add(t.name);
      }
      done++;
      if (done % 10 === 0) log(`power: ${done} derived runs, ${Math.round((performance.now() - started) / 60000)} min`);
    };
    await Promise.all(firstPass.map((batch) => judge(batch, false)));

    // Second pass: the misses, batched so that no two share a coupled suite group.
    const misses = reps.filter((rep) => (twinsOf.get(rep.name) ?? [rep]).some((t) => !catching.has(t.name)));
    log(`power: ${misses.length} derived faults missed in shared runs; running them with their group alone`);
    const retry = batchFaults(misses, groups);
    await Promise.all(retry.map((b) => judge(b.faults, true)));

    await handDone;
    await familyDone;

    // Rows.
    const proofs = new Map<string, Set<string>>();
    const prove = (row: string, fault: string) => proofs.set(row, (proofs.get(row) ?? new Set()).add(fault));
    for (const f of observable) {
      for (const row of rowsProvedByDerived(f, catching.get(f.name) ?? [], testable)) prove(row, f.name);
    }
    const familyUncited: NonNullable<PowerFile['familyUncited']> = [];
    const familyMissed: NonNullable<PowerFile['familyMissed']> = [];
    for (const f of family) {
      const caught = familyCatching.get(f.name) ?? [];
      const proved = rowsProvedByFamily(f, caught, testable);
      for (const row of proved) prove(row, f.name);
      if (caught.length > 0 && proved.size === 0)
        familyUncited.push({
          fault: f.name,
          operation: f.operations[0],
          caughtBy: caughtByOf([f], new Map([[f.name, caught]])),
        });
      if (caught.length === 0 && !familyUnobservable.has(f.name))
        familyMissed.push({ fault: f.name, operation: f.operations[0], description: f.description });
    }
    for (const f of hand) {
      if (f.expectedLevel === 'SHOULD') continue;
      for (const r of handCredits.get(f.name) ?? [])
        for (const row of r.requirements) if (testable.has(row)) prove(row, f.name);
    }
    const touching = (row: Requirement) =>
      faults.filter((f) => row.operations.includes(f.operations[0]) && rowNamesMember(row, f));
    const rows: PowerFile['rows'] = {};
    const holes: PowerFile['holes'] = [];
    const presence: PowerFile['presence'] = [];
    const naming = (f: DerivedFaultInfo) =>
      inScope.filter((r) => r.operations.includes(f.operations[0]) && rowNamesMember(r, f)).map((r) => r.id);
    for (const f of observable) {
      if ((catching.get(f.name) ?? []).length > 0 || unobservable.has(f.name)) continue;
      if (f.kind === 'absent') {
        presence.push({ fault: f.name, operation: f.operations[0], rows: naming(f) });
        continue;
      }
      holes.push({
        fault: f.name,
        operation: f.operations[0],
        description: f.description,
        touches: naming(f),
      });
    }
    for (const row of inScope) {
      const by = [...(proofs.get(row.id) ?? [])].sort(
        (a, b) => Number(b.startsWith('shape:')) - Number(a.startsWith('shape:')) || a.localeCompare(b),
      );
      if (by.length > 0) {
        rows[row.id] = { proven: true, faults: by.slice(0, 5), ...(by.length > 5 ? { more: by.length - 5 } : {}) };
        continue;
      }
      const touched = touching(row);
      const missed = touched.filter((f) => !unobservable.has(f.name) && (catching.get(f.name) ?? []).length === 0);
      const holesHere = missed.filter((f) => f.kind !== 'absent');
      const caughtHere = touched.filter((f) => (catching.get(f.name) ?? []).length > 0);
      let reason: UnprovenReason;
      let list: DerivedFaultInfo[] = [];
      if (holesHere.length > 0) [reason, list] = ['hole', holesHere];
      else if (caughtHere.length > 0) [reason, list] = ['caught-without-citing', caughtHere];
      else if (missed.length > 0) [reason, list] = ['presence-unchecked', missed];
      else if (touched.length > 0) [reason, list] = ['unobservable', touched];
      else if (row.operations.length > 0 && row.operations.every((op) => !operation(op).responseSchema))
        reason = 'no-success-body';
      else reason = 'needs-hand-fault';
      rows[row.id] = {
        proven: false,
        reason,
        detail: REASON_TEXT[reason],
        ...(list.length > 0 ? { faults: list.slice(0, 5).map((f) => f.name) } : {}),
        ...(reason === 'caught-without-citing' ? { caughtBy: caughtByOf(list, catching) } : {}),
      };
    }
    const counts: Record<string, OperationCounts> = {};
    for (const f of faults) {
      counts[f.operations[0]] ??= {
        derived: 0,
        unobservable: 0,
        run: 0,
        caught: 0,
        holes: 0,
        absentRun: 0,
        presenceUnchecked: 0,
      };
      const c = counts[f.operations[0]];
      c.derived++;
      if (unobservable.has(f.name)) c.unobservable++;
      else {
        c.run++;
        if (f.kind === 'absent') c.absentRun++;
        if ((catching.get(f.name) ?? []).length > 0) c.caught++;
        else if (f.kind === 'absent') c.presenceUnchecked++;
        else c.holes++;
      }
    }
    let file = powerFile(
      opts,
      rows,
      counts,
      holes,
      presence,
      hand.length,
      hand.filter((f) => (handCredits.get(f.name) ?? []).length > 0).length,
    );
    file.summary.familyFaults = family.length;
    file.summary.familyUnobservable = familyUnobservable.size;
    file.summary.familyCaught = family.filter((f) => (familyCatching.get(f.name) ?? []).length > 0).length;
    file.familyMissed = familyMissed;
    file.familyUncited = familyUncited;
    // A merged file counts the runs and minutes of every computation that went into it.
    let before = { runsMade: 0, minutes: 0 };
    if (opts.merge && onlyOp) {
      const rerun = new Set([...hand.map((f) => f.name), ...faults.map((f) => f.name), ...family.map((f) => f.name)]);
      const old = readPowerFile(opts.out ?? POWER_FILE);
      before = { runsMade: old.summary.runsMade, minutes: old.summary.minutes };
      file = mergeInto(old, file, onlyOp, rerun);
    }
    file.summary.runsMade = before.runsMade + runsMade;
    file.summary.minutes = Math.round((before.minutes + (performance.now() - started) / 60000) * 10) / 10;
    if (opts.out) writeFileSync(opts.out, `${JSON.stringify(file, null, 2)}\n`);
    const s = file.summary;
    let evidenceBefore: PowerFile | undefined;
    try {
      evidenceBefore = readPowerFile();
    } catch {
      evidenceBefore = undefined;
    }
    const byReason = new Map<string, number>();
    for (const r of Object.values(file.rows)) if (!r.proven) byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + 1);
    process.stdout.write(
      `${[
        `Testable MUST rows proven by a fault: ${s.proven} of ${s.testableMustRows} (${(s.share * 100).toFixed(1)}%)`,
        `Derived shape faults: ${s.derivedFaults} (${s.unobservable} unobservable); run ${s.run}, caught ${s.caught}, holes ${s.holes}, optional members dropped unnoticed ${s.presenceUnchecked} of ${s.absentRun}`,
        `Hand-written faults: ${s.handFaults}, credited ${s.handCaught}`,
        ...(s.familyFaults === undefined
          ? []
          : [
              `Family faults: ${s.familyFaults} (${s.familyUnobservable ?? 0} changed no answer); caught ${s.familyCaught ?? 0}, missed ${file.familyMissed?.length ?? 0}, caught without citing a row of their kind ${file.familyUncited?.length ?? 0}`,
            ]),
        `Unproven rows: ${[...byReason].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
        `${s.runsMade} runs in ${s.minutes} min${opts.out ? `; written to ${opts.out}` : ''}`,
        ...file.holes.slice(0, 40).map((h) => `HOLE ${h.fault}${h.touches.length ? ` (${h.touches.join(' ')})` : ''}`),
        ...(file.holes.length > 40 ? [`... and ${file.holes.length - 40} more holes (see the file)`] : []),
        ...(onlyOp
          ? [
              ...[...proofs].flatMap(([id, by]) => {
                const fam = [...by].filter((f) => f.startsWith(FAMILY_FAULT_PREFIX)).sort();
                if (fam.length === 0) return [];
                // New: unproven in the evidence file as it stands (no other kind of fault proved it).
                const fresh = evidenceBefore?.rows[id]?.proven === false;
                return [`FAMILY-PROVES ${id}${fresh ? ' (new)' : ''} by ${fam.join(' ')}`];
              }),
              ...(file.familyMissed ?? []).map((m) => `FAMILY-MISSED ${m.fault}: ${m.description}`),
              ...(file.familyUncited ?? []).map((u) => `FAMILY-UNCITED ${u.fault}: caught by ${u.caughtBy.join('; ')}`),
            ]
          : []),
      ].join('\n')}\n`,
    );
    return 0;
  } finally {
    pool.close();
  }
}

if (!process.argv.includes('--worker') && process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`power: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
