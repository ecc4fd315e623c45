/**
 * The requests every operation gets from the one derivation (issue 14; generators/requestArbitrary.ts):
 * first the deterministic coverage phase (every enum value, every boundary, every feature-gated
 * parameter with and without its feature, one sample of every invalid-request family), then the
 * random phase (valid requests, then invalid ones, each a property with the run's seed and runs).
 * A suite states only what the target holds (fixtures) and what a request needs beside its
 * parameters (header values); it never builds a request arbitrary itself.
 *
 * What is judged, never stricter than the documents (spec/decisions.md DEC-D1-76, DEC-D2-65,
 * DEC-D3-65):
 * - a request of documented form is served or answered with a data-dependent outcome, never a
 *   5xx nor a refusal of its parameters (SHOULD: D1-4-03, D2-4-04, D3-4-06);
 * - a success answer has the operation's documented body (MUST: D1-4-04, D2-4-05, D3-4-07);
 * - an invalid request gets an answer the error table allows for its reason: MUST where the table
 *   answers bad parameters or ties the trigger (D1-7-26, D2-7-31, D3-7-45), SHOULD (any 4xx)
 *   where it names nothing for it (D1-7-27, D2-7-32, D3-7-46);
 * - an operation with a JSON body gets negative cases of the bodies the suite sends, one per reason
 *   and top-level member in the coverage phase, then generated: SHOULD a 4xx (DEC-D3-67).
 */
import fc from 'fast-check';
import {
  type CoveragePhaseEntry,
  coveragePhaseServed,
  documentedCodeHasItsStatus,
  invalidRequestAnswered,
  matchesSchema,
  validRequestServed,
} from '../../checks/index.ts';
import type { Check } from '../../core/check.ts';
import type { Exchange, RespondedExchange } from '../../core/exchange.ts';
import { hasResponse } from '../../core/exchange.ts';
import { MASK, personalParameter } from '../../core/personalData.ts';
import { judge } from '../../core/property.ts';
import { SendAhead } from '../../core/sendAhead.ts';
import {
  type CallOptions,
  call,
  describeOperation,
  evaluate,
  hasFeatures,
  on,
  runContext,
  sendAheadWidth,
} from '../../core/suite.ts';
import {
  type AllowedAnswers,
  coveragePhase,
  invalidRequests,
  type ParameterRequest,
  type RequestOptions,
  validRequest,
} from '../../generators/requestArbitrary.ts';
import {
  INVALID_REASONS,
  type InvalidBody,
  invalidBodies,
  invalidCasesOf,
  type JsonBody,
  validBody,
} from '../../generators/bodyArbitrary.ts';
import { fixturesOf, namesRecord, requestParameters, valuesOf } from '../../generators/parameterValueRequest.ts';
import { type OperationId, operation } from '../../spec/operations.ts';
import { REQUEST_BODY_SCHEMAS } from '../../spec/requestBodies.ts';
import { requirementById } from '../../spec/requirements.ts';
import { omitUnlessDestructive } from './destructive.ts';
import type { DocumentId, FeatureName, Level, Operation } from '../../spec/types.ts';

/** The rows the derived requests judge, per document. */
const ROWS: Record<DocumentId, { served: string; body: string; tied: string; open: string }> = {
  D1: { served: 'D1-4-03', body: 'D1-4-04', tied: 'D1-7-26', open: 'D1-7-27' },
  D2: { served: 'D2-4-04', body: 'D2-4-05', tied: 'D2-7-31', open: 'D2-7-32' },
  D3: { served: 'D3-4-06', body: 'D3-4-07', tied: 'D3-7-45', open: 'D3-7-46' },
};

const DECISION: Record<DocumentId, string> = { D1: 'DEC-D1-76', D2: 'DEC-D2-65', D3: 'DEC-D3-65' };

/** The searches the documents send as a POST form (D1 4.1 to 4.3, 4.6, 4.7): they change nothing. */
const SEARCHES_SENT_AS_POST: ReadonlySet<string> = new Set([
  'find-member-v1',
  'find-member-v2',
  'search-authorisation',
  'search-remittance-summary',
  'search-remittance-detail',
]);

