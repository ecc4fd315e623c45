/**
 * Stateful sequences inside `conformance run` (issue 14, item 4): the three model-based state
 * machines of generators/stateMachines.ts run against the run's target through the suite's own
 * HTTP client, and each records ONE verdict, check `state-sequence-holds` at MUST, with the seed
 * and path that replay its shortest failing sequence.
 *
 * The suites that own the machines' operations call it at their end, after their other destructive
 * steps (the batch cycle acknowledges the site's pending batches): remittance-batches, patients,
 * contracts, each in a `describeFlow` so that `--only <failing operation>` replays the machine.
 *
 * Decisions:
 * - No reset, even against the sandbox. The run cannot tell the sandbox from any other target (the
 *   run context holds a target URL, nothing more), and the sandbox's reset (`POST
 *   /_pact/provider-states`) restores the data of every site while the other suite files of the
 *   same run, and other runs sharing the sandbox, work on it: their flows would fail spuriously.
 *   The machines judge only what they themselves did (each sequence starts from a fresh model that
 *   observes the pending batches), so they need no reset; what a sequence creates is deleted before
 *   the next one starts and at the end (DEC-D3-13), so no sequence depends on what an earlier one
 *   left behind (DEC-D3-71), and acknowledged batches stay acknowledged (that is what
 *   --allow-destructive allows).
 * - The machines are written against the sandbox's reference paths; each request is mapped to the
 *   operation of the table by its method and documented path (`documentedPath`, with the reference
 *   bases of `{claims_url}`, `{base_url}`, `{contracts_url}`), among the machine's own operations
 *   only, then sent to the discovered address with the documented headers (core/request.ts).
 *   Nothing of server/ is imported.
 * - The batch cycle gets no `foreignBatchId`: what a Get or Ack of another site's batch answers is
 *   not shown (DEC-D1-64: SHOULD), and acknowledging it would change another site's data.
 * - The payor machine maintains the run's own site (`siteId`), where the contracts suite writes
 *   its payors too, so the configured fresh site stays fresh for DEC-D3-12's first listing.
 * - Replay: a machine's path is `<fast-check path>#<commands hint>`. Only a `--path` holding `#`
 *   is handed to the machine; any other is an ordinary property's and the machine runs in full.
 * - Every success answer the sequences receive is judged against its operation's documented body
 *   with the suites' own schema judgement (check `matches-schema` on the operation's
 *   `responseSchema`, at MUST, citing the rows the suites cite for it, SCHEMA_ROWS; a failure also
 *   cites the rows about the member that failed, as every schema failure does). The machines send
 *   what the suites do not (generated patients with `name[].given`, `birthDate`, `address[]`), so
 *   their answers show members no suite step is served (issue 22: a `given` of the wrong type in a
 *   created patient passed). One result per operation: the first answer that fails, else the last
 *   that passed, with how many were judged. The answers to the clean-up at the end are not judged.
 */
import { matchesSchema, type StateSequenceRun, stateSequenceHolds } from '../../checks/index.ts';
import { bodyOf, bundleResources, type Exchange, hasResponse, isRecord } from '../../core/exchange.ts';
import { call, evaluate, on, runContext, tokenFor } from '../../core/suite.ts';
import { worker } from '../../core/worker.ts';
import {
  type MachineAnswer,
  type MachineRequest,
  type MachineTarget,
  runStateMachine,
  type StateMachineName,
} from '../../generators/stateMachines.ts';
import { type OperationId, operation, PATIENT_OPERATIONS } from '../../spec/operations.ts';
import type { Operation } from '../../spec/types.ts';
import { mustRequirementsOf, omitRowsUnlessDestructive, omitUnlessDestructive } from './destructive.ts';

/** The operations each machine calls (all of one suite, so the suite's coupling holds). */
export const STATE_SEQUENCE_OPERATIONS: Readonly<Record<StateMachineName, readonly OperationId[]>> = {
  'batch-cycle': ['list-pending-remittances', 'get-remittance-details', 'ack-remittance'],
  'patient-lifecycle': PATIENT_OPERATIONS,
  'payor-maintenance': [
    'list-site-payors',
    'upsert-payor',
    'upsert-contact-payor',
    'delete-payor',
    'delete-contact-payor',
    'set-contract-service',
    'delete-contract-service',
  ],
};