/**
 * GETs whose requests may change what a later request is answered: logout ends the session, and
 * a user-info `code` may be accepted once (DEC-D3-43); list-site-payors is destructive (DEC-D3-12).
 */
const GETS_THAT_CHANGE: ReadonlySet<string> = new Set(['logout', 'get-user-info']);

/**
 * Whether the valid requests of an operation change nothing on the target (a GET but those above,
 * a search sent as a POST form; none destructive), so that they are independent of each other:
 * they may be sent ahead of the one judged, several at once (core/sendAhead.ts, up to the run's
 * concurrency), and are still judged and recorded in their order. Any other operation's valid
 * requests go one after another: each may change what the next is answered (an acknowledged
 * batch, a deleted payor, a used code).
 *
 * Invalid requests and invalid bodies are independent whatever the operation: the target must
 * refuse every one (D1-7-26, D2-7-31, D3-7-45; DEC-D3-67), and a refused request changes
 * nothing (a body taken anyway is undone). On a target that serves some of them anyway, the
 * verdicts are the same whatever the concurrency; what such a request changed may show in
 * another's evidence.
 */
export function readsOnly(op: Operation): boolean {
  if (op.destructive) return false;
  return op.method === 'GET' ? !GETS_THAT_CHANGE.has(op.id) : SEARCHES_SENT_AS_POST.has(op.id);
}

/**
 * "Whenever a documented error code is returned, its HTTP status is the one of the table", per
 * document (D1 7, D2 7, D3 7): whatever the request, an answer carrying a code of the operation's
 * table carries that code's status. Judged only where the row lists the operation.
 */
const CODE_STATUS_ROW: Record<DocumentId, string> = { D1: 'D1-7-16', D2: 'D2-7-28', D3: 'D3-7-39' };
function codeStatusJudgements(op: Operation): Judged[] {
  const row = CODE_STATUS_ROW[op.document];
  const table = op.errors.filter((e) => e.code !== '');
  if (table.length === 0 || !requirementById(row)?.operations.includes(op.id)) return [];
  return [{ level: 'MUST', requirements: [row], check: documentedCodeHasItsStatus(table) }];
}

/** What a suite tells the derivation about one operation. */
export interface DerivedOptions {
  /** Values the target holds, by parameter name (mixed into valid requests, first in the coverage phase). */
  fixtures?: RequestOptions['fixtures'];
  /** How often a parameter with fixtures takes one (0 to 1, default 0.5). */
  fixtureWeight?: number;
  /** What every request carries beside its parameters: header placeholder values, extra headers. */
  base?: Pick<CallOptions, 'values' | 'headers' | 'omitHeaders'>;
  /** How the suite sends a request of the operation (its credentials: a user token ...); default `call`. */
  send?: (id: OperationId, options: CallOptions) => Promise<Exchange>;
  /**
   * An operation with a JSON body (spec/requestBodies.ts): the valid bodies its negative cases
   * mutate (default: the request schema's own), the path parameters of the address (a patient the
   * suite created), and what to undo when the target took an invalid body anyway.
   */
  body?: {
    base?: fc.Arbitrary<JsonBody>;
    path?: Record<string, string>;
    undo?: (taken: Exchange) => Promise<void>;
  };
  /** Run after the operation's derived requests, passed or not (deleting what the plan created). */
  after?: () => Promise<void>;
}

/** The answers allowed to a body the request schema refuses: a 4xx (SHOULD, DEC-D3-67). */
const INVALID_BODY: AllowedAnswers = {
  refusal: 'any-4xx',
  errors: [],
  mayServe: false,
  basis: ['D3 7', 'DEC-D3-67'],
};

/**
 * Fixture values by parameter name from records of the config or of the target's answers: every
 * string (or number) member of each record is a value of the parameter of that name.
 */
export function fixturesFrom(
  ...records: readonly (Readonly<Record<string, unknown>> | undefined)[]
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of records)
    for (const [name, v] of Object.entries(r ?? {})) {
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      const value = String(v);
      const list = out[name] ?? [];
      if (value !== '' && !list.includes(value)) out[name] = [...list, value];
    }
  return out;
}

/**
 * Whether the derivation sends the operation requests: parameters of its own (path, query, form
 * or multipart), or a JSON body of a request schema (its negative cases; its valid bodies are the
 * suite's own properties).
 */
export function derivable(op: Operation): boolean {
  const parameters = requestParameters(op);
  return REQUEST_BODY_SCHEMAS[op.id] !== undefined || parameters.length > 0;
}

/** The level and row an invalid request is judged at: MUST where the table answers it, else SHOULD. */
function invalidRule(op: Operation, allowed: AllowedAnswers): { level: Level; requirements: string[] } {
  const rows = ROWS[op.document];
  return allowed.refusal === 'any-4xx'
    ? { level: 'SHOULD', requirements: [rows.open] }
    : { level: 'MUST', requirements: [rows.tied] };
}

const sendOf = (options: DerivedOptions) => options.send ?? call;

/** The call options of a derived request. */
function callOptions(request: ParameterRequest, options: DerivedOptions): CallOptions {
  return {
    ...options.base,
    path: { ...request.path },
    query: { ...request.query },
    form: { ...request.form },
    ...(Object.keys(request.multipart).length > 0 ? { multipart: { ...request.multipart } } : {}),
  };
}

/** The label of a coverage entry as the report shows it: values of personal parameters masked. */
function masked(label: string, parameter: string | undefined, value: string | undefined): string {
  if (parameter === undefined || value === undefined || value === '' || personalParameter(parameter) === undefined)
    return label;
  return label.split(`${parameter}=${value}`).join(`${parameter}=${MASK}`);
}

type Judged = { level: Level; requirements: string[]; check: Check<RespondedExchange> };

/**
 * Whether every value of the request that names a record is one the target holds (a fixture) or
 * a listed value. Otherwise the answer may say the record is unknown in a shape of its own, or
 * refuse the value as invalid (the documents leave both open, DEC-D1-76, DEC-D2-41, DEC-D2-50).
 */
function namesHeldRecords(op: Operation, request: ParameterRequest, options: DerivedOptions): boolean {
  const values = valuesOf(request);
  return requestParameters(op)
    .filter(namesRecord)
    .every((p) => {
      const v = values[p.name];
      return v === undefined || fixturesOf(p, options).includes(v) || (p.values ?? []).includes(v);
    });
}

/**
 * The judgements of an answer to a valid request: served (SHOULD), and its body when a success
 * and every record it names is held (MUST; an unknown record's answer is open, DEC-D2-41, -50).
 */
function validJudgements(op: Operation, x: Exchange, request: ParameterRequest, options: DerivedOptions): Judged[] {
  const rows = ROWS[op.document];
  const held = namesHeldRecords(op, request, options);
  const requiredOpen = op.parameters.some((p) => !p.required && /depends on/i.test(p.description));
  const out: Judged[] = [
    {
      level: 'SHOULD',
      requirements: [rows.served],
      check: validRequestServed({ requiredOpen, unknownRecord: !held }),
    },
  ];
  if (held && hasResponse(x) && x.response.status >= 200 && x.response.status < 300 && op.responseSchema)
    out.push({ level: 'MUST', requirements: [rows.body], check: matchesSchema(op.responseSchema) });
  return [...out, ...codeStatusJudgements(op)];
}

/** Judges one answer without recording it; the first failing judgement at MUST, else the first failing one. */
function firstFailure(x: Exchange, judged: readonly Judged[]): { j: Judged; message: string } | undefined {
  let first: { j: Judged; message: string } | undefined;
  for (const j of judged) {
    const e = evaluate(x, j.check, x);
    if (e.outcome !== 'fail' && e.outcome !== 'error') continue;
    if (j.level === 'MUST') return { j, message: e.message };
    first ??= { j, message: e.message };
  }
  return first;
}

interface Planned {
  label: string;
  aspect: string;
  parameter?: string;
  /** Whether the request may be sent ahead of those before it (readsOnly; invalid requests always). */
  independent: boolean;
  /** Sends the request (absent when it is not sent). */
  send?: () => Promise<Exchange>;
  /** Why it is not sent, when it is not. */
  notSent?: string;
  judged: (x: Exchange) => Judged[];
}