/** What each machine judges: its main operation, the MUST rows and the decisions it applies, what it does. */
const MACHINES: Readonly<
  Record<StateMachineName, { main: OperationId; requirements: string[]; decisions: string[]; what: string }>
> = {
  // Document 1, 3 and 4.8: acknowledged batches are gone, unknown and removed ids are InvalidId.
  'batch-cycle': {
    main: 'ack-remittance',
    requirements: ['D1-3-01', 'D1-3-02', 'D1-3-03', 'D1-3-04', 'D1-3-05', 'D1-3-06', 'D1-3-07'],
    decisions: ['DEC-D1-11'],
    what: "would list, get and acknowledge the site's pending batches in generated orders",
  },
  // Document 3, 3 and 4.4: new ids, reads as sent, updates kept, deleted patients 404.
  'patient-lifecycle': {
    main: 'delete-patient',
    requirements: ['D3-4.4-04', 'D3-4.4-08', 'D3-4.4-12', 'D3-4.4-17', 'D3-3-05', 'D3-3-06'],
    decisions: ['DEC-D3-08', 'DEC-D3-33', 'DEC-D3-38'],
    what: 'would create, read, update and delete generated patients and conditions in generated orders',
  },
  // Document 3, 4.5: slf and na once each, payors listed once while they exist and gone after delete.
  'payor-maintenance': {
    main: 'upsert-payor',
    requirements: ['D3-4.5-14', 'D3-4.5-18', 'D3-4.5-24'],
    decisions: ['DEC-D3-12', 'DEC-D3-37', 'DEC-D3-58'],
    what: "would create, list and delete payors and contract services of the run's site in generated orders",
  },
};

/**
 * The rows the schema judgement of a machine's answers cites per operation: those the suites cite
 * for the same operation's `matches-schema` (suites/patients.suite.ts PATIENT_SCHEMA and
 * CONDITION_SCHEMA, suites/contracts.suite.ts CONTRACT_SCHEMA and its delete steps; the batch
 * operations' schema is cited by no row of their own there, remittance-batches.suite.ts). A
 * failure adds the rows about the member that failed (core/judgement.ts).
 */
const CONTRACT_ROWS = [
  'D3-2.6-01',
  'D3-2.6-04',
  'D3-2.6-05',
  'D3-2.6-06',
  'D3-2.6-07',
  'D3-2.6-08',
  'D3-2.6-09',
  'D3-2.6-11',
];
const PATIENT_ROWS = ['D3-2.4-01', 'D3-2.4-02', 'D3-2.4-05', 'D3-2.4-06', 'D3-2.4-08', 'D3-2.4-09'];
export const SCHEMA_ROWS: Readonly<Partial<Record<OperationId, readonly string[]>>> = {
  'create-patient': PATIENT_ROWS,
  'get-patient': PATIENT_ROWS,
  'update-patient': PATIENT_ROWS,
  'delete-patient': ['D3-4.4-14'],
  'create-condition': ['D3-2.5-01', 'D3-2.5-02', 'D3-2.5-04', 'D3-2.5-05'],
  'delete-condition': ['D3-4.4-18'],
  'list-site-payors': CONTRACT_ROWS,
  'upsert-payor': CONTRACT_ROWS,
  'upsert-contact-payor': CONTRACT_ROWS,
  'set-contract-service': CONTRACT_ROWS,
  'delete-payor': ['D3-4.5-37'],
  'delete-contact-payor': ['D3-4.5-37'],
  'delete-contract-service': ['D3-4.5-28'],
  'list-pending-remittances': [],
  'get-remittance-details': [],
  'ack-remittance': [],
};

/** The `{ref_url}` the suite sends inside resources (as suites/contracts.suite.ts; DEC-D3-30). */
const REF_URL = 'https://ref.example';

/**
 * Where the machines' reference paths start for each documented base (the sandbox's addresses,
 * server/router/addresses.ts: `{claims_url}` is `{base}/claims`, the patients' `{base_url}` is
 * `{base}/patients`, `{contracts_url}` is `{base}/contracts`).
 */