/** A request of the operation with a JSON body (its path parameters from the options). */
function bodyCall(body: unknown, options: DerivedOptions): CallOptions {
  return { ...options.base, path: { ...options.body?.path }, body: JSON.stringify(body) };
}

/**
 * The coverage phase of an operation with a JSON body: negative cases of one valid body, one per
 * reason and top-level member (every member the body has is made missing, of the wrong type ...).
 */
function planBodies(op: Operation, options: DerivedOptions): Planned[] {
  const schema = REQUEST_BODY_SCHEMAS[op.id];
  if (schema === undefined) return [];
  const [base] = fc.sample(options.body?.base ?? validBody(schema), { seed: 1, numRuns: 1 });
  const rule = invalidRule(op, INVALID_BODY);
  // One case per reason and top-level member, the deepest of its site (a nested member is where a
  // server that reads only what it needs stops judging the shape).
  const chosen = new Map<string, InvalidBody>();
  for (const c of invalidCasesOf(schema, base, INVALID_REASONS)) {
    const key = `${c.reason} ${c.path.split('/')[1] ?? ''}`;
    const held = chosen.get(key);
    if (!held || c.path.split('/').length > held.path.split('/').length) chosen.set(key, c);
  }
  return [...chosen.values()].map((c) => ({
    label: `invalid body: ${c.reason} at ${c.path === '' ? 'the body' : c.path}`,
    aspect: `invalid-body-${c.reason}`,
    independent: true,
    send: async () => {
      const x = await sendOf(options)(op.id as OperationId, bodyCall(c.body, options));
      await undoIfTaken(x, options);
      return x;
    },
    judged: () => [{ ...rule, check: invalidRequestAnswered(INVALID_BODY) }, ...codeStatusJudgements(op)],
  }));
}

/** An invalid body the target took anyway (2xx) is undone where the suite says how. */
async function undoIfTaken(x: Exchange, options: DerivedOptions): Promise<void> {
  if (hasResponse(x) && x.response.status >= 200 && x.response.status < 300) await options.body?.undo?.(x);
}

/** The coverage phase of one operation: valid entries, then one sample of every invalid family. */
function plan(op: Operation, options: DerivedOptions): Planned[] {
  if (REQUEST_BODY_SCHEMAS[op.id] !== undefined) return planBodies(op, options);
  const ctx = runContext();
  const lacking = (features: readonly FeatureName[]) => {
    const missing = features.filter((f) => !hasFeatures([f]));
    return missing.length > 0 ? `needs feature ${missing.join(' and ')}` : undefined;
  };
  const requestOptions = { features: ctx.features, fixtures: options.fixtures };
  const valid = coveragePhase(op, requestOptions).map(
    (e): Planned => ({
      label: masked(e.label, e.parameter, e.value),
      aspect: e.aspect,
      parameter: e.parameter,
      independent: readsOnly(op),
      send: () => sendOf(options)(op.id as OperationId, callOptions(e.request, options)),
      notSent: lacking(e.features),
      judged: (x) => validJudgements(op, x, e.request, options),
    }),
  );
  const invalid = invalidRequests(op, requestOptions).map((f): Planned => {
    const [c] = fc.sample(f.arbitrary, { seed: 1, numRuns: 1 });
    const rule = invalidRule(op, f.allowed);
    return {
      label: `invalid: ${masked(c.reason, f.parameter, c.value)} (${f.kind})`,
      aspect: `invalid-${f.kind}`,
      parameter: f.parameter,
      independent: true,
      send: () => sendOf(options)(op.id as OperationId, callOptions(c.request, options)),
      notSent: lacking(f.features),
      judged: () => [{ ...rule, check: invalidRequestAnswered(f.allowed) }, ...codeStatusJudgements(op)],
    };
  });
  return [...valid, ...invalid];
}

/**
 * The level and rows of the coverage phase's one result: the MUST rows its entries were judged by,
 * else the SHOULD rows, else (nothing sent) the row its entries would have been judged by: the
 * success body (MUST) of an operation with a documented success body and no JSON request body,
 * the invalid-request row (SHOULD) of a body operation, the served row (SHOULD) otherwise.
 */
function phaseRule(
  op: Operation,
  must: ReadonlySet<string>,
  should: ReadonlySet<string>,
): { level: Level; cited: string[] } {
  const rows = ROWS[op.document];
  if (must.size > 0) return { level: 'MUST', cited: [...must] };
  if (should.size > 0) return { level: 'SHOULD', cited: [...should] };
  if (REQUEST_BODY_SCHEMAS[op.id] !== undefined) return { level: 'SHOULD', cited: [rows.open] };
  return op.responseSchema ? { level: 'MUST', cited: [rows.body] } : { level: 'SHOULD', cited: [rows.served] };
}

/**
 * The coverage phase: every planned request sent (the independent ones ahead, several at once,
 * readsOnly) and judged in order, one `coverage-phase-served`
 * result listing them all (the report's "Coverage phase" section), its exchange the first one
 * that failed at MUST; a failure of a SHOULD rule is also recorded on its own, as a warning.
 */
async function runCoveragePhase(op: Operation, options: DerivedOptions): Promise<void> {
  const entries: CoveragePhaseEntry[] = [];
  let firstMust: Exchange | undefined;
  const requirements = new Set<string>();
  const shouldRows = new Set<string>();
  const planned = plan(op, options);
  const sent = planned.flatMap((p) => (p.notSent === undefined && p.send ? [{ send: p.send, ...p }] : []));
  // The independent ones sent ahead, several at once; all judged below one by one in the plan's order.
  const ahead = new SendAhead(
    sent.map((p) => p.send),
    sendAheadWidth(),
    (k) => sent[k].independent,
  );
  let taken = 0;
  for (const p of planned) {
    const shown = { label: p.label, aspect: p.aspect, ...(p.parameter ? { parameter: p.parameter } : {}) };
    if (p.notSent !== undefined || p.send === undefined) {
      entries.push({ ...shown, outcome: 'not-sent', why: p.notSent ?? 'no request' });
      continue;
    }
    const x = await ahead.take(taken++);
    // Refused for load after the run's retry budget: not judged, never a failure (DEC-R-05).
    if (x.errorKind === 'load-refused') {
      entries.push({ ...shown, outcome: 'not-sent', why: x.error ?? 'refused for load; not judged' });
      continue;
    }
    const judged = p.judged(x);
    for (const j of judged) for (const r of j.requirements) (j.level === 'MUST' ? requirements : shouldRows).add(r);
    const failure = firstFailure(x, judged);
    const status = hasResponse(x) ? { status: x.response.status } : {};
    if (!failure) {
      entries.push({ ...shown, level: judged[0].level, outcome: 'pass', ...status });
      continue;
    }
    entries.push({ ...shown, level: failure.j.level, outcome: 'fail', ...status, why: failure.message });
    if (failure.j.level === 'MUST') firstMust ??= x;
    else
      on(op.id as OperationId)
        .at(failure.j.level, ...failure.j.requirements)
        .under(DECISION[op.document])
        .check(x, failure.j.check, { coverage: p.label });
  }
  // Nothing judged at MUST (a body operation, or one without a success body such as ack-remittance
  // and revoke-token: every case is a SHOULD): the phase is a SHOULD citing the rows it judged, so
  // that it never claims the success-body row of an operation whose row does not list it.
  const { level, cited } = phaseRule(op, requirements, shouldRows);
  on(op.id as OperationId)
    .at(level, ...cited)
    .under(DECISION[op.document])
    .with(firstMust ? { exchange: firstMust } : {})
    .check({ entries }, coveragePhaseServed);
}

/** The random phase of valid requests: a property judged as the coverage phase judges them. */
async function randomValid(op: Operation, options: DerivedOptions): Promise<void> {
  const ctx = runContext();
  const rows = ROWS[op.document];
  await on(op.id as OperationId)
    .should(rows.served)
    .under(DECISION[op.document])
    .property({
      arbitrary: validRequest(op, {
        features: ctx.features,
        fixtures: options.fixtures,
        fixtureWeight: options.fixtureWeight,
      }),
      exercise: async (r) => {
        const x = await sendOf(options)(op.id as OperationId, callOptions(r, options));
        return validJudgements(op, x, r, options).map((j) =>
          judge(x, j.check, { level: j.level, requirements: j.requirements }),
        );
      },
      independent: readsOnly(op),
    });
}