const REFERENCE_BASES: Readonly<Record<string, string>> = {
  '{claims_url}': '/claims',
  '{base_url}': '/patients',
  '{contracts_url}': '/contracts',
};

/** A machine request mapped onto the table: the operation, its path parameters and query. */
export interface ResolvedRequest {
  operation: Operation;
  path: Record<string, string>;
  query: Record<string, string>;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The reference path of an operation as a pattern capturing its path parameters. */
function referencePattern(op: Operation): RegExp | undefined {
  const base = Object.keys(REFERENCE_BASES).find((b) => op.documentedPath.startsWith(b));
  if (base === undefined) return undefined;
  const rest = op.documentedPath.slice(base.length).replace(/\/$/, '');
  const body = rest
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '([^/]+)' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${escapeRegExp(REFERENCE_BASES[base])}${body}$`);
}

/** The payor kind a contract write names: a `Person/` authority is a contact (Document 3, 4.5). */
function authorityOf(body: string | undefined): string | undefined {
  try {
    const parsed: unknown = body === undefined ? undefined : JSON.parse(body);
    const authority = isRecord(parsed) && Array.isArray(parsed.authority) ? parsed.authority[0] : undefined;
    return isRecord(authority) && typeof authority.reference === 'string' ? authority.reference : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operation of `machine` a request at a reference path is, with its path parameters (in the
 * order of the operation's `pathSuffix`) and query; undefined when none of its operations serves
 * it. Operations sharing an address are told apart as Document 3, 4.5 tells them apart: a
 * `Person/` authority or `payorType` `C` is the contact payor.
 */
export function resolveMachineRequest(
  machine: StateMachineName,
  method: string,
  referencePath: string,
  body?: string,
): ResolvedRequest | undefined {
  const url = new URL(referencePath, 'http://reference.invalid');
  const pathname = url.pathname.replace(/\/$/, '');
  const matches = STATE_SEQUENCE_OPERATIONS[machine]
    .map((id) => operation(id))
    .filter((op) => op.method === method.toUpperCase())
    .flatMap((op) => {
      const m = referencePattern(op)?.exec(pathname);
      return m ? [{ op, captures: m.slice(1).map((c) => decodeURIComponent(c)) }] : [];
    });
  const contact =
    authorityOf(body)?.startsWith('Person/') === true || url.searchParams.get('payorType')?.trim() === 'C';
  const chosen =
    matches.length > 1 ? (matches.find((m) => m.op.id.includes('contact') === contact) ?? matches[0]) : matches[0];
  if (chosen === undefined) return undefined;
  const names = [...chosen.op.pathSuffix.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const values = chosen.captures.slice(chosen.captures.length - names.length);
  return {
    operation: chosen.op,
    path: Object.fromEntries(names.map((n, i) => [n, values[i]])),
    query: Object.fromEntries(url.searchParams),
  };
}

/** Thrown inside a sequence when the target gave no answer: the run records `error`, never a failure. */
class NoAnswer extends Error {}

/** Undo requests (reference paths) of what a sequence created and did not delete, keyed by resource. */
class CleanupLedger {
  readonly #undo = new Map<string, { method: string; path: string; init: MachineRequest }>();

  /** Notes what a successful request created or deleted (DEC-D3-13: everything created is deleted). */
  note(r: ResolvedRequest, body: string | undefined, answer: unknown): void {
    const id = isRecord(answer) && typeof answer.id === 'string' ? answer.id : undefined;
    const user: MachineRequest = { credential: 'user' };
    const client: MachineRequest = { credential: 'client' };
    const sent = parse(body);
    const site = siteOf(sent);
    switch (r.operation.id) {
      case 'create-patient':
      case 'update-patient': {
        const pid = r.path.patient_id ?? id;
        if (pid) this.#undo.set(`patient:${pid}`, { method: 'DELETE', path: patientPath(pid), init: user });
        return;
      }
      case 'delete-patient':
        return void this.#undo.delete(`patient:${r.path.patient_id}`);
      case 'create-condition':
        if (id)
          this.#undo.set(`condition:${id}`, {
            method: 'DELETE',
            path: `/patients/patient/condition/${encodeURIComponent(id)}`,
            init: user,
          });
        return;
      case 'delete-condition':
        return void this.#undo.delete(`condition:${r.path.condition_id}`);
      case 'upsert-payor':
      case 'upsert-contact-payor': {
        const payor = authorityOf(body);
        if (!payor || !id || !site) return;
        const query = new URLSearchParams({ payorId: payor, payorType: payor.startsWith('Person/') ? 'C' : 'I' });
        query.set('providerGroup', id);
        const path = `/contracts/contract/${encodeURIComponent(site)}?${query}`;
        return void this.#undo.set(`payor:${payor}`, { method: 'DELETE', path, init: client });
      }
      case 'delete-payor':
      case 'delete-contact-payor':
        return void this.#undo.delete(`payor:${r.query.payorId}`);
      case 'set-contract-service':
        for (const code of serviceCodesOf(sent)) {
          if (!site) continue;
          const query = new URLSearchParams({ indStdCode: code, indStdCodeScheme: 'ISC' });
          const path = `/contracts/contract/PRICING/$contract-price/${encodeURIComponent(site)}?${query}`;
          this.#undo.set(`service:${code}`, { method: 'DELETE', path, init: client });
        }
        return;
      case 'delete-contract-service':
        return void this.#undo.delete(`service:${r.query.indStdCode}`);
    }
  }

  /**
   * True while what `key` names (`patient:<id>`, `condition:<id>`, `payor:<ref>`, `service:<code>`) was
   * created and not deleted.
   */
  holds(key: string): boolean {
    return this.#undo.has(key);
  }

  /** The undo requests, dependants first (conditions before patients, services before payors). */
  take(): { method: string; path: string; init: MachineRequest }[] {
    const first = (k: string) => (k.startsWith('condition:') || k.startsWith('service:') ? 0 : 1);
    const keys = [...this.#undo.keys()].sort((a, b) => first(a) - first(b));
    const out = keys.map((k) => this.#undo.get(k) as { method: string; path: string; init: MachineRequest });
    this.#undo.clear();
    return out;
  }
}

const patientPath = (id: string) => `/patients/patient/${encodeURIComponent(id)}`;

function parse(body: string | undefined): unknown {
  try {
    return body === undefined ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The site of a contract write: its `subject` `Site/<id>` (Document 3, 2.6). */
function siteOf(body: unknown): string | undefined {
  const subject = isRecord(body) && Array.isArray(body.subject) ? body.subject[0] : undefined;
  const ref = isRecord(subject) && typeof subject.reference === 'string' ? subject.reference : '';
  return /^Site\/(.+)$/.exec(ref)?.[1];
}

/** The ISC service codes of a price-group Contract's valued items. */
function serviceCodesOf(body: unknown): string[] {
  const text = JSON.stringify(body ?? {});
  return [...text.matchAll(/"system":"ISC","code":"([^"]+)"/g)].map((m) => m[1]);
}

/**
 * A machine target over the suite's client: every request goes through `call` (discovered
 * address, documented headers, the run's breaker), with the user token for the patient and
 * contract operations (DEC-D3-07, DEC-D3-16) and the run's client token otherwise. It keeps the
 * exchanges of the sequence running, and what to delete at the end.
 */
class SuiteMachineTarget implements MachineTarget {
  /**
   * The exchanges of the first sequence since `restart()`: in a replay (`seed` and `path`),
   * fast-check runs the counterexample first, then tries its shrinks.
   */
  first: Exchange[] = [];
  #sequences = 0;
  /** The last exchange of each operation, for a passing verdict's evidence. */
  readonly lastOf = new Map<string, Exchange>();
  /** The first exchange that got no answer (time-out, transport failure, breaker). */
  noAnswer: Exchange | undefined;
  /** An error of the suite itself (a request none of the machine's operations serves). */
  suiteBug: Error | undefined;
  readonly ledger = new CleanupLedger();
  /** Per operation, the schema judgement of the success answers the sequences received. */
  readonly shapes = new Map<OperationId, ShapeTally>();
  /** False during the clean-up: its answers are not judged. */
  #judging = true;

  constructor(readonly machine: StateMachineName) {}

  /** The batch ids the last pending listing held, less those acknowledged since. */
  readonly #pendingBatches = new Set<string>();

  /**
   * True when every record the request names is one the target is known to hold: created by the
   * sequences and not deleted (the ledger), or listed pending and not acknowledged. Creations,
   * listings and upserts name none. An answer about a record the target does not hold is open
   * (DEC-D3-38, DEC-D3-59: only not a server error), so its body is not judged as a success body.
   */
  #namesHeld(r: ResolvedRequest, body: string | undefined): boolean {
    switch (r.operation.id) {
      case 'get-patient':
      case 'update-patient':
      case 'delete-patient':
        return this.ledger.holds(`patient:${r.path.patient_id}`);
      case 'create-condition': {
        const named = [...(body ?? '').matchAll(/"reference"\s*:\s*"patient\/([^"]+)"/g)].map((m) => m[1]);
        return named.length > 0 && named.every((id) => this.ledger.holds(`patient:${id}`));
      }
      case 'delete-condition':
        return this.ledger.holds(`condition:${r.path.condition_id}`);
      case 'delete-payor':
      case 'delete-contact-payor':
        return this.ledger.holds(`payor:${r.query.payorId}`);
      case 'delete-contract-service':
        return this.ledger.holds(`service:${r.query.indStdCode}`);
      case 'get-remittance-details':
      case 'ack-remittance':
        return this.#pendingBatches.has(r.path.id ?? '');
      default:
        return true;
    }
  }

  /** Notes the pending batches a listing shows and those an acknowledgement removes. */
  #noteBatches(r: ResolvedRequest, x: Exchange): void {
    if (!hasResponse(x) || x.response.status < 200 || x.response.status > 299) return;
    if (r.operation.id === 'ack-remittance') this.#pendingBatches.delete(r.path.id ?? '');
    if (r.operation.id !== 'list-pending-remittances') return;
    // A first page starts a new listing (the machines walk pages 1, 2 ... in order).
    if (!('page' in r.query) || r.query.page === '1') this.#pendingBatches.clear();
    for (const resource of bundleResources(bodyOf(x)))
      if (typeof resource.id === 'string') this.#pendingBatches.add(resource.id);
  }

  /** Judges a success answer against its operation's documented body, without recording it yet. */
  #judgeShape(op: Operation, x: Exchange): void {
    if (!this.#judging || !op.responseSchema || !hasResponse(x)) return;
    if (x.response.status < 200 || x.response.status > 299) return;
    const id = op.id as OperationId;
    const tally = this.shapes.get(id) ?? { schema: op.responseSchema, judged: 0, failed: 0 };
    this.shapes.set(id, tally);
    const outcome = evaluate(x, matchesSchema(op.responseSchema), x).outcome;
    tally.judged += 1;
    if (outcome === 'fail') {
      tally.failed += 1;
      tally.firstFailing ??= x;
    } else if (outcome === 'pass') tally.lastPassing = x;
    tally.last = x;
  }

  async call(method: string, path: string, init: MachineRequest): Promise<MachineAnswer> {
    const resolved = resolveMachineRequest(this.machine, method, path, init.body);
    if (resolved === undefined) {
      this.suiteBug ??= new Error(
        `Suite bug: the ${this.machine} machine sent ${method} ${path}, none of its operations`,
      );
      throw this.suiteBug;
    }
    const held = this.#namesHeld(resolved, init.body);
    let x: Exchange;
    try {
      x = await call(resolved.operation.id, await callOptions(resolved, init));
    } catch (error) {
      this.suiteBug ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
    // The clean-up's exchanges are neither a sequence's evidence nor the replayed counterexample's.
    if (this.#judging) {
      if (this.#sequences <= 1) this.first.push(x);
      this.lastOf.set(resolved.operation.id, x);
    }
    if (!hasResponse(x)) {
      this.noAnswer ??= x;
      throw new NoAnswer(`No answer to ${method} ${path}: ${x.error ?? 'unknown transport error'}`);
    }
    if (held) this.#judgeShape(resolved.operation, x);
    this.#noteBatches(resolved, x);
    const json = bodyOf(x);
    if (x.response.status >= 200 && x.response.status < 300) this.ledger.note(resolved, init.body, json);
    return { status: x.response.status, json, text: x.response.bodyText };
  }

  /**
   * Counts where each sequence starts, after deleting what the sequence before it created and did
   * not delete: no sequence meets a record another one left behind (a payor created without id
   * there would be a second Contract of the same payor here, DEC-D3-71). Nothing else is reset
   * (see the file's comment).
   */
  async reset(): Promise<void> {
    await this.#undoCreated();
    this.#sequences += 1;
  }

  /** Starts keeping the first sequence of the next run. */
  restart(): void {
    this.#sequences = 0;
    this.first = [];
  }

  /** Deletes what the sequences created and did not delete; answers are not judged. */
  async cleanUp(): Promise<void> {
    await this.#undoCreated();
    this.#judging = false;
  }

  /** Sends the ledger's undo requests without judging their answers, then judges again. */
  async #undoCreated(): Promise<void> {
    this.#judging = false;
    try {
      for (const undo of this.ledger.take()) {
        if (this.noAnswer) return;
        await this.call(undo.method, undo.path, undo.init).catch(() => undefined);
      }
    } finally {
      this.#judging = true;
    }
  }
}

/** The schema judgement of one operation's success answers in the sequences. */
interface ShapeTally {
  schema: string;
  judged: number;
  failed: number;
  firstFailing?: Exchange;
  lastPassing?: Exchange;
  last?: Exchange;
}

/**
 * Records the schema judgement of the answers the sequences received, one result per operation of
 * the run's selection: check `matches-schema` at MUST on the first answer that failed (with how
 * many of how many failed), else on the last that passed; the rows are SCHEMA_ROWS's.
 */
function recordShapes(name: StateMachineName, target: SuiteMachineTarget): void {
  const { selected } = runContext();
  for (const [id, tally] of target.shapes) {
    const x = tally.firstFailing ?? tally.lastPassing ?? tally.last;
    if (x === undefined || !selected.includes(id)) continue;
    on(id)
      .must(...(SCHEMA_ROWS[id] ?? []))
      .with({ evidence: { machine: name, answersJudged: tally.judged, answersFailing: tally.failed } })
      .check(x, matchesSchema(tally.schema));
  }
}

/** The call options of a resolved machine request: headers the table does not document pass as sent. */
async function callOptions(r: ResolvedRequest, init: MachineRequest) {
  const documented = new Set(r.operation.headers.map((h) => h.name.toLowerCase()));
  // The site and version headers come from the config (SU-SiteId, DEC-D3-07), never the machine's defaults.
  const ownHeaders = new Set(['su-siteid', 'svc-api-version']);
  const headers = Object.fromEntries(
    Object.entries(init.headers ?? {}).filter(
      ([k]) => !documented.has(k.toLowerCase()) && !ownHeaders.has(k.toLowerCase()),
    ),
  );
  const ctx = runContext();
  const userToken = init.credential === 'user' || r.operation.service === 'contracts';
  const token = userToken ? ((await tokenFor('user')) ?? ctx.token) : ctx.token;
  // DEC-D3-07: the patients' version header may have another name in the config (as suites/patients.suite.ts).
  const version = r.operation.service === 'patients' ? ctx.fixtures.patients?.versionHeader : undefined;
  const custom = version !== undefined && version.name !== 'SVC-API-Version';
  return {
    path: r.path,
    query: r.query,
    ...(init.body === undefined ? {} : { body: init.body }),
    headers: { ...headers, ...(custom ? { [version.name]: version.value } : {}) },
    ...(custom ? { omitHeaders: ['SVC-API-Version'] } : {}),
    values: { token },
  };
}

/** A machine path always holds `#`, so that a run's `--path` tells a machine's from a property's. */
const machinePath = (path: string | undefined) =>
  path === undefined ? undefined : path.includes('#') ? path : `${path}#`;

/** The operation of the last request a failure's trace shows (`  METHOD /path -> status`). */
function lastTracedOperation(machine: StateMachineName, failure: string | undefined): OperationId | undefined {
  const lines = (failure ?? '').split('\n').filter((l) => /^\s+(GET|POST|PUT|DELETE) \S+ -> /.test(l));
  const last = lines[lines.length - 1]?.trim().split(' ');
  return last ? (resolveMachineRequest(machine, last[0], last[1])?.operation.id as OperationId | undefined) : undefined;
}

/**
 * The personal data in the exchanges of the failing sequence is learned by the run's redactor
 * (core/redact.ts masks a learned value wherever it appears), so the command list and failure
 * text of the verdict, which repeat the bodies sent, are masked like the exchanges themselves.
 */
function learnPersonalData(exchanges: readonly Exchange[]): void {
  const { redactor } = worker();
  for (const x of exchanges) redactor.exchange(x);
}

/**
 * Runs one state machine against the run's target and records its verdict (check
 * `state-sequence-holds`, MUST, the machine's requirement rows): on the operation of the failing
 * command (or the machine's main operation when every sequence passed), with the seed, the path
 * (`<fast-check path>#<hint>`) and the shrunk command list that replay it, and the failure text.
 * A destructive step: without --allow-destructive it records `omit` for the machine's operations
 * that change data, each citing its own rows, and for the others the machine's rows only they list,
 * and sends nothing (DEC-D3-62). Each sequence judges only what it did; what
 * the sequences created is deleted at the end (DEC-D3-13).
 */
export async function verifyStateSequence(name: StateMachineName): Promise<void> {
  const spec = MACHINES[name];
  const operations = STATE_SEQUENCE_OPERATIONS[name];
  const changing = operations.filter((id) => operation(id).destructive || id === spec.main);
  if (omitUnlessDestructive(changing, spec.what)) {
    // Each operation's omit cites its own rows: a machine row that no changing operation lists
    // (D1-3-03, D1-3-06: list and get) is left out on the machine's operations that list it.
    const lists = (row: string, id: OperationId) => mustRequirementsOf(id).includes(row);
    const unlisted = spec.requirements.filter((row) => !changing.some((id) => lists(row, id)));
    for (const id of operations.filter((o) => !changing.includes(o)))
      omitRowsUnlessDestructive(
        id,
        unlisted.filter((row) => lists(row, id)),
        spec.what,
      );
    return;
  }
  const ctx = runContext();
  const target = new SuiteMachineTarget(name);
  target.restart();
  const fixtures = { siteId: ctx.siteId, refUrl: REF_URL };
  const replaying = ctx.path?.includes('#') === true;
  try {
    const run = await runStateMachine(name, target, {
      seed: ctx.seed,
      numRuns: ctx.runs,
      fixtures,
      ...(replaying ? { path: ctx.path } : {}),
    });
    if (target.suiteBug) throw target.suiteBug;
    const path = machinePath(run.path);
    // The counterexample is replayed once (unless this run is that replay), so that the verdict
    // points at the exchange of its failing command and masking learns what its bodies carried.
    let reproduced = replaying && !run.ok;
    if (!run.ok && path !== undefined && !replaying && !target.noAnswer) {
      target.restart();
      reproduced = !(await runStateMachine(name, target, { seed: run.seed, path, fixtures })).ok;
    }
    const failing = reproduced ? target.first[target.first.length - 1] : undefined;
    const failingOp = (failing?.operation as OperationId | undefined) ?? lastTracedOperation(name, run.failure);
    const verdictOp = [failingOp, spec.main, ...operations].find(
      (id): id is OperationId => id !== undefined && ctx.selected.includes(id),
    );
    const exchange = target.noAnswer ?? (run.ok ? target.lastOf.get(verdictOp ?? spec.main) : failing);
    if (!run.ok) learnPersonalData(target.first);
    const subject: StateSequenceRun = {
      machine: name,
      ok: run.ok,
      sequences: replaying ? 1 : ctx.runs,
      ...(run.counterexample ? { counterexample: run.counterexample } : {}),
      ...(run.failure ? { failure: run.failure } : {}),
    };
    on(verdictOp ?? spec.main)
      .must(...spec.requirements)
      .under(...spec.decisions)
      .with({
        ...(exchange ? { exchange } : {}),
        replay: {
          seed: run.seed,
          ...(path ? { path } : {}),
          ...(run.ok ? {} : { counterexample: run.counterexample }),
        },
        evidence: { machine: name, ...(run.ok || reproduced ? {} : { replayedWithoutFailure: true }) },
      })
      .check(subject, stateSequenceHolds);
    recordShapes(name, target);
  } finally {
    await target.cleanUp();
  }
}