/**
 * The random phase of invalid requests, one property per rule: the families the error table
 * answers (MUST) and those it names nothing for (SHOULD), each over the families whose parameter
 * the run may send. A family shrinks within itself, so a shown case is invalid for its reason.
 */
async function randomInvalid(op: Operation, options: DerivedOptions): Promise<void> {
  const ctx = runContext();
  const requestOptions = { features: ctx.features, fixtures: options.fixtures };
  const families = invalidRequests(op, requestOptions).filter((f) => hasFeatures(f.features));
  for (const level of ['MUST', 'SHOULD'] as const) {
    const ruled = families.filter((f) => invalidRule(op, f.allowed).level === level);
    if (ruled.length === 0) continue;
    const rule = invalidRule(op, ruled[0].allowed);
    await on(op.id as OperationId)
      .at(level, ...rule.requirements)
      .under(DECISION[op.document])
      .property({
        arbitrary: fc.oneof(...ruled.map((f) => f.arbitrary)),
        exercise: async (c) => {
          const x = await sendOf(options)(op.id as OperationId, callOptions(c.request, options));
          return [judge(x, invalidRequestAnswered(c.allowed))];
        },
        // Invalid requests: the target must refuse every one, so none changes what another is answered.
        independent: true,
      });
  }
}

/** The random phase of invalid bodies: any negative case of the valid bodies (SHOULD, DEC-D3-67). */
async function randomInvalidBodies(op: Operation, options: DerivedOptions): Promise<void> {
  const schema = REQUEST_BODY_SCHEMAS[op.id];
  if (schema === undefined) return;
  const rule = invalidRule(op, INVALID_BODY);
  await on(op.id as OperationId)
    .at(rule.level, ...rule.requirements)
    .under('DEC-D3-67')
    .property({
      arbitrary: invalidBodies(schema, { ...(options.body?.base ? { base: options.body.base } : {}) }),
      exercise: async (c) => {
        const x = await sendOf(options)(op.id as OperationId, bodyCall(c.body, options));
        await undoIfTaken(x, options);
        return [judge(x, invalidRequestAnswered(INVALID_BODY))];
      },
      // Invalid bodies: the target must refuse every one (one taken is undone).
      independent: true,
    });
}

/** Every derived request of one operation: the coverage phase, then the random phase. */
export async function verifyDerivedRequests(id: OperationId, options: DerivedOptions = {}): Promise<void> {
  const op = operation(id);
  if (!derivable(op)) throw new Error(`Suite bug: ${id} has no parameters this derivation sends`);
  // Operations that change data: only with --allow-destructive (their MUST rows are left out otherwise).
  if (op.destructive && omitUnlessDestructive([id], 'would send generated valid and invalid requests')) return;
  await runCoveragePhase(op, options);
  // A body operation's parameters are its path (the suite's record): its requests are the bodies.
  if (REQUEST_BODY_SCHEMAS[id] !== undefined) return randomInvalidBodies(op, options);
  await randomValid(op, options);
  await randomInvalid(op, options);
}

/** What a suite gives per operation: options, or a function that gathers them from the target first. */
export type DerivedPlan = Partial<Record<OperationId, DerivedOptions | (() => Promise<DerivedOptions>)>>;

/**
 * One test per operation of the plan, inside its operation's describe block: "derived requests"
 * (coverage phase, then random valid and invalid requests). The suite's other tests state the
 * operation's own properties.
 */
export function describeDerivedRequests(plan: DerivedPlan): void {
  for (const [id, given] of Object.entries(plan) as [OperationId, DerivedPlan[OperationId]][]) {
    describeOperation(id, () => {
      const { test } = on(id);
      test('derived requests: coverage phase, then generated valid and invalid requests', async () => {
        const options = typeof given === 'function' ? await given() : (given ?? {});
        try {
          await verifyDerivedRequests(id, options);
        } finally {
          await options.after?.();
        }
      });
    });
  }
}
